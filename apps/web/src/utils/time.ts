/**
 * Time helpers of spec §9: one parser for every shape the service or a person may hand us
 * (Date, milliseconds, 10-digit seconds, numeric strings, ISO-8601, `YYYY-MM-DD HH:mm:ss`), a
 * formatter with the default `YYYY-MM-DD HH:mm:ss`, and the relative "… 前" display.
 * Unlike the template's parseTime, ISO strings parse everywhere and 0 is a valid time (the epoch).
 */

export type TimeInput = Date | number | string | null | undefined;

export const DEFAULT_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** A number whose integer part has exactly 10 digits is a Unix time in seconds. */
export function isSecondsTimestamp(n: number): boolean {
  return String(Math.trunc(Math.abs(n))).length === 10;
}

const LOCAL_DATE_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** Turns any accepted input into a valid Date, or null when it is empty or not a time. */
export function toDate(input: TimeInput): Date | null {
  if (input === null || input === undefined) return null;
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? null : new Date(input.getTime());
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    return new Date(isSecondsTimestamp(input) ? input * 1000 : input);
  }
  const text = input.trim();
  if (text === '') return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return toDate(Number(text));
  // `2024-01-02 03:04:05` and `2024/01/02` are local times; parse them by hand so every engine agrees.
  const local = LOCAL_DATE_TIME.exec(text);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = local;
    const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const pad = (n: number) => String(n).padStart(2, '0');
const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];

/**
 * Formats a time with the tokens YYYY, MM, DD, HH, mm, ss, M, D, H and W (weekday in Chinese).
 * Returns '' for an empty or invalid input, so a table cell shows nothing rather than "NaN".
 */
export function formatTime(input: TimeInput, pattern: string = DEFAULT_TIME_FORMAT): string {
  const date = toDate(input);
  if (!date) return '';
  const values: Record<string, string> = {
    YYYY: String(date.getFullYear()),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
    M: String(date.getMonth() + 1),
    D: String(date.getDate()),
    H: String(date.getHours()),
    W: WEEKDAYS[date.getDay()] ?? '',
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss|M|D|H|W/g, (token) => values[token] ?? token);
}

/**
 * Relative time (spec §9): under 30 s 刚刚, under an hour N分钟前, under a day N小时前, under two days
 * 1天前, otherwise the date in `pattern`. A time in the future (clock skew) within 30 s is 刚刚;
 * further ahead it is shown as a date.
 */
export function relativeTime(
  input: TimeInput,
  now: number = Date.now(),
  pattern: string = DEFAULT_TIME_FORMAT,
): string {
  const date = toDate(input);
  if (!date) return '';
  const diffSeconds = (now - date.getTime()) / 1000;
  if (diffSeconds < 30 && diffSeconds > -30) return '刚刚';
  if (diffSeconds < 0) return formatTime(date, pattern);
  if (diffSeconds < 3600) return `${Math.max(1, Math.floor(diffSeconds / 60))}分钟前`;
  if (diffSeconds < 86_400) return `${Math.floor(diffSeconds / 3600)}小时前`;
  if (diffSeconds < 172_800) return '1天前';
  return formatTime(date, pattern);
}

/**
 * The last millisecond of a native date input's day (`YYYY-MM-DD`, local time), or null when the
 * value is empty or not a real date (2025-02-30).
 */
export function endOfDay(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
  return date.getMonth() === Number(m[2]) - 1 ? date.getTime() : null;
}
