import { DAY_MS } from '@wxc/contract';
import { describe, expect, it } from 'vitest';
import {
  businessDay,
  clip,
  coveredDayCount,
  dayIndex,
  dayKey,
  type Interval,
  maxConcurrent,
  maxConcurrentWithin,
  monthDays,
  sessionIntervals,
} from './intervals.js';

/** An instant given in China time (UTC+8). */
const cst = (iso: string) => Date.parse(`${iso}+08:00`);
const iv = (start: number, end: number): Interval => ({ start, end });

describe('business days (UTC+8, fixed offset)', () => {
  it('starts the day at 00:00 China time, which is 16:00 UTC the day before', () => {
    const day = businessDay(cst('2026-03-15T10:00:00'));
    expect(new Date(day.start).toISOString()).toBe('2026-03-14T16:00:00.000Z');
    expect(day.end - day.start).toBe(DAY_MS);
    expect(businessDay(cst('2026-03-15T00:00:00')).start).toBe(cst('2026-03-15T00:00:00'));
    expect(businessDay(cst('2026-03-14T23:59:59.999')).start).toBe(cst('2026-03-14T00:00:00'));
  });

  it('shifts by whole days for yesterday', () => {
    const y = businessDay(cst('2026-03-15T00:30:00'), -1);
    expect(y).toEqual({ start: cst('2026-03-14T00:00:00'), end: cst('2026-03-15T00:00:00') });
  });

  it('names the day in China time, not UTC', () => {
    // 2026-03-14T20:00Z is already the 15th in China.
    expect(dayKey(Date.parse('2026-03-14T20:00:00Z'))).toBe('2026-03-15');
    expect(dayKey(Date.parse('2026-03-14T15:59:59.999Z'))).toBe('2026-03-14');
    expect(dayIndex(cst('2026-03-15T00:00:00'))).toBe(dayIndex(cst('2026-03-15T23:59:59.999')));
    expect(dayIndex(cst('2026-03-16T00:00:00'))).toBe(dayIndex(cst('2026-03-15T00:00:00')) + 1);
  });

  it('has no daylight saving: every day is 24 h, across the dates other zones switch', () => {
    for (const d of ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01']) {
      const day = businessDay(cst(`${d}T12:00:00`));
      expect(day.end - day.start).toBe(DAY_MS);
      expect(dayKey(day.start)).toBe(d);
    }
  });

  it('takes another offset when asked', () => {
    expect(businessDay(Date.parse('2026-03-15T10:00:00Z'), 0, 0).start).toBe(
      Date.parse('2026-03-15T00:00:00Z'),
    );
    expect(dayKey(Date.parse('2026-03-15T02:00:00Z'), -300)).toBe('2026-03-14');
  });

  it('lists the days of a month with their China-time bounds', () => {
    const feb = monthDays('2026-02');
    expect(feb).toHaveLength(28);
    expect(feb[0]).toEqual({
      date: '2026-02-01',
      start: cst('2026-02-01T00:00:00'),
      end: cst('2026-02-02T00:00:00'),
    });
    expect(feb.at(-1)?.date).toBe('2026-02-28');
    expect(feb.at(-1)?.end).toBe(cst('2026-03-01T00:00:00'));
    expect(monthDays('2024-02')).toHaveLength(29);
    expect(monthDays('2026-12')).toHaveLength(31);
    expect(monthDays('2026-12').at(-1)?.end).toBe(cst('2027-01-01T00:00:00'));
    expect(monthDays('0050-01')[0]?.date).toBe('0050-01-01');
    expect(dayKey(monthDays('0050-01')[0]!.start)).toBe('0050-01-01');
  });
});

describe('sessionIntervals', () => {
  it('ends open sessions just after now, drops unstarted and inverted rows', () => {
    const now = 1_000_000;
    expect(
      sessionIntervals(
        [
          { logged_in_at: 100, ended_at: 200 },
          { logged_in_at: 500, ended_at: null },
          { logged_in_at: null, ended_at: null },
          { logged_in_at: 300, ended_at: 300 },
          { logged_in_at: 400, ended_at: 350 },
          { logged_in_at: now, ended_at: null },
        ],
        now,
      ),
    ).toEqual([iv(100, 200), iv(500, now + 1), iv(now, now + 1)]);
  });
});

describe('clip', () => {
  it('keeps the parts inside the window and drops the rest', () => {
    expect(clip([iv(0, 10), iv(5, 15), iv(20, 30), iv(-5, 0), iv(12, 40)], 5, 20)).toEqual([
      iv(5, 10),
      iv(5, 15),
      iv(12, 20),
    ]);
  });
});

describe('maxConcurrent', () => {
  it('is 0 for nothing and 1 for one interval', () => {
    expect(maxConcurrent([])).toBe(0);
    expect(maxConcurrent([iv(1, 2)])).toBe(1);
  });

  it('counts overlapping intervals', () => {
    expect(maxConcurrent([iv(0, 10), iv(5, 15), iv(8, 9), iv(20, 30)])).toBe(3);
    expect(maxConcurrent([iv(0, 100), iv(10, 20), iv(30, 40), iv(50, 60)])).toBe(2);
  });

  it('does not count touching intervals (end == start) as concurrent', () => {
    expect(maxConcurrent([iv(0, 10), iv(10, 20), iv(20, 30)])).toBe(1);
    // input order must not matter
    expect(maxConcurrent([iv(20, 30), iv(10, 20), iv(0, 10)])).toBe(1);
    expect(maxConcurrent([iv(0, 10), iv(10, 20), iv(9, 11)])).toBe(2);
  });

  it('counts identical intervals and same-instant starts together', () => {
    expect(maxConcurrent([iv(5, 10), iv(5, 10), iv(5, 6)])).toBe(3);
  });

  it('ignores empty and inverted intervals', () => {
    expect(maxConcurrent([iv(5, 5), iv(7, 3)])).toBe(0);
  });
});

describe('maxConcurrentWithin: a day across midnight China time', () => {
  const today = businessDay(cst('2026-03-15T14:00:00'));
  const yesterday = businessDay(cst('2026-03-15T14:00:00'), -1);
  const now = cst('2026-03-15T14:00:00');

  it('includes a session that began yesterday and is still open', () => {
    const sessions = sessionIntervals(
      [
        { logged_in_at: cst('2026-03-14T22:00:00'), ended_at: null },
        { logged_in_at: cst('2026-03-15T09:00:00'), ended_at: cst('2026-03-15T10:00:00') },
      ],
      now,
    );
    expect(maxConcurrentWithin(sessions, today.start, today.end)).toBe(2);
    expect(maxConcurrentWithin(sessions, yesterday.start, yesterday.end)).toBe(1);
  });

  it('clips at midnight: concurrency before 00:00 does not count for today', () => {
    const sessions = [
      iv(cst('2026-03-14T21:00:00'), cst('2026-03-14T23:00:00')),
      iv(cst('2026-03-14T22:00:00'), cst('2026-03-15T01:00:00')),
      iv(cst('2026-03-14T22:30:00'), cst('2026-03-15T00:00:00')), // ends exactly at midnight
    ];
    expect(maxConcurrentWithin(sessions, yesterday.start, yesterday.end)).toBe(3);
    expect(maxConcurrentWithin(sessions, today.start, today.end)).toBe(1);
  });

  it('uses UTC+8, not UTC: 16:00Z is midnight', () => {
    const sessions = [iv(Date.parse('2026-03-14T15:00:00Z'), Date.parse('2026-03-14T15:59:59Z'))];
    expect(maxConcurrentWithin(sessions, today.start, today.end)).toBe(0);
    expect(maxConcurrentWithin(sessions, yesterday.start, yesterday.end)).toBe(1);
  });

  it('a session that starts right now still counts', () => {
    const sessions = sessionIntervals([{ logged_in_at: now, ended_at: null }], now);
    expect(maxConcurrentWithin(sessions, today.start, today.end)).toBe(1);
  });
});

describe('coveredDayCount', () => {
  it('is 0 without sessions', () => {
    expect(coveredDayCount([])).toBe(0);
  });

  it('counts a session across midnight on both days, and a day once however many sessions', () => {
    expect(coveredDayCount([iv(cst('2026-03-14T23:00:00'), cst('2026-03-15T01:00:00'))])).toBe(2);
    expect(
      coveredDayCount([
        iv(cst('2026-03-14T08:00:00'), cst('2026-03-14T09:00:00')),
        iv(cst('2026-03-14T10:00:00'), cst('2026-03-14T11:00:00')),
        iv(cst('2026-03-14T10:30:00'), cst('2026-03-14T12:00:00')),
      ]),
    ).toBe(1);
  });

  it('does not count the day a session ends exactly at its midnight', () => {
    expect(coveredDayCount([iv(cst('2026-03-14T23:00:00'), cst('2026-03-15T00:00:00'))])).toBe(1);
  });

  it('counts gaps correctly: days without any session are not online days', () => {
    expect(
      coveredDayCount([
        iv(cst('2026-03-01T10:00:00'), cst('2026-03-03T10:00:00')), // 1, 2, 3
        iv(cst('2026-03-02T10:00:00'), cst('2026-03-02T11:00:00')), // inside
        iv(cst('2026-03-03T20:00:00'), cst('2026-03-04T01:00:00')), // 3 again, 4
        iv(cst('2026-03-10T10:00:00'), cst('2026-03-10T11:00:00')), // 10
      ]),
    ).toBe(5);
  });

  it('handles a long interval contained in nothing and a short one inside it, in any order', () => {
    const long = iv(cst('2026-01-01T00:00:00'), cst('2026-01-31T00:00:00')); // 30 days
    const inner = iv(cst('2026-01-05T00:00:00'), cst('2026-01-06T00:00:00'));
    const after = iv(cst('2026-01-30T12:00:00'), cst('2026-02-01T12:00:00')); // adds 31st, 1st
    expect(coveredDayCount([after, inner, long])).toBe(32);
  });
});
