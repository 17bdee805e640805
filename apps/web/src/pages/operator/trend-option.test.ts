import { describe, expect, it } from 'vitest';
import { hueDistance, niceStep, type Series, seriesColors, trendOption } from './trend-option';

/** 30 days like a busy month: a few dozen registrations a day, a handful of paid orders, revenue in yuan. */
function realistic(days = 30) {
  const dates = Array.from({ length: days }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`);
  const registered = dates.map((_, i) => 12 + ((i * 7) % 23));
  const paidOrders = dates.map((_, i) => (i % 5 === 0 ? 0 : 1 + (i % 4)));
  const revenue = paidOrders.map((n, i) => n * 999 + (i % 3) * 299);
  const series: Series[] = [
    { name: '注册公司', data: registered },
    { name: '支付订单', data: paidOrders },
    { name: '收入（元）', data: revenue, type: 'bar', right: true },
  ];
  return { dates, series };
}

type Axis = { min: number; max: number; interval: number };

describe('operator trend chart option', () => {
  it('keeps every series inside its own axis, both axes from zero with the same number of steps', () => {
    const { dates, series } = realistic();
    const option = trendOption({
      dates,
      series,
      primary: '#1890ff',
      leftName: '数量（个）',
      rightName: '收入（元）',
    });
    const axes = option.yAxis as Axis[];
    expect(axes).toHaveLength(2);
    option.series.forEach((s, i) => {
      const axis = axes[s.yAxisIndex]!;
      expect(axis.min).toBe(0);
      expect(Math.max(...s.data), series[i]!.name).toBeLessThanOrEqual(axis.max);
    });
    expect(axes[0]!.max / axes[0]!.interval).toBe(axes[1]!.max / axes[1]!.interval);
    // The count axis fits the counts (not the revenue): the small series still use the plot.
    expect(axes[0]!.max).toBeLessThan(2 * Math.max(...series[0]!.data));
    expect(axes[1]!.max).toBeLessThan(2 * Math.max(...series[2]!.data));
  });

  it('puts both counts on the left axis and the money on the right', () => {
    const { dates, series } = realistic();
    const option = trendOption({ dates, series, primary: '#1890ff' });
    expect(option.series.map((s) => s.yAxisIndex)).toEqual([0, 0, 1]);
    expect(option.series.map((s) => s.type)).toEqual(['line', 'line', 'bar']);
  });

  it('draws straight lines above the bars (a smoothed spike would dip under zero)', () => {
    const { dates, series } = realistic();
    const option = trendOption({ dates, series, primary: '#1890ff' });
    const [reg, paid, bar] = option.series as Array<{ z: number; smooth?: boolean }>;
    expect(reg!.smooth).toBe(false);
    expect(paid!.smooth).toBe(false);
    expect(reg!.z).toBeGreaterThan(bar!.z);
    expect(paid!.z).toBeGreaterThan(bar!.z);
  });

  it('has a legend for every series and keeps axis labels inside the chart', () => {
    const { dates, series } = realistic();
    const option = trendOption({ dates, series, primary: '#1890ff' });
    expect(option.legend.data).toEqual(['注册公司', '支付订单', '收入（元）']);
    expect(option.grid.containLabel).toBe(true);
    expect(option.grid.top).toBeGreaterThanOrEqual(48); // legend and axis names above the plot
  });

  it('colours the lines with the theme colour and colours far from it, for any theme', () => {
    for (const primary of ['#1890ff', '#fa8c16', '#11a983', '#f5222d', '#304156']) {
      const colors = seriesColors(primary, 3);
      expect(colors[0]).toBe(primary);
      for (let a = 0; a < 3; a++) {
        for (let b = a + 1; b < 3; b++) {
          expect(hueDistance(colors[a]!, colors[b]!), `${primary}: ${colors}`).toBeGreaterThanOrEqual(40);
        }
      }
    }
  });

  it('scales an all-zero or single-axis chart sensibly', () => {
    const option = trendOption({
      dates: ['2026-05-01', '2026-05-02'],
      series: [
        { name: 'PV', data: [0, 0] },
        { name: 'UV', data: [0, 0] },
      ],
      primary: '#1890ff',
    });
    expect(option.yAxis).toHaveLength(1);
    expect((option.yAxis as Axis[])[0]).toMatchObject({ min: 0, max: 4, interval: 1 });
  });

  it('picks nice steps', () => {
    expect(niceStep(34)).toBe(10);
    expect(niceStep(4)).toBe(1);
    expect(niceStep(7)).toBe(2);
    expect(niceStep(4596, 4, false)).toBe(2000);
    expect(niceStep(0)).toBe(1);
  });
});
