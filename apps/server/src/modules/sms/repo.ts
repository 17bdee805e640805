import type { Insertable, Kysely } from 'kysely';
import type { DB, SmsCodesTable } from '../../db/schema.js';

export const insert = (db: Kysely<DB>, row: Insertable<SmsCodesTable>) =>
  db.insertInto('sms_codes').values(row).execute();

export const lastSentTo = (db: Kysely<DB>, phone: string) =>
  db
    .selectFrom('sms_codes')
    .select('created_at')
    .where('phone', '=', phone)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

export async function countSince(db: Kysely<DB>, by: 'phone' | 'ip', value: string, since: number) {
  const row = await db
    .selectFrom('sms_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(by, '=', value)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The newest code sent to `phone` for `scene`; only it counts, so burning it can't revive an older one. */
export const latest = (db: Kysely<DB>, phone: string, scene: string) =>
  db
    .selectFrom('sms_codes')
    .select(['id', 'code_hash', 'attempts', 'expires_at', 'consumed_at'])
    .where('phone', '=', phone)
    .where('scene', '=', scene)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Consumes the code if still open; false when another request consumed it first. */
export async function consume(db: Kysely<DB>, id: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('sms_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export const countWrongAttempt = (db: Kysely<DB>, id: string, maxAttempts: number, now: number) =>
  db
    .updateTable('sms_codes')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      consumed_at: eb
        .case()
        .when('attempts', '>=', maxAttempts - 1)
        .then(now)
        .else(null)
        .end(),
    }))
    .where('id', '=', id)
    .execute();

export const deleteOlderThan = (db: Kysely<DB>, before: number) =>
  db.deleteFrom('sms_codes').where('created_at', '<', before).execute();
