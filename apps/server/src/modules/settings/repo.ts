import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export const get = async (db: Kysely<DB>, key: string) =>
  (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

export const set = (db: Kysely<DB>, key: string, value: string, now: number) =>
  db
    .insertInto('settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();

export const insertIfAbsent = (db: Kysely<DB>, key: string, value: string, now: number) =>
  db
    .insertInto('settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();

export const remove = (db: Kysely<DB>, key: string) =>
  db.deleteFrom('settings').where('key', '=', key).execute();
