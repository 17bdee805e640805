import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Modular ECharts: only what the console's charts draw (lines and bars on a grid, with tooltip and
// legend, on canvas). A page that needs more registers it next to its own chart with echarts.use.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export type ECharts = echarts.ECharts;

/**
 * An ECharts instance on the returned element: created once, resized with its box, disposed with
 * the component; `option` replaces the whole chart whenever it changes (memoise it).
 * `onFinished` runs after every completed render, with the chart and its element.
 */
export function useECharts<O extends echarts.EChartsCoreOption>(
  option: O,
  onFinished?: (chart: ECharts, el: HTMLDivElement, option: O) => void,
) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const latest = useRef({ option, onFinished });
  latest.current = { option, onFinished };

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('finished', () => latest.current.onFinished?.(instance, el, latest.current.option));
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  return ref;
}
