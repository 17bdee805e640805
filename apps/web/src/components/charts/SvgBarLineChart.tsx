import {
  type KeyboardEvent,
  type PointerEvent,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type ChartSeriesData, indexAt, layoutChart } from './chart-geometry';
import './svg-chart.css';

export interface SvgChartSeries extends ChartSeriesData {
  color: string;
  /** Lines only: a faint fill under the line. */
  area?: boolean;
}

export interface SvgBarLineChartProps {
  /** The categories' axis labels (x), in order. */
  labels: readonly string[];
  series: readonly SvgChartSeries[];
  /** The chart's accessible name (it is one image to assistive technology). */
  label: string;
  /** Class of the outer element; its CSS height is the chart's height. */
  className?: string;
  /** Heading of the tooltip for a category (defaults to its label). */
  tooltipTitle?: (index: number) => string;
  /** The category shown first when the chart gets keyboard focus (default: the last). */
  focusIndex?: number;
}

interface Size {
  width: number;
  height: number;
}

/** Keeps `size` equal to the element's content box. */
function useSize() {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = (width: number, height: number) =>
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    const box = el.getBoundingClientRect();
    update(Math.floor(box.width), Math.floor(box.height));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) update(Math.floor(entry.contentRect.width), Math.floor(entry.contentRect.height));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}

/**
 * A small category chart drawn as SVG: bars (grouped) and lines over the same integer y axis, with a
 * legend, axis labels and a tooltip for the category under the pointer or, from the keyboard, the
 * one chosen with ←/→ (Home/End). Sized by its container (CSS height, any width).
 */
export function SvgBarLineChart({
  labels,
  series,
  label,
  className,
  tooltipTitle,
  focusIndex,
}: SvgBarLineChartProps) {
  const [plotRef, size] = useSize();
  const [active, setActive] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const liveId = useId();
  const layout = useMemo(
    () => layoutChart({ width: size.width, height: size.height, labels, series }),
    [size.width, size.height, labels, series],
  );
  const count = labels.length;
  const current = active !== null && active >= 0 && active < count ? active : null;

  const onPointer = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setActive(indexAt(layout, event.clientX - box.left));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (count === 0) return;
    const from = current ?? 0;
    const next =
      event.key === 'ArrowLeft'
        ? Math.max(0, from - 1)
        : event.key === 'ArrowRight'
          ? Math.min(count - 1, from + 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? count - 1
              : undefined;
    if (event.key === 'Escape') setActive(null);
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
  };

  const title = current === null ? '' : (tooltipTitle?.(current) ?? labels[current] ?? '');
  const rows = current === null ? [] : series.map((s) => ({ s, value: s.values[current] ?? 0 }));
  const { plot } = layout;
  const ready = size.width > 0 && size.height > 0 && count > 0;
  const tipLeft = current === null ? 0 : (layout.centers[current] ?? 0);
  const flip = tipLeft > size.width / 2;

  return (
    <>
      <div
        className={`svg-chart${className ? ` ${className}` : ''}`}
        role="img"
        aria-label={label}
        aria-describedby={liveId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: one image to assistive technology, explored with the arrow keys (the day's figures are announced beside it).
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => {
          setFocused(true);
          setActive((a) => a ?? Math.min(count - 1, Math.max(0, focusIndex ?? count - 1)));
        }}
        onBlur={() => {
          setFocused(false);
          setActive(null);
        }}
      >
        <ul className="svg-chart-legend">
          {series.map((s) => (
            <li key={s.name}>
              <span className={`svg-chart-key svg-chart-key-${s.kind}`} style={{ background: s.color }} />
              {s.name}
            </li>
          ))}
        </ul>
        <div
          ref={plotRef}
          className="svg-chart-plot"
          onPointerMove={onPointer}
          onPointerDown={onPointer}
          onPointerLeave={(e) => {
            if (e.pointerType === 'mouse') setActive(null);
          }}
        >
          {ready ? (
            <svg width={size.width} height={size.height} aria-hidden="true" focusable="false">
              <g className="svg-chart-grid">
                {layout.ticks.map((t) => (
                  <line key={t.value} x1={plot.left} x2={plot.right} y1={t.y} y2={t.y} />
                ))}
              </g>
              <g className="svg-chart-axis-text" textAnchor="end">
                {layout.ticks.map((t) => (
                  <text key={t.value} x={plot.left - 8} y={t.y} dy="0.32em">
                    {t.value}
                  </text>
                ))}
              </g>
              {current === null ? null : (
                <rect
                  className="svg-chart-hover"
                  x={plot.left + layout.band * current}
                  y={plot.top}
                  width={layout.band}
                  height={plot.bottom - plot.top}
                />
              )}
              <line
                className="svg-chart-axis"
                x1={plot.left}
                x2={plot.right}
                y1={plot.bottom}
                y2={plot.bottom}
              />
              <g className="svg-chart-axis-text" textAnchor="middle">
                {layout.xLabels.map((l) => (
                  <text key={l.index} x={l.x} y={plot.bottom + 16}>
                    {l.text}
                  </text>
                ))}
              </g>
              {layout.bars.map((b) =>
                b.height > 0 ? (
                  <rect
                    key={`${b.series}:${b.index}`}
                    x={b.x}
                    y={b.y}
                    width={b.width}
                    height={b.height}
                    fill={series[b.series]?.color}
                  />
                ) : null,
              )}
              {layout.lines.map((l) => {
                const s = series[l.series];
                const p = current === null ? undefined : l.points[current];
                return (
                  <g key={l.series}>
                    {s?.area ? <path d={l.area} fill={s.color} fillOpacity={0.08} /> : null}
                    <path d={l.path} fill="none" stroke={s?.color} strokeWidth={2} strokeLinejoin="round" />
                    {p ? (
                      <circle cx={p.x} cy={p.y} r={4} fill="#fff" stroke={s?.color} strokeWidth={2} />
                    ) : null}
                  </g>
                );
              })}
            </svg>
          ) : null}
          {current === null || !ready ? null : (
            <div
              className="svg-chart-tooltip"
              style={
                flip
                  ? { right: size.width - tipLeft + 12, top: plot.top }
                  : { left: tipLeft + 12, top: plot.top }
              }
            >
              <div className="svg-chart-tooltip-title">{title}</div>
              {rows.map(({ s, value }) => (
                <div key={s.name} className="svg-chart-tooltip-row">
                  <span className="svg-chart-dot" style={{ background: s.color }} />
                  <span>{s.name}</span>
                  <strong>{value}</strong>
                </div>
              ))}
            </div>
          )}
        </div>
      </div>
      <span id={liveId} className="svg-chart-live" aria-live="polite">
        {current === null || !focused
          ? ''
          : `${title}：${rows.map(({ s, value }) => `${s.name} ${value}`).join('，')}`}
      </span>
    </>
  );
}
