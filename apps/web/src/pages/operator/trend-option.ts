import { mix, parseHex } from '../../utils/theme';

/**
 * The operator trend charts' ECharts option, as a pure function (unit-tested without a canvas).
 * Counts (registrations, paid orders, PV/UV) share the left axis; money goes to its own right axis
 * as faint bars behind the lines. Each axis is scaled to its own data with a "nice" maximum and the
 * same number of steps, so every line stays inside the plot and the grid lines of both axes agree.
 * Lines are straight (a smoothed spike would dip below zero) and drawn above the bars, in the theme
 * colour and colours far from it.
 */
export interface Series {
  name: string;
  data: number[];
  type?: 'line' | 'bar';
  /** Plot on the second (right) axis. */
  right?: boolean;
}

export interface TrendOptionInput {
  dates: string[];
  series: Series[];
  /** The theme colour: the first series' colour. */
  primary: string;
  leftName?: string;
  rightName?: string;
  /** Narrow screens: smaller legend, fewer labels. */
  narrow?: boolean;
}

const SPLITS = 4;

/** The smallest 1-2-2.5-5 × 10ⁿ step with `splits` steps covering `max` (at least 1 per step). */
export function niceStep(max: number, splits = SPLITS, integer = true): number {
  if (!(max > 0)) return 1;
  const raw = max / splits;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    const step = m * power;
    if (integer && !Number.isInteger(step)) continue;
    if (step * splits >= max) return step;
  }
  return 10 * power;
}

function hue(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

export function hueDistance(a: string, b: string): number {
  const d = Math.abs(hue(a) - hue(b)) % 360;
  return Math.min(d, 360 - d);
}

/** Companion colours for the other series. */
const COMPANIONS = ['#fa8c16', '#52c41a', '#722ed1', '#eb2f96', '#13c2c2', '#1890ff', '#f5222d'];

/**
 * The theme colour first, then, one at a time, the companion farthest in hue from every colour
 * already taken, so no two series look alike whatever the theme.
 */
export function seriesColors(primary: string, count: number): string[] {
  const taken = [primary];
  const left = [...COMPANIONS];
  while (taken.length < count && left.length) {
    let best = 0;
    let bestScore = -1;
    left.forEach((c, i) => {
      const score = Math.min(...taken.map((t) => hueDistance(c, t)));
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    taken.push(left.splice(best, 1)[0]!);
  }
  return taken.slice(0, Math.max(1, count));
}

function axisMax(values: number[], integer: boolean) {
  const max = Math.max(0, ...values.filter((v) => Number.isFinite(v)));
  const step = niceStep(max, SPLITS, integer);
  return { min: 0, max: step * SPLITS, interval: step };
}

export function trendOption({
  dates,
  series,
  primary,
  leftName,
  rightName,
  narrow = false,
}: TrendOptionInput) {
  const colors = seriesColors(primary, series.length);
  const left = series.filter((s) => !s.right);
  const right = series.filter((s) => s.right);
  const leftAxis = axisMax(
    left.flatMap((s) => s.data),
    true,
  );
  const rightAxis = axisMax(
    right.flatMap((s) => s.data),
    false,
  );
  const axisCommon = {
    type: 'value' as const,
    nameLocation: 'end' as const,
    nameGap: 10,
    nameTextStyle: { color: '#6b7280', fontSize: 12 },
    axisLabel: { color: '#6b7280' },
  };
  return {
    color: colors,
    animation: false,
    tooltip: { trigger: 'axis' as const },
    legend: {
      top: 0,
      type: 'scroll' as const,
      itemGap: narrow ? 8 : 16,
      data: series.map((s) => s.name),
    },
    grid: { left: 8, right: 8, top: 60, bottom: 4, containLabel: true },
    xAxis: {
      type: 'category' as const,
      data: dates.map((d) => d.slice(5)),
      axisTick: { alignWithLabel: true },
      axisLabel: { hideOverlap: true, color: '#6b7280' },
    },
    yAxis: [
      {
        ...axisCommon,
        ...leftAxis,
        name: leftName ?? '',
        minInterval: 1,
        splitLine: { lineStyle: { color: '#eef0f3' } },
      },
      ...(right.length
        ? [
            {
              ...axisCommon,
              ...rightAxis,
              name: rightName ?? '',
              splitLine: { show: false },
            },
          ]
        : []),
    ],
    series: series.map((s, i) => {
      const color = colors[i] ?? primary;
      if ((s.type ?? 'line') === 'bar') {
        return {
          name: s.name,
          type: 'bar' as const,
          data: s.data,
          yAxisIndex: s.right ? 1 : 0,
          barMaxWidth: 16,
          z: 1,
          itemStyle: { color: mix(color, '#ffffff', 0.45), borderRadius: [3, 3, 0, 0] },
        };
      }
      return {
        name: s.name,
        type: 'line' as const,
        data: s.data,
        yAxisIndex: s.right ? 1 : 0,
        smooth: false,
        z: 3,
        symbol: 'circle',
        symbolSize: 6,
        showSymbol: dates.length <= (narrow ? 14 : 31),
        lineStyle: { width: 2.5, color },
        itemStyle: { color },
      };
    }),
  };
}
