import { describe, expect, it } from 'vitest';
import { endOfDay, formatTime, isSecondsTimestamp, relativeTime, toDate } from './time';

// Local-time fixture: 2024-03-05 07:08:09 in the machine's zone.
const local = new Date(2024, 2, 5, 7, 8, 9);

describe('toDate', () => {
  it('treats 10-digit numbers as seconds and longer ones as milliseconds', () => {
    const seconds = Math.floor(local.getTime() / 1000);
    expect(isSecondsTimestamp(seconds)).toBe(true);
    expect(toDate(seconds)?.getTime()).toBe(seconds * 1000);
    expect(toDate(local.getTime())?.getTime()).toBe(local.getTime());
    expect(toDate(String(seconds))?.getTime()).toBe(seconds * 1000);
  });

  it('accepts 0 as the epoch, not as "no time"', () => {
    expect(toDate(0)?.getTime()).toBe(0);
    expect(toDate('0')?.getTime()).toBe(0);
  });

  it('parses ISO-8601 strings with a zone', () => {
    expect(toDate('2024-03-05T07:08:09.000Z')?.getTime()).toBe(Date.UTC(2024, 2, 5, 7, 8, 9));
    expect(toDate('2024-03-05T07:08:09+08:00')?.getTime()).toBe(Date.UTC(2024, 2, 4, 23, 8, 9));
  });

  it('parses local date-times with a space or slashes', () => {
    expect(toDate('2024-03-05 07:08:09')?.getTime()).toBe(local.getTime());
    expect(toDate('2024/03/05')?.getTime()).toBe(new Date(2024, 2, 5).getTime());
  });

  it('returns null for empty or invalid input', () => {
    for (const bad of [null, undefined, '', '   ', 'not a date', Number.NaN, new Date('x')]) {
      expect(toDate(bad)).toBeNull();
    }
  });
});

describe('formatTime', () => {
  it('uses YYYY-MM-DD HH:mm:ss by default', () => {
    expect(formatTime(local)).toBe('2024-03-05 07:08:09');
    expect(formatTime(Math.floor(local.getTime() / 1000))).toBe('2024-03-05 07:08:09');
  });

  it('formats custom patterns', () => {
    expect(formatTime(local, 'YYYY/MM/DD')).toBe('2024/03/05');
    expect(formatTime(local, 'M月D日 H时 周W')).toBe('3月5日 7时 周二');
  });

  it('formats 0 and returns "" for invalid input', () => {
    expect(formatTime(0)).toBe(formatTime(new Date(0)));
    expect(formatTime(0)).not.toBe('');
    expect(formatTime('garbage')).toBe('');
    expect(formatTime(null)).toBe('');
  });
});

describe('relativeTime', () => {
  const now = local.getTime();
  const ago = (seconds: number) => now - seconds * 1000;

  it('says 刚刚 under 30 seconds', () => {
    expect(relativeTime(ago(0), now)).toBe('刚刚');
    expect(relativeTime(ago(29), now)).toBe('刚刚');
  });

  it('counts minutes under an hour', () => {
    expect(relativeTime(ago(30), now)).toBe('1分钟前');
    expect(relativeTime(ago(5 * 60 + 10), now)).toBe('5分钟前');
    expect(relativeTime(ago(3599), now)).toBe('59分钟前');
  });

  it('counts hours under a day', () => {
    expect(relativeTime(ago(3600), now)).toBe('1小时前');
    expect(relativeTime(ago(23 * 3600 + 59 * 60), now)).toBe('23小时前');
  });

  it('says 1天前 under two days', () => {
    expect(relativeTime(ago(86_400), now)).toBe('1天前');
    expect(relativeTime(ago(172_799), now)).toBe('1天前');
  });

  it('shows the date from two days on, in the default or a given format', () => {
    expect(relativeTime(ago(172_800), now)).toBe(formatTime(ago(172_800)));
    expect(relativeTime(ago(3 * 86_400), now, 'YYYY-MM-DD')).toBe('2024-03-02');
  });

  it('accepts seconds, ISO strings and far-future times', () => {
    expect(relativeTime(Math.floor(ago(120) / 1000), now)).toBe('2分钟前');
    expect(relativeTime(new Date(ago(7200)).toISOString(), now)).toBe('2小时前');
    expect(relativeTime(now + 3600_000, now)).toBe(formatTime(now + 3600_000));
    expect(relativeTime(undefined, now)).toBe('');
  });
});

describe('endOfDay', () => {
  it('reads YYYY-MM-DD as the last moment of that local day and rejects the rest', () => {
    expect(endOfDay('2025-03-05')).toBe(new Date(2025, 2, 5, 23, 59, 59, 999).getTime());
    expect(endOfDay('')).toBeNull();
    expect(endOfDay('2025-02-30')).toBeNull();
    expect(endOfDay('05/03/2025')).toBeNull();
  });
});
