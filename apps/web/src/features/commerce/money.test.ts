import { describe, expect, it } from 'vitest';
import { formatDuration, formatFen, orderTotalFen } from './money';

describe('formatFen', () => {
  it('formats integer fen as yuan with two decimals and thousands separators', () => {
    expect(formatFen(0)).toBe('¥0.00');
    expect(formatFen(1)).toBe('¥0.01');
    expect(formatFen(99)).toBe('¥0.99');
    expect(formatFen(29_900)).toBe('¥299.00');
    expect(formatFen(399_900)).toBe('¥3,999.00');
    expect(formatFen(3_999_000)).toBe('¥39,990.00');
    expect(formatFen(123_456_789)).toBe('¥1,234,567.89');
  });

  it('keeps the sign, can drop the symbol, and never shows NaN', () => {
    expect(formatFen(-1050)).toBe('-¥10.50');
    expect(formatFen(1050, { symbol: false })).toBe('10.50');
    expect(formatFen(Number.NaN)).toBe('—');
    expect(formatFen(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it('rounds a stray fraction of a fen instead of printing it', () => {
    expect(formatFen(100.4)).toBe('¥1.00');
    expect(formatFen(100.6)).toBe('¥1.01');
  });
});

describe('orderTotalFen', () => {
  it('multiplies the unit price by the number of periods, staying in integers', () => {
    expect(orderTotalFen(29_900, 1)).toBe(29_900);
    expect(orderTotalFen(29_900, 36)).toBe(1_076_400);
    expect(formatFen(orderTotalFen(1, 3))).toBe('¥0.03');
  });
});

describe('formatDuration', () => {
  it('names whole years and months, otherwise days', () => {
    expect(formatDuration(365)).toBe('1 年');
    expect(formatDuration(730)).toBe('2 年');
    expect(formatDuration(30)).toBe('1 个月');
    expect(formatDuration(90)).toBe('3 个月');
    expect(formatDuration(7)).toBe('7 天');
    expect(formatDuration(400)).toBe('400 天');
  });
});
