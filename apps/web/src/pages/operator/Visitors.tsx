import { Card, Col, Row, Skeleton, Statistic, Table } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { DaysSwitch } from './DaysSwitch';
import { useVisitors } from './queries';

const TrendChart = lazy(() => import('./TrendChart'));

/** 访客统计: page views and unique visitors per day, counted by the service itself. */
export function Visitors() {
  const [days, setDays] = useState(30);
  const query = useVisitors(days);
  return (
    <div className="ops-section">
      <QueryState query={query} rows={6}>
        {(d) => <VisitorsView days={d.days} totalPv={d.totalPv} range={days} onRange={setDays} />}
      </QueryState>
    </div>
  );
}

function VisitorsView({
  days,
  totalPv,
  range,
  onRange,
}: {
  days: { date: string; pv: number; uv: number }[];
  totalPv: number;
  range: number;
  onRange: (n: number) => void;
}) {
  const dates = useMemo(() => days.map((d) => d.date), [days]);
  const series = useMemo(
    () => [
      { name: '浏览量 PV', data: days.map((d) => d.pv) },
      { name: '访客 UV', data: days.map((d) => d.uv) },
    ],
    [days],
  );
  const today = days[days.length - 1];
  return (
    <>
      <Row gutter={[12, 12]} className="ops-stats">
        <Col xs={12} sm={8}>
          <Card size="small">
            <Statistic title="今日浏览量" value={today?.pv ?? 0} />
          </Card>
        </Col>
        <Col xs={12} sm={8}>
          <Card size="small">
            <Statistic title="今日访客" value={today?.uv ?? 0} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card size="small">
            <Statistic title={`近 ${range} 天浏览量`} value={totalPv} />
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        title="每日访客"
        className="ops-chart-card"
        extra={<DaysSwitch value={range} onChange={onRange} />}
      >
        <Suspense fallback={<Skeleton active />}>
          <TrendChart dates={dates} series={series} leftName="次数" label="每日浏览量与访客趋势" />
        </Suspense>
      </Card>
      <p className="ops-muted ops-note">
        由本服务自己统计（控制台每次切换页面记一次浏览），只保存日期和加盐摘要，不保存 IP
        或访问路径；同一天内同一 IP 与浏览器算一位访客。
      </p>
      <Table
        rowKey="date"
        size="small"
        pagination={false}
        dataSource={[...days].reverse().slice(0, 14)}
        columns={[
          { title: '日期', dataIndex: 'date' },
          { title: '浏览量', dataIndex: 'pv' },
          { title: '访客', dataIndex: 'uv' },
        ]}
      />
    </>
  );
}
