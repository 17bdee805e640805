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
    await lockUntilCommit(trx, key);
    return fn(trx);
  });
}

/**
 * Takes the lock named `key` inside a transaction begun already, until it ends: for a transaction
 * whose first writes need no lock, so the lock is held only for what needs it. Rows written before
 * the lock must be ones no holder of the lock writes while holding it, or two transactions could
 * wait for each other (a confirmation's device row: every confirmation writes it before the lock).
 */
export async function lockUntilCommit(trx: Transaction<DB>, key: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
  }
}
