/** The count-to widget's arithmetic (the template's vue-count-to): easing and number formatting. */

export interface CountFormat {
  decimals: number;
  /** Between groups of three digits ('' for none). */
  separator: string;
  /** The decimal point. */
  decimal?: string;
  prefix: string;
  suffix: string;
}

/** The template's default easing (easeOutExpo): fast at first, slowing into the end value. */
export function easeOutExpo(t: number): number {
  if (t >= 1) return 1;
  if (t <= 0) return 0;
  return 1 - 2 ** (-10 * t);
}

/** The value after `elapsed` of `duration` ms on the way from `start` to `end`, eased. */
export function valueAt(start: number, end: number, elapsed: number, duration: number): number {
  if (duration <= 0 || elapsed >= duration) return end;
  const progress = easeOutExpo(Math.max(0, elapsed) / duration);
  // easeOutExpo stops just short of 1 before the end: the last frame lands on `end` (above).
  return start + (end - start) * progress;
}

/** `1234567.891` → `¥ 1,234,567.89 元`: rounded to `decimals`, digits grouped by `separator`. */
export function formatCount(value: number, format: CountFormat): string {
  const decimals = Math.min(Math.max(Math.trunc(format.decimals), 0), 10);
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = format.separator ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, format.separator) : whole;
  // -0.00 after rounding shows without its sign.
  const negative = value < 0 && Number(fixed) !== 0;
  const number = `${negative ? '-' : ''}${grouped}${fraction ? `${format.decimal ?? '.'}${fraction}` : ''}`;
  return `${format.prefix}${number}${format.suffix}`;
}
