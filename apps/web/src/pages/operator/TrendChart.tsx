import { useMemo } from 'react';
import { useECharts } from '../../components/useECharts';
import { useApp } from '../../stores/app';
import { useSettings } from '../../stores/settings';
import { type Series, trendOption } from './trend-option';

export type { Series };

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
  const primary = useSettings((s) => s.theme);
  const narrow = useApp((s) => s.device === 'mobile');
  const option = useMemo(
    () => trendOption({ dates, series, primary, leftName, rightName, narrow }),
    [dates, series, primary, leftName, rightName, narrow],
  );
  // The plot area in pixels (left,top,right,bottom), for the browser tests that look at the lines.
  const ref = useECharts(option, (chart, el, o) => {
    const last = Math.max(0, o.xAxis.data.length - 1);
    const zero = chart.convertToPixel({ xAxisIndex: 0, yAxisIndex: 0 }, [0, 0]);
    const top = chart.convertToPixel({ xAxisIndex: 0, yAxisIndex: 0 }, [last, o.yAxis[0]?.max ?? 0]);
    if (zero && top)
      el.dataset.plot = [zero[0], top[1], top[0], zero[1]].map((v) => Math.round(v ?? 0)).join(',');
  });
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
