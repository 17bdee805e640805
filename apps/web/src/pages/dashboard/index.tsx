import { LeftOutlined, QuestionCircleOutlined, RightOutlined } from '@ant-design/icons';
import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import * as statisticsCalls from '@wxc/contract/calls/statistics';
import { Button, Skeleton, Tooltip } from 'antd';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { call } from '../../api/client';
import { Card } from '../../components/Card';
import { PageHeader } from '../../components/PageHeader';
import { messagingKeys } from '../../features/messaging/keys';
import { LiveBadge } from '../../features/messaging/LiveBadge';
import { monthOf, shiftMonth } from '../../features/messaging/labels';
import { useLiveEvents } from '../../features/messaging/useLive';
import { GettingStarted } from '../../features/onboarding/GettingStarted';
import { onboardingKeys } from '../../features/onboarding/keys';
import { useSettings } from '../../stores/settings';
import MonthChart from './MonthChart';
import { WhenNear } from './WhenNear';
import '../../features/messaging/messaging.css';
import './dashboard.css';

// Under the chart, loaded when scrolled near: 已开通服务 and 消费记录 (one light chunk), and 账号明细
// (a chunk with antd's Table, Pagination and Select).
const loadSections = () => import('./sections');
const OpenServices = lazy(() => loadSections().then((m) => ({ default: m.OpenServices })));
const ConsumeRecords = lazy(() => loadSections().then((m) => ({ default: m.ConsumeRecords })));
const AccountDetails = lazy(() => import('./AccountDetails'));
// The chart's error state (an Alert with 重试), the console's usual one, loaded only when needed.
const QueryState = lazy(() => import('../../components/QueryState').then((m) => ({ default: m.QueryState })));

/** The nine figures, in reading order: now, today, yesterday, all time. */
const FIGURES = [
  statisticsCalls.getOnlineCountNow,
  statisticsCalls.getMaxOnlineCountNow,
  statisticsCalls.getAddedToday,
  statisticsCalls.onlineDays,
  statisticsCalls.getOnlineYesterday,
  statisticsCalls.getMaxOnlineCountYesterday,
  statisticsCalls.getAddedYesterday,
  statisticsCalls.getMaxOnline,
  statisticsCalls.getTotalCount,
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

const monthText = (m: string) => `${m.slice(0, 4)} 年 ${Number(m.slice(5))} 月`;

function useMonth(month: string) {
  return useQuery({
    queryKey: messagingKeys.month(month),
    queryFn: ({ signal }) => call(statisticsCalls.statisticsMonth, { month }, { signal }),
    placeholderData: (p) => p,
  });
}

function MonthSection({
  month,
  setMonth,
  query,
}: {
  month: string;
  setMonth(month: string): void;
  query: ReturnType<typeof useMonth>;
}) {
  const theme = useSettings((s) => s.theme);
  const current = monthOf(new Date());
  // The last twelve months, newest first (and the month shown, should it be older).
  const months = Array.from({ length: 12 }, (_, i) => shiftMonth(current, -i));
  if (!months.includes(month)) months.push(month);
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
          {/* A native select: the same choice as antd's, without its 26 KB on the first load. */}
          <select
            className="month-select"
            aria-label="月份"
            value={month}
            onChange={(e) => setMonth(e.target.value)}
          >
            {months.map((m) => (
              <option key={m} value={m}>
                {monthText(m)}
              </option>
            ))}
          </select>
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
      {/* As tall as the chart while it loads, so the sections below don't move when it arrives. */}
      <div className="month-chart-slot">
        {query.isSuccess ? (
          <MonthChart days={query.data.days} color={theme} />
        ) : query.isError ? (
          <Suspense fallback={null}>
            <QueryState query={query}>{() => null}</QueryState>
          </Suspense>
        ) : (
          <Skeleton active paragraph={{ rows: 6 }} />
        )}
      </div>
    </Card>
  );
}

/** Whether a query (run by another component) has answered, success or error; no request of its own. */
function useAnswered(queryKey: QueryKey): boolean {
  const client = useQueryClient();
  return useSyncExternalStore(
    (onChange) => client.getQueryCache().subscribe(onChange),
    () => (client.getQueryState(queryKey)?.status ?? 'pending') !== 'pending',
  );
}

/**
 * What a section shows until its code and data are there: its card, title and skeleton rows,
 * shimmering only while they load (`loading`), still while the section waits to be scrolled near.
 */
function sectionSkeleton(title: string, rows: number) {
  return (loading: boolean) => (
    <Card title={title} className="dash-card">
      <Skeleton active={loading} paragraph={{ rows }} />
    </Card>
  );
}

/** /dashboard (用户中心): the nine figures, the month's chart, services, spending and accounts; live. */
export default function DashboardPage() {
  useLiveEvents();
  const [month, setMonth] = useState(() => monthOf(new Date()));
  const monthQuery = useMonth(month);
  // Until the 开始使用 card and the chart have their answers the page above is shorter than it will
  // be: the sections below wait for that before looking whether they are near, so a first visit
  // loads only what it shows.
  const started = useAnswered(onboardingKeys.all);
  const settled = started && !monthQuery.isPending;
  return (
    <div className="page dashboard-page">
      <PageHeader tag={<LiveBadge />} subtitle="微信账号在线情况、已开通服务与消费记录" />
      <GettingStarted />
      <section className="stat-grid" aria-label="账号统计">
        {FIGURES.map((def) => (
          <FigureCard key={def.id} def={def} />
        ))}
      </section>
      <MonthSection month={month} setMonth={setMonth} query={monthQuery} />
      <div className="dash-two">
        <WhenNear armed={settled} placeholder={sectionSkeleton('已开通服务', 3)}>
          <OpenServices />
        </WhenNear>
        <WhenNear armed={settled} placeholder={sectionSkeleton('消费记录', 3)}>
          <ConsumeRecords />
        </WhenNear>
      </div>
      <WhenNear armed={settled} placeholder={sectionSkeleton('账号明细', 5)}>
        <AccountDetails />
      </WhenNear>
    </div>
  );
}
