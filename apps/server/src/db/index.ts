import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { startCheckpointer } from './checkpointer.js';
import { loadSqliteDriver } from './driver.js';
import { directRunnerOn, directWrites, groupCommitWrites, type Writes } from './group-commit.js';
import { migrations } from './migrations/index.js';
import { namedStatementPool } from './pg-statements.js';
import type { DB } from './schema.js';
import { StablePlanSqliteDialect } from './sqlite-dialect.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** How the hot paths write: grouped commits on SQLite (db/group-commit.ts). */
  writes: Writes;
  /** Cheap round trip for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

// int8 (COUNT, bigint columns) would otherwise arrive as strings; our bigints are epoch ms and
// counts, far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface OpenOptions {
  /** postgres://… ; unset means SQLite. */
  databaseUrl?: string | undefined;
  /** SQLite file, or ':memory:'. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests give each suite its own). */
  pgSchema?: string;
  /** PostgreSQL connections kept at most (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** How long a query waits for a free connection (default POOL_WAIT_MS; tests shorten it). */
  poolWaitMs?: number;
  /**
   * PostgreSQL: every connection of the pool opened before this returns, and kept while idle (the
   * server). Without it a connection opens when first needed and closes after 10 s idle, so the first
   * requests after a start, or after a quiet spell, wait for new backends (a fork, the
   * authentication; bench/README.md, session 45). Off for tests and one-off tools.
   */
  keepConnectionsOpen?: boolean;
  /** PostgreSQL: statements with parameters prepared once per connection (default; db/pg-statements.ts). */
  preparedStatements?: boolean;
  /** PostgreSQL: the clock of the prepared statements' replanning rounds (db/pg-statements.ts; tests move it). */
  clock?: () => number;
  /** Where a problem of the SQLite checkpoint thread is reported (default: a process warning). */
  warn?: (message: string) => void;
}

/**
 * How long a query waits for a free PostgreSQL connection before it gives up. The wait is the
 * overload signal: a request that could not get a connection in this time is answered 503
 * (lib/error-handler.ts) rather than kept waiting until its client gives up.
 */
export const POOL_WAIT_MS = 5_000;

/** The pool's error for "no connection became free in POOL_WAIT_MS" (pg's own wording). */
export const isPoolWaitTimeout = (err: { message?: string }) =>
  err.message === 'timeout exceeded when trying to connect';

/** Opens `n` connections of `pool` at once and gives them back to it (idle); throws if one fails. */
async function openConnections(pool: pg.Pool, n: number) {
  const opened = await Promise.allSettled(Array.from({ length: n }, () => pool.connect()));
  for (const o of opened) if (o.status === 'fulfilled') o.value.release();
  const failed = opened.find((o) => o.status === 'rejected');
  if (failed) {
    await pool.end();
    throw failed.reason;
  }
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const poolSize = opts.poolSize ?? 20;
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: poolSize,
      // pg-pool closes idle connections only above `min`.
      ...(opts.keepConnectionsOpen ? { min: poolSize } : {}),
      connectionTimeoutMillis: opts.poolWaitMs ?? POOL_WAIT_MS,
      // Queries written without waiting for the answers before them (namedStatementPool sends a
      // transaction's `begin` with its first statement); each still gets its own answer, in order.
      pipeline: opts.preparedStatements !== false,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    if (opts.keepConnectionsOpen) await openConnections(pool, poolSize);
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({
        pool:
          opts.preparedStatements === false
            ? pool
            : namedStatementPool(pool, opts.clock ? { clock: opts.clock } : {}),
      }),
    });
    return {
      db,
      dialect: 'postgres',
      writes: directWrites(db),
      ping: async () => void (await sql`select 1`.execute(db)),
      close: () => db.destroy(),
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const Sqlite = loadSqliteDriver();
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // The group commit opens a savepoint per unit, and SQLite copies each page a unit changes first
  // into a sub-journal, spilled to a temporary file past 64 KiB: a write(2) per page, 9 % of the
  // main thread in the send benchmark (perf). In memory it is a copy; the temporary tables and sorts
  // of our bounded, paged queries are small (bench/README.md, session 23).
  sqlite.pragma('temp_store = MEMORY');
  const checkpointer =
    file === ':memory:'
      ? null
      : startCheckpointer(sqlite, file, opts.warn ?? ((m) => process.emitWarning(m, 'SQLiteCheckpoint')));
  const statements = withStatementCache(sqlite);
  const db = new Kysely<DB>({ dialect: new StablePlanSqliteDialect({ database: statements }) });
  return {
    db,
    dialect: 'sqlite',
    writes: groupCommitWrites(db, directRunnerOn(statements)),
    ping: async () => void (await sql`select 1`.execute(db)),
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  // On PostgreSQL, Kysely's bookkeeping tables live in the schema we migrate; otherwise it finds
  // another schema's tables on the search path and skips creating its own.
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Kysely prepares every query anew; preparing is most of a small query's cost in SQLite. The same
 * SQL text always yields the same statement, so prepared statements are kept and reused (safe:
 * better-sqlite3 runs each statement to completion synchronously).
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = sqlite.prepare(sqlText);
        if (cache.size >= 1000) cache.clear(); // bounded: queries with IN-lists of many lengths
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
  };
}
