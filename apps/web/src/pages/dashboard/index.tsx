import { LeftOutlined, QuestionCircleOutlined, RightOutlined, ShoppingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import * as packageCalls from '@wxc/contract/calls/packages';
import * as recordCalls from '@wxc/contract/calls/records';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { Button, Card, Empty, Pagination, Select, Skeleton, type TableColumnsType, Tag, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { call } from '../../api/client';
import { daysLeftText, TIER_COLORS } from '../../features/commerce/logic';
import { useOpenService } from '../../features/commerce/queries';
import { Money, QueryState } from '../../features/commerce/widgets';
import { monthOf, shiftMonth } from '../../features/messaging/labels';
import { PagedList } from '../../features/messaging/PagedList';
import { messagingKeys } from '../../features/messaging/queries';
import { useLiveEvents } from '../../features/messaging/useLive';
import { AccountStatusTag, LiveBadge, WxAvatar } from '../../features/messaging/widgets';
import { GettingStarted } from '../../features/onboarding/GettingStarted';
import { useSettings } from '../../stores/settings';
import { useReadOnly } from '../../stores/support-view';
import { formatTime } from '../../utils/time';
import '../../features/commerce/commerce.css';
import '../../features/messaging/messaging.css';
import './dashboard.css';
import { PageHeader } from '../../components/PageHeader';

const MonthChart = lazy(() => import('./MonthChart'));

/** The nine figures, in reading order: now, today, yesterday, all time. */
const FIGURES = [
  recordCalls.getOnlineCountNow,
  recordCalls.getMaxOnlineCountNow,
  recordCalls.getAddedToday,
  recordCalls.onlineDays,
  recordCalls.getOnlineYesterday,
  recordCalls.getMaxOnlineCountYesterday,
  recordCalls.getAddedYesterday,
  recordCalls.getMaxOnline,
  recordCalls.getTotalCount,
] as const;

function FigureCard({ def }: { def: (typeof FIGURES)[number] }) {
  const query = useQuery({
    queryKey: messagingKeys.figure(def.id),
    queryFn: ({ signal }) => call(def, {}, { signal }),
  });
  const name = def.id.split('.')[1] ?? def.id;
  return (
    <div className="stat-card" data-testid={`stat-${name}`}>
      <span className="stat-label">
        {def.summary}
        <Tooltip title={def.description}>
          <QuestionCircleOutlined aria-label={`${def.summary}的定义`} className="stat-help" />
        </Tooltip>
      </span>
      {query.isPending ? (
        <Skeleton.Button active size="small" />
      ) : query.isError ? (
        <Button size="small" type="link" onClick={() => void query.refetch()}>
          加载失败，重试
        </Button>
      ) : (
        <span className="stat-value" data-testid="stat-value">
          {query.data.value}
        </span>
      )}
    </div>
  );
}

function MonthSection() {
  const theme = useSettings((s) => s.theme);
  const current = monthOf(new Date());
  const [month, setMonth] = useState(current);
  const query = useQuery({
    queryKey: messagingKeys.month(month),
    queryFn: ({ signal }) => call(recordCalls.statisticsMonth, { month }, { signal }),
    placeholderData: (p) => p,
  });
  const options = Array.from({ length: 12 }, (_, i) => shiftMonth(current, -i)).map((m) => ({
    value: m,
    label: `${m.slice(0, 4)} 年 ${Number(m.slice(5))} 月`,
  }));
  return (
    <Card
      title="月度统计"
      className="dash-card"
      extra={
        <span className="month-switch">
          <Button
            size="small"
            icon={<LeftOutlined />}
            aria-label="上个月"
            onClick={() => setMonth(shiftMonth(month, -1))}
          />
          <Select
            size="small"
            aria-label="月份"
            value={month}
            options={options}
            onChange={setMonth}
            style={{ width: 128 }}
          />
          <Button
            size="small"
            icon={<RightOutlined />}
            aria-label="下个月"
            disabled={month >= current}
            onClick={() => setMonth(shiftMonth(month, 1))}
          />
        </span>
      }
    >
      <QueryState query={query} rows={6}>
        {(data) => (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <MonthChart days={data.days} color={theme} />
          </Suspense>
        )}
      </QueryState>
    </Card>
  );
}

function OpenServices() {
  const query = useOpenService();
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  return (
    <Card title="已开通服务" className="dash-card">
      <QueryState
        query={query}
        isEmpty={(d) => d.services.length === 0}
        empty={
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无有效套餐">
            {readOnly ? null : (
              <Button
                type="primary"
                icon={<ShoppingOutlined />}
                onClick={() => navigate('/purchaseRecords/index')}
              >
                去购买
              </Button>
            )}
          </Empty>
        }
      >
        {(d) => (
          <div className="services">
            <p className="muted">
              API {d.apiOpened ? '已开通' : '未开通'} · 子账号 {d.subAccountCount} 个
              {d.serviceEndsAt ? ` · 服务至 ${formatTime(d.serviceEndsAt, 'YYYY-MM-DD')}` : ''}
            </p>
            <ul className="service-list">
              {d.services.map((s) => (
                <li key={s.id}>
                  <span>
                    <Tag color={TIER_COLORS[s.tier]}>{s.packageName}</Tag>
                    {s.slots} 个账号
                  </span>
                  <span className={s.expiringSoon ? 'warn' : 'muted'}>
                    {formatTime(s.endsAt, 'YYYY-MM-DD')} 到期（{daysLeftText(s.status, s.daysLeft)}）
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </QueryState>
    </Card>
  );
}

function ConsumeRecords() {
  const [page, setPage] = useState(1);
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  const query = useQuery({
    queryKey: ['commerce', 'consumeRecord', page],
    queryFn: ({ signal }) => call(packageCalls.consumeRecord, { page, pageSize: 5 }, { signal }),
    placeholderData: (p) => p,
  });
  return (
    <Card
      title="消费记录"
      className="dash-card"
      extra={
        query.data ? (
          <span className="muted">
            累计 <Money fen={query.data.totalFen} />
          </span>
        ) : null
      }
    >
      <QueryState
        query={query}
        isEmpty={(d) => d.total === 0}
        empty={
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无消费记录">
            {readOnly ? null : <Button onClick={() => navigate('/purchaseRecords/index')}>查看套餐</Button>}
          </Empty>
        }
      >
        {(d) => (
          <>
            <ul className="consume-list">
              {d.list.map((o) => (
                <li key={o.orderNo}>
                  <span>
                    {o.packageName}
                    {o.kind === 'renew' ? <Tag className="kind-tag">续费</Tag> : null}
                    <span className="muted"> × {o.quantity}</span>
                  </span>
                  <span className="consume-right">
                    <Money fen={o.amountFen} />
                    <span className="muted">{formatTime(o.paidAt, 'YYYY-MM-DD HH:mm')}</span>
                  </span>
                </li>
              ))}
            </ul>
            {d.total > d.pageSize ? (
              <Pagination
                className="list-pagination"
                simple
                size="small"
                current={d.page}
                pageSize={d.pageSize}
                total={d.total}
                onChange={setPage}
              />
            ) : null}
          </>
        )}
      </QueryState>
    </Card>
  );
}

type DetailRow = z.infer<typeof recordCalls.accountDetails.response>['list'][number];

function AccountDetails() {
  const [filter, setFilter] = useState<{
    page: number;
    pageSize: number;
    status?: 'online' | 'offline' | undefined;
  }>({
    page: 1,
    pageSize: PAGE_SIZE_DEFAULT,
  });
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  const query = useQuery({
    queryKey: messagingKeys.details(filter),
    queryFn: ({ signal }) => call(recordCalls.accountDetails, filter, { signal }),
    placeholderData: (p) => p,
  });
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={filter.status ? '没有该状态的账号' : '还没有登录过微信账号'}
    >
      {filter.status || readOnly ? null : (
        <Button type="primary" onClick={() => navigate('/wechatList/index?add=1')}>
          去添加账号
        </Button>
      )}
    </Empty>
  );
  const columns: TableColumnsType<DetailRow> = [
    {
      title: '账号',
      key: 'account',
      width: 220,
      render: (_, a) => (
        <span className="account-cell">
          <WxAvatar src={a.avatar} name={a.nickname} />
          <span>
            <strong>{a.nickname}</strong>
            <span className="muted block">{a.wxid}</span>
          </span>
        </span>
      ),
    },
    { title: '子账号', dataIndex: 'subAccountName', width: 120, ellipsis: true },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (s: 'online' | 'offline') => <AccountStatusTag status={s} />,
    },
    { title: '今日发出', dataIndex: 'sentToday', width: 90, align: 'right' },
    { title: '今日收到', dataIndex: 'receivedToday', width: 90, align: 'right' },
    { title: '最近登录', dataIndex: 'lastLoginAt', width: 165, render: (t: number) => formatTime(t) },
    {
      title: '到期',
      dataIndex: 'expireAt',
      width: 120,
      render: (t: number | null) =>
        t ? formatTime(t, 'YYYY-MM-DD') : <span className="muted">跟随套餐</span>,
    },
  ];
  const changePage = (page: number, pageSize: number) =>
    setFilter((f) => ({ ...f, page: pageSize === f.pageSize ? page : 1, pageSize }));
  return (
    <Card
      title="账号明细"
      className="dash-card"
      extra={
        <Select
          size="small"
          aria-label="账号状态"
          allowClear
          placeholder="全部状态"
          style={{ width: 110 }}
          value={filter.status}
          onChange={(status) => setFilter((f) => ({ ...f, page: 1, status }))}
          options={[
            { value: 'online', label: '在线' },
            { value: 'offline', label: '离线' },
          ]}
        />
      }
    >
      <PagedList<DetailRow>
        query={query}
        columns={columns}
        rowKey="wxid"
        label="账号明细"
        unit="个"
        empty={empty}
        onPage={changePage}
        card={(a) => (
          <>
            <div className="list-card-head">
              <span className="account-cell">
                <WxAvatar src={a.avatar} name={a.nickname} size={28} />
                {a.nickname}
              </span>
              <AccountStatusTag status={a.status} />
            </div>
            <dl>
              <dt>wxid</dt>
              <dd>{a.wxid}</dd>
              <dt>今日</dt>
              <dd>
                发出 {a.sentToday} · 收到 {a.receivedToday}
              </dd>
              <dt>最近登录</dt>
              <dd>{formatTime(a.lastLoginAt)}</dd>
            </dl>
          </>
        )}
      />
    </Card>
  );
}

/** /dashboard (用户中心): the nine figures, the month's chart, services, spending and accounts; live. */
export default function DashboardPage() {
  useLiveEvents();
  return (
    <div className="page dashboard-page">
      <PageHeader tag={<LiveBadge />} subtitle="微信账号在线情况、已开通服务与消费记录" />
      <GettingStarted />
      <section className="stat-grid" aria-label="账号统计">
        {FIGURES.map((def) => (
          <FigureCard key={def.id} def={def} />
        ))}
      </section>
      <MonthSection />
      <div className="dash-two">
        <OpenServices />
        <ConsumeRecords />
      </div>
      <AccountDetails />
    </div>
  );
}
