import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import * as settingsRepo from '../settings/repo.js';
import { DAY_MS, dayKey } from '../statistics/intervals.js';

const SALT_SETTING = 'visitor_salt';
/** Page views are kept this many days. */
export const PAGE_VIEWS_KEEP_DAYS = 400;

/**
 * The console's own visitor counts (no third-party tracker): per business day, one row per visitor
 * with a view count. A visitor is sha256(salt, day, IP, user agent): the day in the digest means a
 * visitor cannot be followed from one day to the next, and no address or path is stored.
 */
export function createVisitorService(db: Kysely<DB>) {
  let salt: Promise<string> | undefined;
  const getSalt = () => {
    salt ??= (async () => {
      await settingsRepo.insertIfAbsent(db, SALT_SETTING, randomBytes(32).toString('hex'), Date.now());
      return (await settingsRepo.get(db, SALT_SETTING))!;
    })();
    return salt;
  };

  return {
    async record(ip: string, userAgent: string, now = Date.now()) {
      const day = dayKey(now);
      const visitor = createHash('sha256')
        .update(`${await getSalt()}\n${day}\n${ip}\n${userAgent}`)
        .digest('hex')
        .slice(0, 32);
      await db
        .insertInto('page_views')
        .values({ day, visitor, views: 1 })
        .onConflict((oc) => oc.columns(['day', 'visitor']).doUpdateSet({ views: sql`page_views.views + 1` }))
        .execute();
    },

    /** The last `days` business days, oldest first, days without visits included. */
    async report(days: number, now = Date.now()) {
      const keys = Array.from({ length: days }, (_, i) => dayKey(now - (days - 1 - i) * DAY_MS));
      const rows = await db
        .selectFrom('page_views')
        .select((eb) => ['day', eb.fn.sum<number>('views').as('pv'), eb.fn.countAll<number>().as('uv')])
        .where('day', '>=', keys[0]!)
        .groupBy('day')
        .execute();
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
  db
    .deleteFrom('page_views')
    .where('day', '<', dayKey(now - PAGE_VIEWS_KEEP_DAYS * DAY_MS))
    .execute();
