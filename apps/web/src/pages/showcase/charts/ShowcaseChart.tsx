import type { EChartsCoreOption } from 'echarts/core';
import { useECharts } from '../../../components/useECharts';
import './charts.css';

/**
 * One chart of the showcase, filling its card; resized with its box (the hook's ResizeObserver:
 * the sidebar opening or closing, the window, the settings panel).
 */
export function ShowcaseChart({ option, label }: { option: EChartsCoreOption; label: string }) {
  const ref = useECharts(option);
  return (
    <div ref={ref} className="showcase-chart" role="img" aria-label={label} data-testid="showcase-chart" />
  );
}

/** The reader asked the system for less motion: charts draw without animation, loops stay still. */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
