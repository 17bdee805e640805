import { useMemo } from 'react';
import { SvgBarLineChart, type SvgChartSeries } from '../../components/charts/SvgBarLineChart';

export interface DayRow {
  date: string;
  maxOnline: number;
  added: number;
  logins: number;
}

/** Bar colours beside the theme colour (the line's). */
const ADDED_COLOR = '#52c41a';
const LOGINS_COLOR = '#faad14';

/** `2026-11-05` → `11-05`, as on the axis. */
const dayLabel = (date: string) => date.slice(5);

/** Per-day figures of one month: 最高在线 as a line, 新增账号 and 登录次数 as bars. */
export default function MonthChart({ days, color }: { days: DayRow[]; color: string }) {
  const labels = useMemo(() => days.map((d) => dayLabel(d.date)), [days]);
  const series = useMemo<SvgChartSeries[]>(
    () => [
      { name: '最高在线', kind: 'line', color, area: true, values: days.map((d) => d.maxOnline) },
      { name: '新增账号', kind: 'bar', color: ADDED_COLOR, values: days.map((d) => d.added) },
      { name: '登录次数', kind: 'bar', color: LOGINS_COLOR, values: days.map((d) => d.logins) },
    ],
    [days, color],
  );
  // Keyboard focus starts on today when the month is the current one, else on its last day.
  const today = new Date();
  const todayText = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const todayIndex = days.findIndex((d) => d.date === todayText);
  return (
    <SvgBarLineChart
      className="month-chart"
      label="月度每日统计图"
      labels={labels}
      series={series}
      tooltipTitle={(i) => days[i]?.date ?? ''}
      focusIndex={todayIndex >= 0 ? todayIndex : undefined}
    />
  );
}
