import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useApp } from '../../stores/app';
import { useSettings } from '../../stores/settings';
import { type Series, trendOption } from './trend-option';

export type { Series };

// Modular ECharts: only the line and bar charts, their grid, tooltip and legend, on canvas.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/**
 * A responsive trend chart (days on the x axis; option built by trend-option.ts). Loaded lazily with
 * the operator page's tabs.
 */
export default function TrendChart({
  dates,
  series,
  height = 300,
  label,
  leftName,
  rightName,
}: {
  dates: string[];
  series: Series[];
  height?: number;
  label: string;
  leftName?: string;
  rightName?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const primary = useSettings((s) => s.theme);
  const narrow = useApp((s) => s.device === 'mobile');
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'canvas' });
    const option = trendOption({ dates, series, primary, leftName, rightName, narrow });
    chart.setOption(option);
    // The plot area in pixels (left,top,right,bottom), for the browser tests that look at the lines.
    chart.on('finished', () => {
      const last = Math.max(0, dates.length - 1);
      const zero = chart.convertToPixel({ xAxisIndex: 0, yAxisIndex: 0 }, [0, 0]);
      const top = chart.convertToPixel({ xAxisIndex: 0, yAxisIndex: 0 }, [last, option.yAxis[0]?.max ?? 0]);
      if (zero && top)
        el.dataset.plot = [zero[0], top[1], top[0], zero[1]].map((v) => Math.round(v ?? 0)).join(',');
    });
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, [dates, series, primary, leftName, rightName, narrow]);
  return (
    <div
      ref={ref}
      className="trend-chart"
      role="img"
      aria-label={label}
      data-series={series.map((s) => s.name).join(',')}
      style={{ width: '100%', height }}
    />
  );
}
