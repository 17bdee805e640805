import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Runs `fn` in a transaction that holds a lock named `key` until it ends.
 * PostgreSQL: a transaction-scoped advisory lock, so several server processes agree.
 * SQLite: Kysely's driver gives a transaction the only connection, so transactions are serial.
 */
export async function withLock<T>(
  db: Kysely<DB>,
  key: string,
  fn: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    }
    return fn(trx);
  });
}
