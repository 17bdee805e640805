import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what this chart draws: the dashboard chunk stays lean and nothing reaches the login page.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface DayRow {
  date: string;
  maxOnline: number;
  added: number;
  logins: number;
}

/** Per-day figures of one month: 最高在线 as a line, 新增 and 登录次数 as bars. */
export default function MonthChart({ days, color }: { days: DayRow[]; color: string }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const instance = echarts.init(el.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      {
        color: [color, '#52c41a', '#faad14'],
        tooltip: { trigger: 'axis' },
        legend: { top: 0, data: ['最高在线', '新增账号', '登录次数'] },
        grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
        xAxis: {
          type: 'category',
          data: days.map((d) => d.date.slice(5)),
          axisTick: { alignWithLabel: true },
        },
        yAxis: { type: 'value', minInterval: 1 },
        series: [
          {
            name: '最高在线',
            type: 'line',
            smooth: false,
            data: days.map((d) => d.maxOnline),
            areaStyle: { opacity: 0.08 },
          },
          { name: '新增账号', type: 'bar', barMaxWidth: 10, data: days.map((d) => d.added) },
          { name: '登录次数', type: 'bar', barMaxWidth: 10, data: days.map((d) => d.logins) },
        ],
      },
      true,
    );
  }, [days, color]);

  return <div ref={el} className="month-chart" role="img" aria-label="月度每日统计图" />;
}
