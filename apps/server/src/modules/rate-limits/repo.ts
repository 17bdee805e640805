import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { ASYNC_COMMIT } from '../../db/pg-statements.js';
import type { DB } from '../../db/schema.js';

/**
 * Counts requests in the windows of several keys, in one statement: `n` requests for each key
 * (keys unique). A new or expired window starts over at `n` and ends `windowMs` from now; an open
 * one counts on. Concurrent statements from any number of processes are serialised on each row, so
 * the count returned is the window's total right after this statement's `n` were added: its
 * requests are the last `n` of it. Rows are written in key order, so two statements over the same
 * keys never wait on each other crosswise (no deadlock).
 */
export async function hitMany(
  db: Kysely<DB>,
  hits: { key: string; n: number; windowMs: number }[],
  now: number,
): Promise<{ key: string; count: number; reset_at: number }[]> {
  const sorted = [...hits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The same upsert with the batch as three arrays: one statement text for every batch size
    // (prepared once per connection), and nothing for Kysely to build per batch (a builder with
    // one row per key cost ~4 % of the server's time in a PostgreSQL login benchmark).
    const { rows } = await sql<{ key: string; count: number; reset_at: number }>`${sql.raw(ASYNC_COMMIT)}
      insert into rate_windows (key, count, reset_at)
      select h.key, h.n, ${now}::bigint + h.window_ms
        from unnest(${sorted.map((h) => h.key)}::text[], ${sorted.map((h) => h.n)}::int[],
                    ${sorted.map((h) => h.windowMs)}::bigint[]) with ordinality as h(key, n, window_ms, i)
        order by h.i
      on conflict (key) do update set
        count = case when rate_windows.reset_at <= ${now} then excluded.count
                     else rate_windows.count + excluded.count end,
        reset_at = case when rate_windows.reset_at <= ${now} then excluded.reset_at
                        else rate_windows.reset_at end
      returning key, count, reset_at`.execute(db);
    return rows;
  }
  const rows = sorted.map((h) => ({ key: h.key, count: h.n, reset_at: now + h.windowMs }));
  return db
    .insertInto('rate_windows')
    .values(rows)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        const expired = eb('rate_windows.reset_at', '<=', now);
        return {
          count: eb
            .case()
            .when(expired)
            .then(eb.ref('excluded.count'))
            .else(eb('rate_windows.count', '+', eb.ref('excluded.count')))
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
    .returning(['key', 'count', 'reset_at'])
    .execute();
}

/** Deletes the windows that ended before `now` (a later request starts a fresh one anyway). */
export async function deleteExpired(db: Kysely<DB>, now: number): Promise<number> {
  const res = await db.deleteFrom('rate_windows').where('reset_at', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}
