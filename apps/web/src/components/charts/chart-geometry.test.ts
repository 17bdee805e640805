import { describe, expect, it } from 'vitest';
import { indexAt, labelStep, layoutChart, niceTicks } from './chart-geometry';

describe('niceTicks', () => {
  it('counts from 0 in integer steps of 1, 2 or 5 × 10ⁿ up to at least the maximum', () => {
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(niceTicks(100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('never steps by a fraction, and gives an empty chart an axis of 0 and 1', () => {
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(2, 10)).toEqual([0, 1, 2]);
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(-5)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });
});

describe('labelStep', () => {
  it('keeps every label when there is room, thins them out when not', () => {
    expect(labelStep(30, 40, 40)).toBe(1);
    expect(labelStep(30, 20, 44)).toBe(3);
    expect(labelStep(31, 9.5, 44)).toBe(5);
    expect(labelStep(1, 5, 44)).toBe(1);
    expect(labelStep(0, 0, 44)).toBe(1);
  });
});

const month = (n: number) => Array.from({ length: n }, (_, i) => `11-${String(i + 1).padStart(2, '0')}`);

describe('layoutChart', () => {
  const labels = month(30);
  const series = [
    { name: '最高在线', kind: 'line' as const, values: labels.map((_, i) => i % 7) },
    { name: '新增账号', kind: 'bar' as const, values: labels.map((_, i) => (i === 3 ? 12 : 1)) },
    { name: '登录次数', kind: 'bar' as const, values: labels.map(() => 0) },
  ];
  const layout = layoutChart({ width: 900, height: 260, labels, series });
  const { plot } = layout;

  it('splits the plot into one band per category, centres inside it', () => {
    expect(layout.centers).toHaveLength(30);
    expect(layout.band).toBeCloseTo((plot.right - plot.left) / 30, 5);
    expect(layout.centers[0]).toBeCloseTo(plot.left + layout.band / 2, 1);
    expect(layout.centers[29]).toBeCloseTo(plot.right - layout.band / 2, 1);
    // Room on the left for the widest y label ("15": two digits).
    expect(plot.left).toBeGreaterThanOrEqual(2 * 7);
    expect(plot.right).toBeLessThanOrEqual(900);
    expect(plot.bottom).toBeLessThan(260);
  });

  it('puts the y ticks on a nice integer scale covering the largest value, 0 on the axis', () => {
    expect(layout.ticks.map((t) => t.value)).toEqual([0, 5, 10, 15]);
    expect(layout.ticks[0]!.y).toBe(plot.bottom);
    expect(layout.ticks[3]!.y).toBe(plot.top);
  });

  it('draws the bars side by side in their band, as tall as their value, never wider than 10 px', () => {
    const day4 = layout.bars.filter((b) => b.index === 3);
    expect(day4.map((b) => b.series)).toEqual([1, 2]);
    const [added, logins] = day4 as [(typeof day4)[0], (typeof day4)[0]];
    expect(added.width).toBeLessThanOrEqual(10);
    expect(added.x + added.width).toBeLessThanOrEqual(logins.x);
    const bandLeft = plot.left + layout.band * 3;
    expect(added.x).toBeGreaterThanOrEqual(bandLeft);
    expect(logins.x + logins.width).toBeLessThanOrEqual(bandLeft + layout.band);
    // 12 of a 0–15 scale.
    expect(added.height).toBeCloseTo(((plot.bottom - plot.top) * 12) / 15, 0);
    expect(added.y + added.height).toBeCloseTo(plot.bottom, 5);
    expect(logins.height).toBe(0);
  });

  it('draws the line through every category centre, with an area closed on the axis', () => {
    expect(layout.lines).toHaveLength(1);
    const line = layout.lines[0]!;
    expect(line.series).toBe(0);
    expect(line.points).toHaveLength(30);
    expect(line.points.map((p) => p.x)).toEqual(layout.centers);
    expect(line.points[0]!.y).toBe(plot.bottom);
    expect(line.path.startsWith(`M${layout.centers[0]} ${plot.bottom}L`)).toBe(true);
    expect(line.area.endsWith(`L${layout.centers[0]} ${plot.bottom}Z`)).toBe(true);
  });

  it('keeps x labels apart on a narrow chart, always starting with the first day', () => {
    expect(layoutChart({ width: 1400, height: 260, labels, series }).xLabels).toHaveLength(30);
    expect(layout.xLabels.map((l) => l.index).slice(0, 3)).toEqual([0, 2, 4]);
    const narrow = layoutChart({ width: 340, height: 200, labels, series });
    expect(narrow.xLabels[0]).toMatchObject({ index: 0, text: '11-01' });
    const xs = narrow.xLabels.map((l) => l.x);
    for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(44);
    expect(narrow.xLabels.length).toBeLessThan(30);
  });

  it('finds the category under a pointer position, none outside the plot', () => {
    expect(indexAt(layout, layout.centers[0]!)).toBe(0);
    expect(indexAt(layout, layout.centers[17]! + layout.band * 0.4)).toBe(17);
    expect(indexAt(layout, plot.right)).toBe(29);
    expect(indexAt(layout, plot.left - 1)).toBeNull();
    expect(indexAt(layout, plot.right + 1)).toBeNull();
  });

  it('copes with no room and no data', () => {
    const empty = layoutChart({ width: 0, height: 0, labels: [], series: [] });
    expect(empty.bars).toEqual([]);
    expect(empty.lines).toEqual([]);
    expect(empty.xLabels).toEqual([]);
    expect(indexAt(empty, 0)).toBeNull();
    const zeros = layoutChart({ width: 300, height: 200, labels: month(3), series: [series[2]!] });
    expect(zeros.ticks.map((t) => t.value)).toEqual([0, 1]);
    expect(zeros.bars.every((b) => b.height === 0)).toBe(true);
  });
});
