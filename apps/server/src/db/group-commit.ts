import type { ControlledTransaction, Kysely } from 'kysely';
import { type DirectRunner, runDirectly } from './prepared.js';
import type { DB } from './schema.js';

/**
 * How the hot paths write (messages, callback events and their attempts, a login's steps):
 * - `transact(work)`: `work` is atomic and committed before the promise resolves, as with
 *   `db.transaction().execute(work)`; a `work` that throws changes nothing and its error is thrown.
 * - `write(work)`: a write that needs no transaction of its own (one statement), committed before
 *   the promise resolves.
 */
export interface Writes {
  transact<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  write<T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T>;
}

/** PostgreSQL: a transaction per call (its connections run them side by side), a write as it is. */
export function directWrites(db: Kysely<DB>): Writes {
  return {
    transact: (work) => db.transaction().execute(work),
    write: (work) => work(db),
  };
}

interface Unit {
  work(trx: Kysely<DB>): Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Units per transaction at most (a unit is a few statements). */
const MAX_BATCH = 200;
/**
 * A batch is committed before the end of its turn once this many units wait, or once its first unit
 * has waited FLUSH_AFTER_MS (checked as units arrive): under heavy load a turn of the event loop
 * serves hundreds of requests, and a write waiting for its end waited for all of them (a send makes
 * two such writes: its answer waited two turns, p99 1.4 s in the soak). A count alone made a larger
 * batch wait for more company (session 20: 32 units, the soak's p99 261 → 391 ms); the time bound
 * keeps that wait short, so the count can be large. Session 24 (bench/README.md): the send
 * benchmark's turns bring ~25 units, which 16 split in two; 64 units or 3 ms made a third of the
 * commits, its SQL 6 % and the server's CPU a send ~5 % less, and a send's p99 in the soak stayed
 * with the reads' (64 without the time bound: 1.34–1.43 times theirs).
 */
export const FLUSH_AT = 64;
export const FLUSH_AFTER_MS = 3;

/**
 * Compiled SQL run at once on the SQLite connection `statements` prepares on (better-sqlite3, behind
 * db/index.ts's statement cache), with the results Kysely's SQLite driver gives. The group commit
 * runs its units' savepoints and (prepared.ts `runDirectly`) their prepared queries with it: the
 * batch's transaction holds Kysely's only connection, so nothing else runs on it meanwhile.
 */
export function directRunnerOn(statements: {
  prepare(sql: string): {
    reader: boolean;
    all(params: unknown[]): unknown[];
    run(params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  };
}): DirectRunner {
  return (sqlText, parameters) => {
    const statement = statements.prepare(sqlText);
    const params = parameters as unknown[];
    if (statement.reader) return { rows: statement.all(params) };
    const { changes, lastInsertRowid } = statement.run(params);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  };
}

const NONE: readonly unknown[] = [];

/**
 * SQLite: group commit. What is written during one turn of the event loop is committed together,
 * at the end of the turn (setImmediate) or sooner (FLUSH_AT, FLUSH_AFTER_MS), in one transaction,
 * each unit in a savepoint of its own: a unit that throws is rolled back alone and its caller gets
 * its error, exactly as with a transaction of its own; nobody's promise resolves before the commit.
 * A commit is most of a small write's cost in SQLite (WAL pages appended, bench/README.md session
 * 11), and a send made five.
 *
 * The transaction runs to its end within microtasks (units only run SQL, synchronous underneath),
 * so SQLite's write lock is never held across a turn of the event loop. A unit must use the `trx`
 * it is given, never another transaction: it would wait for the batch that waits for it. The units'
 * savepoints and prepared queries run on the connection directly (`direct`: directRunnerOn), not
 * through Kysely's executor: a send's main-thread instructions −9 to −11 %, its garbage collector's
 * about half (bench/README.md, session 33).
 *
 * `direct` must run on the connection under `db`.
 */
export function groupCommitWrites(db: Kysely<DB>, direct: DirectRunner): Writes {
  let waiting: Unit[] = [];
  /** When the first of `waiting` arrived (performance.now()). */
  let firstAt = 0;
  let scheduled = false;
  let running = false;

  async function commit(batch: Unit[]) {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
    let trx: ControlledTransaction<DB>;
    try {
      trx = await db.startTransaction().execute();
    } catch (err) {
      for (const unit of batch) unit.reject(err);
      return;
    }
    const detach = runDirectly(trx, direct);
    // A unit alone is the transaction: no savepoint, and its error rolls the whole back.
    const alone = batch.length === 1;
    try {
      for (const unit of batch) {
        if (!alone) direct('savepoint unit', NONE);
        try {
          outcomes.push({ ok: true, value: await unit.work(trx) });
        } catch (err) {
          if (alone) throw err;
          direct('rollback to savepoint unit', NONE);
          outcomes.push({ ok: false, err });
        }
        if (!alone) direct('release savepoint unit', NONE);
      }
      detach();
      await trx.commit().execute();
    } catch (err) {
      // The transaction itself failed (its savepoint or its commit), or a unit alone threw: nothing
      // of the batch was kept.
      detach();
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      for (const unit of batch) unit.reject(err);
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.err);
    });
  }

  function flush() {
    scheduled = false;
    if (!running) void run();
  }

  async function run() {
    running = true;
    try {
      // Units added while a batch commits go in the next one, at once.
      while (waiting.length > 0) {
        const batch = waiting.slice(0, MAX_BATCH);
        waiting = waiting.slice(batch.length);
        await commit(batch);
      }
    } finally {
      running = false;
    }
  }

  function transact<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const now = performance.now();
      if (waiting.length === 0) firstAt = now;
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (running) return; // taken by the batch after the one committing now
      if (waiting.length >= FLUSH_AT || now - firstAt >= FLUSH_AFTER_MS) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  }

  return { transact, write: transact };
}
