import type { WxAccount } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toWxAccount } from '../messaging/mappers.js';
import type { Page, RecordService } from '../records/service.js';
import {
  businessDay,
  coveredDayCount,
  dayKey,
  maxConcurrent,
  maxConcurrentWithin,
  monthDays,
  sessionIntervals,
} from './intervals.js';
import * as repo from './repo.js';

export interface DayFigures {
  date: string;
  maxOnline: number;
  added: number;
  logins: number;
}

/**
 * The dashboard figures, computed from the records (wx_accounts, wx_logins, wx_messages) on every
 * call: nothing is counted in memory, so every server process answers the same. Days are business
 * days (China time). Definitions: docs/ARCHITECTURE.md "Statistics" and the contract.
 */
export interface StatisticsDeps {
  db: Kysely<DB>;
  /** The accounts page that accountDetails extends (records: the same list as queryHistoryWx). */
  records: Pick<RecordService, 'accountRows'>;
  now?: () => number;
}

export function createStatisticsService({ db, records, now = Date.now }: StatisticsDeps) {
  /** Max simultaneous sessions within the business day `shift` days from today. */
  async function maxOnlineOfDay(companyId: string, shift: number) {
    const t = now();
    const day = businessDay(t, shift);
    const rows = await repo.sessionTimes(db, companyId, { from: day.start, to: day.end });
    return maxConcurrentWithin(sessionIntervals(rows, t), day.start, day.end);
  }

  return {
    onlineNow: (companyId: string) => repo.countOnline(db, companyId),

    maxOnlineToday: (companyId: string) => maxOnlineOfDay(companyId, 0),
    maxOnlineYesterday: (companyId: string) => maxOnlineOfDay(companyId, -1),

    addedToday(companyId: string) {
      const day = businessDay(now());
      return repo.countAdded(db, companyId, day.start, day.end);
    },
    addedYesterday(companyId: string) {
      const day = businessDay(now(), -1);
      return repo.countAdded(db, companyId, day.start, day.end);
    },

    onlineYesterday(companyId: string) {
      const day = businessDay(now(), -1);
      return repo.countAccountsOnlineWithin(db, companyId, day.start, day.end);
    },

    async onlineDays(companyId: string) {
      const t = now();
      return coveredDayCount(sessionIntervals(await repo.sessionTimes(db, companyId), t));
    },

    async maxOnlineEver(companyId: string) {
      const t = now();
      return maxConcurrent(sessionIntervals(await repo.sessionTimes(db, companyId), t));
    },

    totalAccounts: (companyId: string) => repo.countAccounts(db, companyId),

    /** Every day of `month` ('YYYY-MM', China time); days after today are zeros. */
    async month(companyId: string, month: string): Promise<{ month: string; days: DayFigures[] }> {
      const t = now();
      const days = monthDays(month);
      const from = days[0]!.start;
      const to = days.at(-1)!.end;
      if (from > t) {
        return { month, days: days.map((d) => ({ date: d.date, maxOnline: 0, added: 0, logins: 0 })) };
      }
      const [rows, firsts] = await Promise.all([
        repo.sessionTimes(db, companyId, { from, to }),
        repo.firstLoginTimes(db, companyId, from, to),
      ]);
      const intervals = sessionIntervals(rows, t);
      const added = new Map<string, number>();
      for (const at of firsts) added.set(dayKey(at), (added.get(dayKey(at)) ?? 0) + 1);
      const logins = new Map<string, number>();
      for (const r of rows) {
        if (r.logged_in_at !== null && r.logged_in_at >= from) {
          logins.set(dayKey(r.logged_in_at), (logins.get(dayKey(r.logged_in_at)) ?? 0) + 1);
        }
      }
      return {
        month,
        days: days.map((d) =>
          d.start > t
            ? { date: d.date, maxOnline: 0, added: 0, logins: 0 }
            : {
                date: d.date,
                maxOnline: maxConcurrentWithin(intervals, d.start, d.end),
                added: added.get(d.date) ?? 0,
                logins: logins.get(d.date) ?? 0,
              },
        ),
      };
    },

    /** The company's accounts (newest login first) with today's sent and received message counts. */
    async accountDetails(
      companyId: string,
      q: { page: number; pageSize: number; status?: 'online' | 'offline' },
    ): Promise<Page<WxAccount & { sentToday: number; receivedToday: number }>> {
      const { rows, total } = await records.accountRows(companyId, { status: q.status }, q.page, q.pageSize);
      const day = businessDay(now());
      const counts = await repo.messageCounts(
        db,
        companyId,
        rows.map((r) => r.id),
        day.start,
        day.end,
      );
      const sent = new Map<string, number>();
      const received = new Map<string, number>();
      for (const c of counts) (c.direction === 'out' ? sent : received).set(c.accountId, c.n);
      return {
        list: rows.map((r) => ({
          ...toWxAccount(r),
          sentToday: sent.get(r.id) ?? 0,
          receivedToday: received.get(r.id) ?? 0,
        })),
        total,
        page: q.page,
        pageSize: q.pageSize,
      };
    },
  };
}

export type StatisticsService = ReturnType<typeof createStatisticsService>;
