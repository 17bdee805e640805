import { createHash } from 'node:crypto';
import { DAY_MS } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { SettingsService } from '../settings/service.js';
import { dayKey } from '../statistics/intervals.js';
import * as repo from './repo.js';

/** Page views are kept this many days. */
export const PAGE_VIEWS_KEEP_DAYS = 400;

/**
 * The console's own visitor counts (no third-party tracker): per business day, one row per visitor
 * with a view count. A visitor is sha256(salt, day, IP, user agent): the day in the digest means a
 * visitor cannot be followed from one day to the next, and no address or path is stored.
 */
export function createVisitorService(db: Kysely<DB>, settings: Pick<SettingsService, 'secret'>) {
  return {
    async record(ip: string, userAgent: string, now = Date.now()) {
      const day = dayKey(now);
      const visitor = createHash('sha256')
        .update(`${await settings.secret('visitorSalt')}\n${day}\n${ip}\n${userAgent}`)
        .digest('hex')
        .slice(0, 32);
      await repo.recordView(db, day, visitor);
    },

    /** The last `days` business days, oldest first, days without visits included. */
    async report(days: number, now = Date.now()) {
      const keys = Array.from({ length: days }, (_, i) => dayKey(now - (days - 1 - i) * DAY_MS));
      const rows = await repo.viewsPerDay(db, keys[0]!);
      const byDay = new Map(rows.map((r) => [r.day, r]));
      const list = keys.map((date) => ({
        date,
        pv: Number(byDay.get(date)?.pv ?? 0),
        uv: Number(byDay.get(date)?.uv ?? 0),
      }));
      return { days: list, totalPv: list.reduce((n, d) => n + d.pv, 0) };
    },
  };
}

export type VisitorService = ReturnType<typeof createVisitorService>;

/** Housekeeping: forgets page views older than PAGE_VIEWS_KEEP_DAYS. */
export const deleteOldPageViews = (db: Kysely<DB>, now: number) =>
  repo.deleteDaysBefore(db, dayKey(now - PAGE_VIEWS_KEEP_DAYS * DAY_MS));
