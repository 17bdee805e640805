import { BUSINESS_UTC_OFFSET_MINUTES, DAY_MS } from '@wxc/contract';

/**
 * Pure time arithmetic behind the dashboard figures. Times are epoch milliseconds (UTC); business
 * days are calendar days at a fixed UTC offset (China Standard Time, no daylight saving).
 *
 * An interval is half-open, [start, end): a session that ends at the instant another begins was not
 * online at the same time as it.
 */
export interface Interval {
  start: number;
  end: number;
}

const offsetMs = (offsetMinutes: number) => offsetMinutes * 60_000;

/** The login sessions of `wx_logins` as intervals; a session still open is online up to and including `now`. */
export function sessionIntervals(
  rows: readonly { logged_in_at: number | null; ended_at: number | null }[],
  now: number,
): Interval[] {
  const out: Interval[] = [];
  for (const r of rows) {
    if (r.logged_in_at === null) continue;
    const end = r.ended_at ?? now + 1;
    if (end > r.logged_in_at) out.push({ start: r.logged_in_at, end });
  }
  return out;
}

/** Index of the business day containing `ms` (days since 1970-01-01 at the offset). */
export const dayIndex = (ms: number, offsetMinutes = BUSINESS_UTC_OFFSET_MINUTES): number =>
  Math.floor((ms + offsetMs(offsetMinutes)) / DAY_MS);

/** The business day containing `ms`: [start, end). `shift` moves by whole days (-1: the day before). */
export function businessDay(ms: number, shift = 0, offsetMinutes = BUSINESS_UTC_OFFSET_MINUTES): Interval {
  const start = (dayIndex(ms, offsetMinutes) + shift) * DAY_MS - offsetMs(offsetMinutes);
  return { start, end: start + DAY_MS };
}

/** 'YYYY-MM-DD' of the business day containing `ms`. */
export function dayKey(ms: number, offsetMinutes = BUSINESS_UTC_OFFSET_MINUTES): string {
  const d = new Date(ms + offsetMs(offsetMinutes));
  const y = String(d.getUTCFullYear()).padStart(4, '0');
  const m = String(d.getUTCMonth() + 1).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, '0');
  return `${y}-${m}-${day}`;
}

/** Every business day of a month given as 'YYYY-MM' (validated by the contract). */
export function monthDays(
  month: string,
  offsetMinutes = BUSINESS_UTC_OFFSET_MINUTES,
): { date: string; start: number; end: number }[] {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const first = new Date(0);
  first.setUTCFullYear(year, mon - 1, 1);
  const next = new Date(0);
  next.setUTCFullYear(year, mon, 1);
  const count = Math.round((next.getTime() - first.getTime()) / DAY_MS);
  const start0 = first.getTime() - offsetMs(offsetMinutes);
  return Array.from({ length: count }, (_, i) => {
    const start = start0 + i * DAY_MS;
    return { date: `${month}-${String(i + 1).padStart(2, '0')}`, start, end: start + DAY_MS };
  });
}

/** The parts of `intervals` inside [from, to); empty parts are dropped. */
export function clip(intervals: readonly Interval[], from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const i of intervals) {
    const start = Math.max(i.start, from);
    const end = Math.min(i.end, to);
    if (end > start) out.push({ start, end });
  }
  return out;
}

/**
 * The largest number of intervals open at one instant (a sweep over start and end events). At equal
 * times ends are taken before starts, so touching intervals (end == start) are not concurrent.
 */
export function maxConcurrent(intervals: readonly Interval[]): number {
  const events: [number, number][] = [];
  for (const i of intervals) {
    if (i.end <= i.start) continue;
    events.push([i.start, 1], [i.end, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let max = 0;
  for (const [, delta] of events) {
    open += delta;
    if (open > max) max = open;
  }
  return max;
}

/** The largest number of intervals open at one instant within [from, to). */
export const maxConcurrentWithin = (intervals: readonly Interval[], from: number, to: number): number =>
  maxConcurrent(clip(intervals, from, to));

/** How many distinct business days any interval covers (a session across midnight covers both days). */
export function coveredDayCount(
  intervals: readonly Interval[],
  offsetMinutes = BUSINESS_UTC_OFFSET_MINUTES,
): number {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  let count = 0;
  let lastCounted = Number.NEGATIVE_INFINITY;
  for (const i of sorted) {
    const first = Math.max(dayIndex(i.start, offsetMinutes), lastCounted + 1);
    const last = dayIndex(i.end - 1, offsetMinutes);
    if (last >= first) {
      count += last - first + 1;
      lastCounted = last;
    }
  }
  return count;
}
