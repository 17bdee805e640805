import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Modular ECharts: only the line and bar charts, their grid, tooltip and legend, on canvas.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface Series {
  name: string;
  data: number[];
  type?: 'line' | 'bar';
  /** Plot on the second (right) axis. */
  right?: boolean;
}

/** A small responsive trend chart (days on the x axis). Loaded lazily with the operator page's tabs. */
export default function TrendChart({
  dates,
  series,
  height = 280,
  label,
}: {
  dates: string[];
  series: Series[];
  height?: number;
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'canvas' });
    const twoAxes = series.some((s) => s.right);
    chart.setOption({
      color: ['#1890ff', '#52c41a', '#faad14', '#722ed1'],
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: dates.map((d) => d.slice(5)), axisTick: { alignWithLabel: true } },
      yAxis: twoAxes
        ? [
            { type: 'value', minInterval: 1 },
            { type: 'value', splitLine: { show: false } },
          ]
        : [{ type: 'value', minInterval: 1 }],
      series: series.map((s) => ({
        name: s.name,
        type: s.type ?? 'line',
        data: s.data,
        smooth: true,
        yAxisIndex: s.right ? 1 : 0,
        barMaxWidth: 18,
      })),
    });
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, [dates, series]);
  return <div ref={ref} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
