import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';

/** One more view by `visitor` on `day`. */
export const recordView = (db: Kysely<DB>, day: string, visitor: string) =>
  db
    .insertInto('page_views')
    .values({ day, visitor, views: 1 })
    .onConflict((oc) => oc.columns(['day', 'visitor']).doUpdateSet({ views: sql`page_views.views + 1` }))
    .execute();

/** Page views and visitors per day, from `fromDay` on (days without visits are absent). */
export const viewsPerDay = (db: Kysely<DB>, fromDay: string) =>
  db
    .selectFrom('page_views')
    .select((eb) => ['day', eb.fn.sum<number>('views').as('pv'), eb.fn.countAll<number>().as('uv')])
    .where('day', '>=', fromDay)
    .groupBy('day')
    .execute();

export const deleteDaysBefore = (db: Kysely<DB>, day: string) =>
  db.deleteFrom('page_views').where('day', '<', day).execute();
