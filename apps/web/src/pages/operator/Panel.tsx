import { Card, Col, Row, Skeleton, Statistic } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { formatFen } from '../../features/commerce/money';
import { DaysSwitch } from './DaysSwitch';
import { usePanel } from './queries';

const TrendChart = lazy(() => import('./TrendChart'));

/** 运营总览: totals and the daily trend of registrations, paid orders and revenue. */
export function Panel() {
  const [days, setDays] = useState(30);
  const query = usePanel(days);
  return (
    <div className="ops-section">
      <QueryState query={query} rows={6}>
        {(d) => (
          <>
            <Row gutter={[12, 12]} className="ops-stats">
              {[
                { title: '注册公司', value: d.companies },
                { title: '已实名', value: d.verified },
                { title: '待审核', value: d.reviewing },
                { title: '付费公司', value: d.paying },
                { title: '在线账号', value: d.onlineAccounts },
              ].map((s) => (
                <Col key={s.title} xs={12} sm={8} lg={4}>
                  <Card size="small">
                    <Statistic title={s.title} value={s.value} />
                  </Card>
                </Col>
              ))}
              <Col xs={12} sm={8} lg={4}>
                <Card size="small">
                  <Statistic title="本月收入" value={formatFen(d.revenueMonthFen)} />
                </Card>
              </Col>
            </Row>
            <Card
              size="small"
              title="每日趋势"
              className="ops-chart-card"
              extra={<DaysSwitch value={days} onChange={setDays} />}
            >
              <PanelChart trend={d.trend} />
            </Card>
          </>
        )}
      </QueryState>
    </div>
  );
}

function PanelChart({
  trend,
}: {
  trend: { date: string; registered: number; paidOrders: number; revenueFen: number }[];
}) {
  const dates = useMemo(() => trend.map((t) => t.date), [trend]);
  const series = useMemo(
    () => [
      { name: '注册公司', data: trend.map((t) => t.registered) },
      { name: '支付订单', data: trend.map((t) => t.paidOrders) },
      { name: '收入（元）', data: trend.map((t) => t.revenueFen / 100), type: 'bar' as const, right: true },
    ],
    [trend],
  );
  return (
    <Suspense fallback={<Skeleton active />}>
      <TrendChart
        dates={dates}
        series={series}
        leftName="数量（个）"
        rightName="收入（元）"
        label="每日注册、支付订单与收入趋势"
      />
    </Suspense>
  );
}
