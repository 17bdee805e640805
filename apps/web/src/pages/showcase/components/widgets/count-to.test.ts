import { describe, expect, it } from 'vitest';
import { easeOutExpo, formatCount, valueAt } from './count-to';

const plain = { decimals: 0, separator: '', prefix: '', suffix: '' };

describe('count-to', () => {
  it('eases out: starts at 0, ends at 1, faster at first', () => {
    expect(easeOutExpo(0)).toBe(0);
    expect(easeOutExpo(1)).toBe(1);
    expect(easeOutExpo(0.5)).toBeGreaterThan(0.9);
    expect(easeOutExpo(0.1)).toBeLessThan(easeOutExpo(0.2));
    expect(easeOutExpo(-1)).toBe(0);
    expect(easeOutExpo(2)).toBe(1);
  });

  it('walks from start to end within the duration, landing on end exactly', () => {
    expect(valueAt(0, 2017, 0, 4000)).toBe(0);
    expect(valueAt(0, 2017, 4000, 4000)).toBe(2017);
    expect(valueAt(0, 2017, 9000, 4000)).toBe(2017);
    const mid = valueAt(0, 2017, 2000, 4000);
    expect(mid).toBeGreaterThan(1900);
    expect(mid).toBeLessThan(2017);
    // Counting down works the same way.
    expect(valueAt(100, 0, 2000, 4000)).toBeLessThan(10);
    expect(valueAt(5, 9, 10, 0)).toBe(9);
  });

  it('formats decimals, separators, prefix and suffix', () => {
    expect(formatCount(2017, { decimals: 0, separator: ',', prefix: '¥ ', suffix: ' 元' })).toBe(
      '¥ 2,017 元',
    );
    expect(formatCount(1234567.891, { ...plain, decimals: 2, separator: ',' })).toBe('1,234,567.89');
    expect(formatCount(1234567, { ...plain, separator: ' ' })).toBe('1 234 567');
    expect(formatCount(1234567, plain)).toBe('1234567');
    expect(formatCount(999, { ...plain, separator: ',' })).toBe('999');
    expect(formatCount(0.5, { ...plain, decimals: 3 })).toBe('0.500');
    expect(formatCount(12.5, { ...plain, decimals: 1, decimal: '·' })).toBe('12·5');
  });

  it('keeps the sign of negatives, but not of a value that rounds to zero', () => {
    expect(formatCount(-1234.5, { ...plain, decimals: 1, separator: ',' })).toBe('-1,234.5');
    expect(formatCount(-0.001, { ...plain, decimals: 2 })).toBe('0.00');
  });

  it('clamps odd decimal counts', () => {
    expect(formatCount(1.23456, { ...plain, decimals: -2 })).toBe('1');
    expect(formatCount(1, { ...plain, decimals: 2.7 })).toBe('1.00');
  });
});
