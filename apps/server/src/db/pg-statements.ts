import type { Writable } from 'node:stream';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** Statement texts named at most, per process: each connection keeps every one it has used. */
export const MAX_NAMED_STATEMENTS = 300;

/**
 * A statement whose text holds this comment always runs unnamed, so PostgreSQL plans it for its
 * values and the tables as they are now. A named statement may be given a generic plan after five
 * runs, kept by the connection until the table's statistics change; one made while a table was
 * young (a fresh database: the first minute, before autovacuum analyses it) can read the whole table
 * for a statement that should visit a handful of rows, and grows slower with the table (profiled:
 * the batched settle of sends seq-scanned `wx_messages` until the next analyse). For statements
 * that join a list of rows or read a queue, where that choice depends on sizes.
 */
export const PLAN_EACH_TIME = '/* plan each time */';

/**
 * A statement whose text holds this comment ends its transaction: the pool writes `commit` right
 * behind it, before its answer (the connections pipeline), so the locks it takes are held for its
 * own execution and the commit's, not for a round trip to this process and back (a login's
 * confirmation locks its company's counts of accounts online: every other confirmation of the
 * company waited out that round trip; bench/README.md, session 42). The transaction's own `commit`,
 * or its `rollback` when the caller throws after it, then answers with that commit's outcome.
 *
 * So such a statement must write nothing its caller could still want undone: it carries its own
 * conditions (refused by them, it writes nothing). If it fails, PostgreSQL rolls the transaction
 * back (a `commit` of a failed transaction is a rollback), and the caller sees its error. No
 * statement may follow it in the transaction: one is refused, unsent. Outside a transaction it is a
 * statement like any other.
 */
export const COMMITS_WITH_IT = '/* commits with it */';

/**
 * A statement whose text holds this comment, run outside a transaction, commits without waiting for
 * its WAL to reach the disk (PostgreSQL's asynchronous commit: `synchronous_commit = off` for its
 * own transaction only). A crash of the database server may lose it, with the other commits of its
 * last moments (at most three times `wal_writer_delay`, 0.6 s by default); nothing is ever left half
 * written, and every commit that waits (the default) flushes what was committed before it. So only
 * for writes whose loss is harmless: state that ends by itself and is made again (a QR code, its
 * scan: the user scans once more) and counters (rate windows). (Callbacks' delivered settles were
 * tried: answered sooner, they left in smaller batches, and the database's CPU a send grew;
 * bench/README.md, session 45.) The pool writes it as `begin; set local synchronous_commit = off`,
 * the statement, `commit`, in one write and one round trip; being in a transaction, it fails once
 * after another process's schema change instead of being run again. Inside a caller's transaction
 * the transaction's own commit decides: ignored.
 */
export const ASYNC_COMMIT = '/* async commit */';

/**
 * PostgreSQL parses and plans an unnamed statement again on every execution, and node-postgres sends
 * every query unnamed. Through this pool a statement with parameters runs as a named prepared
 * statement instead: each connection parses its text once, then only binds and executes it (a
 * PostgreSQL login: the database's CPU −21 %, bench/README.md session 16).
 *
 * - Which texts: those with parameters (DDL, `begin`, `commit` have none), the first
 *   MAX_NAMED_STATEMENTS distinct ones (an IN-list of every length is a text of its own; the rest run
 *   unnamed, as before), except those marked PLAN_EACH_TIME.
 * - A schema change made by another process (a rolling deploy adding a column) makes a statement
 *   prepared before it fail with "cached plan must not change result type" (0A000): its text takes a
 *   new name, so every connection prepares it anew, and a query outside a transaction is run again.
 * - A transaction's `begin` is held back and written with its first statement (the pool's
 *   connections pipeline): a transaction waits for one round trip less (bench/README.md, session 37).
 *   Its `commit` is written with a statement marked COMMITS_WITH_IT.
 * - Behind a connection pooler in transaction mode (PgBouncer before 1.21, or without
 *   `max_prepared_statements`) statements would land on other server connections: turn it off there
 *   (DATABASE_PREPARED_STATEMENTS=false).
 */
export function namedStatementPool(
  pool: pg.Pool,
  { clock = Date.now }: { clock?: () => number } = {},
): PostgresPool {
  const names = new Map<string, string>();
  let made = 0;
  const startedAt = clock();
  const roundNow = () => replanRound(clock() - startedAt);
  /** The replanning round each connection's plans were made in (see replanRound). */
  const roundOf = new WeakMap<pg.PoolClient, number>();
  /** A connection's first query of a new round, outside a transaction, goes after its plans. */
  function replanDue(client: pg.PoolClient, inTransaction: boolean) {
    const round = roundNow();
    if (roundOf.get(client)! >= round || inTransaction) return false;
    roundOf.set(client, round);
    return true;
  }

  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
      name = `wxc_${++made}`;
      names.set(text, name);
    }
    return name;
  };

  async function run(
    client: pg.PoolClient,
    text: string,
    name: string,
    values: unknown[],
    outsideTransaction: boolean,
  ) {
    try {
      return await client.query({ name, text, values });
    } catch (err) {
      if (!planChanged(err)) throw err;
      if (names.get(text) === name) names.delete(text);
      const renamed = nameOf(text);
      if (!outsideTransaction) throw err; // the transaction is aborted; its caller sees the error
      return renamed ? client.query({ name: renamed, text, values }) : client.query(text, values);
    }
  }

  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  function wrap(client: pg.PoolClient): PostgresPoolClient {
    let kept = wrapped.get(client);
    if (kept) return kept;
    // Kysely hands over a fresh array of values for each query: passed on as it is, not copied.
    const send = (text: string, values: unknown[] | undefined, inTransaction: boolean) => {
      const name = values?.length && !text.includes(PLAN_EACH_TIME) ? nameOf(text) : undefined;
      return name ? run(client, text, name, values!, !inTransaction) : client.query(text, values);
    };
    /** A transaction's opening (`begin`, maybe with `set local …`), held back until its first statement. */
    let beginHeld: string | undefined;
    /** A transaction is open: begun (sent or held) and not yet committed or rolled back. */
    let transactionOpen = false;
    /** The commit written behind a COMMITS_WITH_IT statement, until the transaction's end answers with it. */
    let committedWith: Promise<unknown> | undefined;
    /**
     * Runs `submit`, whose queries are written at once (pipelined), with the connection's socket
     * corked: they leave in one write, and the database's backend wakes once to read them all, not
     * once a query (a transaction's `begin` with its first statement, a statement with its `commit`).
     */
    const together = <T>(submit: () => T): T => {
      const socket = (client as unknown as { connection?: { stream?: Partial<Writable> } }).connection
        ?.stream;
      socket?.cork?.();
      try {
        return submit();
      } finally {
        socket?.uncork?.();
      }
    };
    /** Writes the held opening (after the plans it is due to drop), the statement right behind it. */
    const sendHeldBegin = () => {
      if (beginHeld === undefined) return;
      const opening = beginHeld;
      beginHeld = undefined;
      if (replanDue(client, false)) void client.query('discard plans').catch(() => {});
      // Nothing is sent between this and the statement, so nothing else runs inside it; if it
      // fails, the connection failed and so does the statement behind it (whose error is seen).
      void client.query(opening).catch(() => {});
    };
    // biome-ignore lint/suspicious/noExplicitAny: Kysely's client type has two overloads (text, cursor)
    const query: any = (textOrCursor: unknown, values?: unknown[]) => {
      if (typeof textOrCursor !== 'string') {
        sendHeldBegin(); // a cursor (none here; pipeline mode refuses them) still runs inside it
        return client.query(textOrCursor as pg.Submittable);
      }
      const text = textOrCursor;
      if (!values?.length) {
        if (OPENS_TRANSACTION.test(text)) {
          // Held back, and sent with the first statement (the pool's connections pipeline): a
          // transaction waits one round trip less. A transaction that runs nothing sends nothing.
          beginHeld = text;
          transactionOpen = true;
          return Promise.resolve(NOTHING_SENT);
        }
        if (text === 'commit' || text === 'rollback') {
          transactionOpen = false;
          if (committedWith !== undefined) {
            const commit = committedWith;
            committedWith = undefined;
            return commit;
          }
          if (beginHeld !== undefined) {
            beginHeld = undefined;
            return Promise.resolve(NOTHING_SENT);
          }
        }
      }
      if (committedWith !== undefined)
        return Promise.reject(new Error(`a statement after the one that committed its transaction: ${text}`));
      const inTransaction = transactionOpen || client.getTransactionStatus() !== 'I';
      if (!inTransaction && text.includes(ASYNC_COMMIT)) {
        return together(() => {
          if (replanDue(client, false)) void client.query('discard plans').catch(() => {});
          // As a held `begin`: if it fails, the connection failed, and so does the statement.
          void client.query(ASYNC_COMMIT_OPENING).catch(() => {});
          const answer = send(text, values, true);
          // A failed statement makes this commit a rollback; a commit that fails is the statement's error.
          const commit = client.query('commit');
          return answer.then(
            (result) => commit.then(() => result),
            (err) => {
              commit.catch(() => {});
              throw err;
            },
          );
        });
      }
      if (transactionOpen && text.includes(COMMITS_WITH_IT)) {
        return together(() => {
          sendHeldBegin();
          const answer = send(text, values, true);
          // Written now, behind the statement: nothing else of the transaction is sent in between.
          committedWith = client.query('commit');
          committedWith.catch(() => {}); // its failure is the transaction's end's to tell
          return answer;
        });
      }
      if (beginHeld !== undefined) {
        return together(() => {
          sendHeldBegin();
          return send(text, values, true);
        });
      }
      if (replanDue(client, inTransaction))
        return client.query('discard plans').then(() => send(text, values, inTransaction));
      return send(text, values, inTransaction);
    };
    roundOf.set(client, roundNow()); // a new connection has no plans yet
    kept = {
      query,
      release: () => {
        // A transaction that sent nothing ended with its connection: the next user starts clean.
        beginHeld = undefined;
        transactionOpen = false;
        committedWith = undefined;
        client.release();
      },
    };
    wrapped.set(client, kept);
    return kept;
  }

  return {
    // pg's pipeline mode (the pool's `pipeline: true`): a query is written at once, not after the
    // answer to the one before, so a held `begin` and its first statement share a round trip.
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}

/** A transaction's opening the pool holds back: `begin`, alone or with `set local …` after it. */
const OPENS_TRANSACTION = /^begin(;|$)/;

/** The opening of a statement's own transaction when it is marked ASYNC_COMMIT. */
const ASYNC_COMMIT_OPENING = 'begin; set local synchronous_commit = off';

/** What a held `begin` (or the end of a transaction that never sent it) answers Kysely. */
const NOTHING_SENT = { command: 'BEGIN', rowCount: null, rows: [] };

/**
 * Which replanning round a process `ageMs` old is in: 0 for its first 5 seconds, then a new round
 * at 5, 10, 20, 40 s … (each at twice the age of the last) up to 2,560 s, then one an hour after it.
 *
 * Why: a named statement's generic plan is kept by its connection until a table's statistics change,
 * and on a young database they do not change for a while (autovacuum looks once a minute, and
 * analyses a table only after enough of it changed). A plan made while a table was empty can pick
 * the wrong index, and the wrong one costs more with every row: a login's lookup of an account by
 * (company, wxid) walked the company's index by first login, every account of the company, from
 * the first seconds of a benchmark on a fresh database to its end (3,000 accounts: ~1,500 index
 * entries a lookup, 1.7 ms). Each connection discards its plans (`DISCARD PLANS`: its statements stay
 * prepared, only planned again) at its first query of a new round, so a plan is at most twice as old
 * as the tables it was made for, within the first hour, and at most an hour old after it.
 */
export function replanRound(ageMs: number): number {
  const FIRST_MS = 5_000;
  const DOUBLINGS = 10;
  const HOUR_MS = 3_600_000;
  if (ageMs < FIRST_MS) return 0;
  const lastDoublingAt = FIRST_MS * 2 ** (DOUBLINGS - 1); // 2,560 s
  if (ageMs < lastDoublingAt) return Math.floor(Math.log2(ageMs / FIRST_MS)) + 1;
  return DOUBLINGS + Math.floor((ageMs - lastDoublingAt) / HOUR_MS);
}

const planChanged = (err: unknown) =>
  (err as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test((err as Error).message);
