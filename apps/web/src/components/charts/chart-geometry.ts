/**
 * The geometry of a category chart with bars and lines (SvgBarLineChart): pure numbers in, pixel
 * positions out, so the drawing is a plain map over the result and the arithmetic is unit-tested.
 */

export interface ChartSeriesData {
  name: string;
  kind: 'line' | 'bar';
  values: readonly number[];
}

export interface ChartLayoutInput {
  /** Size of the drawing area in CSS pixels. */
  width: number;
  height: number;
  /** One label per category (x axis), in order. */
  labels: readonly string[];
  series: readonly ChartSeriesData[];
  /** About how many y ticks (grid lines) to draw; the step is a "nice" integer. */
  tickTarget?: number;
  /** Widest a bar gets. */
  barMaxWidth?: number;
  /** Gap between the bars of one category. */
  barGap?: number;
  /** Width taken by one character of axis text (12 px digits), to size the y labels' margin. */
  charWidth?: number;
  /** Room an x label needs, gap included; labels are thinned out to keep this much apart. */
  labelWidth?: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface ChartLayout {
  /** The plot rectangle (inside the axes). */
  plot: { left: number; top: number; right: number; bottom: number };
  /** Y grid lines, bottom (0) first. */
  ticks: { value: number; y: number }[];
  /** The x labels that fit, each under its category's centre. */
  xLabels: { index: number; x: number; text: string }[];
  /** Width of one category's band. */
  band: number;
  /** The centre of each category. */
  centers: number[];
  bars: {
    series: number;
    index: number;
    value: number;
    x: number;
    y: number;
    width: number;
    height: number;
  }[];
  lines: { series: number; points: Point[]; path: string; area: string }[];
}

/** Room around the plot: x labels below, half a label's width at the right, a little at the left. */
const MARGIN = { top: 8, right: 16, bottom: 24, left: 4 };
const LABEL_GAP = 8;

/** Rounds to a tenth of a pixel: enough for SVG, short in the DOM. */
const px = (n: number) => Math.round(n * 10) / 10;

/**
 * Ticks from 0 up to at least `max` with an integer step of 1, 2 or 5 × 10ⁿ, about `target` of them
 * (counts, so never a fractional step). An all-zero series still gets an axis: 0 and 1.
 */
export function niceTicks(max: number, target = 5): number[] {
  const top = Math.max(0, Number.isFinite(max) ? max : 0);
  if (top === 0) return [0, 1];
  const rough = top / Math.max(1, target);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  let step = magnitude;
  for (const m of [1, 2, 5, 10]) {
    step = m * magnitude;
    if (step >= rough) break;
  }
  step = Math.max(1, Math.round(step));
  const ticks: number[] = [];
  for (let v = 0; ; v += step) {
    ticks.push(v);
    if (v >= top) break;
  }
  return ticks;
}

/** Every `step`-th label, where `step` keeps labels `labelWidth` apart in bands of `band` px. */
export function labelStep(count: number, band: number, labelWidth: number): number {
  if (count <= 1 || band <= 0) return 1;
  return Math.max(1, Math.ceil(labelWidth / band));
}

/** Which category the x position (drawing coordinates) falls in; null outside the plot. */
export function indexAt(layout: ChartLayout, x: number): number | null {
  const { left, right } = layout.plot;
  if (layout.centers.length === 0 || x < left || x > right) return null;
  const i = Math.floor((x - left) / layout.band);
  return Math.min(layout.centers.length - 1, Math.max(0, i));
}

export function layoutChart(input: ChartLayoutInput): ChartLayout {
  const {
    width,
    height,
    labels,
    series,
    tickTarget = 5,
    barMaxWidth = 10,
    barGap = 2,
    charWidth = 7,
    labelWidth = 44,
  } = input;
  const count = labels.length;
  const max = Math.max(0, ...series.flatMap((s) => s.values.map((v) => (Number.isFinite(v) ? v : 0))));
  const tickValues = niceTicks(max, tickTarget);
  const top = tickValues[tickValues.length - 1] ?? 1;
  const widest = Math.max(...tickValues.map((v) => String(v).length));
  const left = px(MARGIN.left + widest * charWidth + LABEL_GAP);
  const plot = {
    left,
    top: MARGIN.top,
    right: px(Math.max(left, width - MARGIN.right)),
    bottom: px(Math.max(MARGIN.top, height - MARGIN.bottom)),
  };
  const plotHeight = plot.bottom - plot.top;
  const yOf = (v: number) => px(plot.bottom - (Math.max(0, v) / top) * plotHeight);
  const band = count > 0 ? (plot.right - plot.left) / count : 0;
  const centers = labels.map((_, i) => px(plot.left + band * (i + 0.5)));

  const step = labelStep(count, band, labelWidth);
  const xLabels = labels.flatMap((text, index) =>
    index % step === 0 ? [{ index, x: centers[index] ?? 0, text }] : [],
  );

  const barSeries = series.map((s, i) => ({ s, i })).filter(({ s }) => s.kind === 'bar');
  const nb = barSeries.length;
  const room = band * 0.7 - (nb - 1) * barGap;
  const barWidth = nb > 0 ? Math.max(1, Math.min(barMaxWidth, room / nb)) : 0;
  const group = nb * barWidth + (nb - 1) * barGap;
  const bars: ChartLayout['bars'] = [];
  barSeries.forEach(({ s, i }, k) => {
    s.values.slice(0, count).forEach((value, index) => {
      const y = yOf(value);
      bars.push({
        series: i,
        index,
        value,
        x: px((centers[index] ?? 0) - group / 2 + k * (barWidth + barGap)),
        y,
        width: px(barWidth),
        height: px(plot.bottom - y),
      });
    });
  });

  const lines = series.flatMap((s, i) => {
    if (s.kind !== 'line') return [];
    const points = s.values.slice(0, count).map((v, index) => ({ x: centers[index] ?? 0, y: yOf(v) }));
    const path = points.map((p, k) => `${k === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join('');
    const first = points[0];
    const last = points[points.length - 1];
    const area = first && last ? `${path}L${last.x} ${plot.bottom}L${first.x} ${plot.bottom}Z` : '';
    return [{ series: i, points, path, area }];
  });

  return {
    plot,
    ticks: tickValues.map((value) => ({ value, y: yOf(value) })),
    xLabels,
    band,
    centers,
    bars,
    lines,
  };
}
