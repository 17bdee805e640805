import type { Insertable, Kysely } from 'kysely';
import type { CaptchasTable, DB } from '../../db/schema.js';

export const insert = (db: Kysely<DB>, row: Insertable<CaptchasTable>) =>
  db.insertInto('captchas').values(row).execute();

export const findUsable = (db: Kysely<DB>, id: string, now: number) =>
  db
    .selectFrom('captchas')
    .select(['code_hash', 'checks'])
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Counts a wrong check; the last allowed one burns the captcha. */
export const countWrongCheck = (db: Kysely<DB>, id: string, maxChecks: number, now: number) =>
  db
    .updateTable('captchas')
    .set((eb) => ({
      checks: eb('checks', '+', 1),
      used_at: eb
        .case()
        .when('checks', '>=', maxChecks - 1)
        .then(now)
        .else(null)
        .end(),
    }))
    .where('id', '=', id)
    .execute();

/** Marks the captcha used in one statement, so two requests can never both consume it. */
export async function takeUsable(db: Kysely<DB>, id: string, now: number): Promise<string | undefined> {
  const row = await db
    .updateTable('captchas')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('code_hash')
    .executeTakeFirst();
  return row?.code_hash;
}

export const deleteExpired = (db: Kysely<DB>, before: number) =>
  db.deleteFrom('captchas').where('expires_at', '<', before).execute();
