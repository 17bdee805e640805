/** The chart pages' generated data (the template's charts draw generated data too). */

export const KEYBOARD_BARS = 50;
/** Steps of the keyboard chart's loop: after this many the wave is back where it started. */
export const KEYBOARD_STEPS = 8;

/**
 * The keyboard chart's two rows of bars at `step` of its loop: the template's formula, with the
 * wave shifted by a phase that comes back to 0 after KEYBOARD_STEPS steps (sin's period is 10π).
 */
export function keyboardBars(step: number): { front: number[]; back: number[] } {
  const phase = ((step % KEYBOARD_STEPS) * 10 * Math.PI) / KEYBOARD_STEPS;
  const front: number[] = [];
  const back: number[] = [];
  for (let i = 0; i < KEYBOARD_BARS; i++) {
    const wave = Math.sin((i + phase) / 5);
    front.push(round((wave * (i / 5 - 10) + i / 6) * 5));
    back.push(round((wave * (i / 5 + 10) + i / 6) * 3));
  }
  return { front, back };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The line chart's x axis: every 5 minutes from 13:00 to 13:55. */
export const LINE_TIMES = Array.from({ length: 12 }, (_, i) => `13:${String(i * 5).padStart(2, '0')}`);
export const LINE_SERIES = [
  { name: '移动', color: '#1890ff', data: [220, 182, 191, 134, 150, 120, 110, 125, 145, 122, 165, 122] },
  { name: '电信', color: '#13c2c2', data: [120, 110, 125, 145, 122, 165, 122, 220, 182, 191, 134, 150] },
  { name: '联通', color: '#f5222d', data: [220, 182, 125, 145, 122, 191, 134, 150, 120, 110, 165, 122] },
];

export const MIX_MONTHS = Array.from({ length: 12 }, (_, i) => `${i + 1}月`);
export const MIX_FEMALE = [709, 1917, 2455, 2610, 1719, 1433, 1544, 3285, 5208, 3372, 2484, 4078];
export const MIX_MALE = [327, 1776, 507, 1200, 800, 482, 204, 1390, 1001, 951, 381, 220];

/** Each month's share of men, in percent with one decimal (the mix chart's line, right axis). */
export function maleShare(female: number[], male: number[]): number[] {
  return male.map((m, i) => {
    const total = m + (female[i] ?? 0);
    return total ? Math.round((m / total) * 1000) / 10 : 0;
  });
}
