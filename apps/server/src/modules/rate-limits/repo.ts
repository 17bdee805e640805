import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Counts one request in the window of `key`, in one statement: a new or expired window starts
 * over at 1 and ends `windowMs` from now; an open one counts on. Concurrent calls from any number
 * of processes are serialized on the row, so every caller sees its own count.
 */
export async function hit(
  db: Kysely<DB>,
  key: string,
  windowMs: number,
  now: number,
): Promise<{ count: number; reset_at: number }> {
  return db
    .insertInto('rate_windows')
    .values({ key, count: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        const expired = eb('rate_windows.reset_at', '<=', now);
        return {
          count: eb
            .case()
            .when(expired)
            .then(eb.lit(1))
            .else(eb('rate_windows.count', '+', eb.lit(1)))
            .end(),
          reset_at: eb
            .case()
            .when(expired)
            .then(eb.ref('excluded.reset_at'))
            .else(eb.ref('rate_windows.reset_at'))
            .end(),
        };
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
}

/** Deletes the windows that ended before `now` (a later request starts a fresh one anyway). */
export async function deleteExpired(db: Kysely<DB>, now: number): Promise<number> {
  const res = await db.deleteFrom('rate_windows').where('reset_at', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}
