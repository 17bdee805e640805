import {
  type Compilable,
  CompiledQuery,
  createQueryId,
  type Insertable,
  type Kysely,
  type OperationNodeSource,
  PostgresAdapter,
  type QueryResult,
  type RawBuilder,
  type Selectable,
} from 'kysely';
import type { DB } from './schema.js';
import { wellFormed } from './text.js';

/** Stands for argument `index` while a prepared query is built; found again among its parameters. */
class Slot {
  constructor(readonly index: number) {}
}

interface Prepared<R> {
  query: CompiledQuery<R>;
  /** For each compiled parameter: the argument it takes, or null for a constant of the query. */
  slots: Array<number | null>;
}

/** Runs compiled SQL at once on a SQLite connection, as Kysely's SQLite driver runs it (group-commit.ts). */
export type DirectRunner = (sql: string, parameters: ReadonlyArray<unknown>) => QueryResult<unknown>;

/** Transactions whose prepared queries run directly on their connection (runDirectly). */
const directRunners = new WeakMap<Kysely<DB>, DirectRunner>();

/**
 * While a SQLite transaction holds Kysely's only connection (the group commit's batch), the prepared
 * queries run on it skip Kysely's executor: no connection queue, no promise per step, nothing for
 * plugins (there are none) to transform (what that saves: group-commit.ts). Returns the detach,
 * called before the transaction ends: after it, its queries go through Kysely again (which refuses
 * an ended one).
 */
export function runDirectly(trx: Kysely<DB>, run: DirectRunner): () => void {
  directRunners.set(trx, run);
  return () => void directRunners.delete(trx);
}

/** SQL run on a transaction's connection directly (runDirectly), as a promise like Kysely's. */
function runDirect<R>(
  direct: DirectRunner,
  sql: string,
  parameters: readonly unknown[],
): Promise<QueryResult<R>> {
  try {
    return Promise.resolve(direct(sql, parameters) as QueryResult<R>);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** A compiled query on `db`: directly on a transaction's connection when it may (runDirectly), else through Kysely. */
function execute<R>(db: Kysely<DB>, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  const direct = directRunners.get(db);
  return direct ? runDirect(direct, query.sql, query.parameters) : db.executeQuery(query);
}

/**
 * A hot query built and compiled once per dialect, then run with new values. Kysely builds and
 * compiles a query's tree on every call, ~15 % of the server's CPU on the send path (profiled); the
 * database's prepared statement behind it is reused either way (SQLite: db/index.ts).
 *
 * `build` gets stand-ins for its arguments and must use each only as a value: no branching on it,
 * no list whose length varies, no `undefined` (an insert's columns are fixed at the first call).
 * Works the same inside a transaction: the compiled form is kept per dialect, not per connection.
 */
export function preparedQuery<A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<DB>, ...args: A) => Compilable<R> | RawBuilder<R>,
): (db: Kysely<DB>, ...args: A) => Promise<QueryResult<R>> {
  const byDialect = new WeakMap<object, Prepared<R>>();
  return async (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let prepared = byDialect.get(adapter);
    if (!prepared) {
      const stand = Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as A;
      const query = build(db, ...stand).compile(db); // a query builder's compile takes no argument
      const slots = query.parameters.map((p) => (p instanceof Slot ? p.index : null));
      const missing = stand.map((_, i) => i).filter((i) => !slots.includes(i));
      if (missing.length > 0)
        throw new Error(`prepared query does not use its argument(s) ${missing.join(', ')}`);
      prepared = { query, slots };
      byDialect.set(adapter, prepared);
    }
    const { query, slots } = prepared;
    const parameters = slots.map((slot, i) => (slot === null ? query.parameters[i] : args[slot]));
    // In a group commit's transaction only the text and values are needed: no query object made.
    const direct = directRunners.get(db);
    if (direct) return runDirect(direct, query.sql, parameters);
    return db.executeQuery({ ...query, parameters, queryId: createQueryId() });
  };
}

/**
 * A statement of fixed shape with its values: `build` makes it from `args`, using each only as a
 * value, as preparedQuery's `build` does (a list is bound as one array). A statement that embeds it
 * (callbacks' insertEventsAbout) is then built and compiled once per `build`, a module-level
 * function, and run with each call's `args`.
 */
export interface ShapedStatement<R> {
  build: (db: Kysely<DB>, ...args: unknown[]) => (Compilable<R> | RawBuilder<R>) & OperationNodeSource;
  args: readonly unknown[];
}

/**
 * A prepared insert of a whole row of `table`: `columns` names every column (the type checks that
 * none is missing), so each call binds the same columns; a row must carry all of them.
 */
export function preparedInsert<T extends keyof DB>(table: T, columns: Record<keyof DB[T] & string, true>) {
  const names = Object.keys(columns) as Array<keyof Selectable<DB[T]> & string>;
  const insert = preparedQuery(names.length, (db, ...values: unknown[]) =>
    db.insertInto(table).values(Object.fromEntries(names.map((c, i) => [c, values[i]])) as Insertable<DB[T]>),
  );
  return (db: Kysely<DB>, row: Selectable<DB[T]>) => insert(db, ...names.map((c) => row[c]));
}

/**
 * Rows as one JSON array for the database to take apart (preparedInsertMany, the turn batches'
 * statements). Strings are made well-formed first: JSON.stringify writes a lone surrogate as an
 * escape PostgreSQL's json refuses, so one message with half an emoji would fail the statement of
 * every row with it; bound as a parameter, such a string was stored with U+FFFD in its place, and so
 * it is here.
 */
export function rowsAsJson(rows: ReadonlyArray<object>): string {
  // Without a replacer JSON.stringify keeps its native fast path (a replacer called for each of a
  // network's ~900 values was 2 % of a login's server time). It writes a lone surrogate, and only
  // that, as a `\ud…` escape (well-formed pairs stay characters), so output without one needs no
  // repair; a text's own backslash before "ud" only costs the second pass.
  const json = JSON.stringify(rows);
  return json.includes('\\ud') ? JSON.stringify(rows, wellFormedStrings) : json;
}
const wellFormedStrings = (_key: string, value: unknown) =>
  typeof value === 'string' ? wellFormed(value) : value;

/** SQLite's bound values a statement at most (SQLITE_MAX_VARIABLE_NUMBER, 32766 since 3.32). */
const SQLITE_MAX_VALUES = 32_766;

/**
 * A prepared insert of any number of whole rows of `table`. PostgreSQL: one statement with one
 * parameter, the rows as a JSON array taken apart by `json_populate_recordset` (by the table's column
 * types): one statement text for every number of rows, prepared once per connection, and no limit on
 * bound values. SQLite: the rows as a VALUES list, a statement text per number of rows (prepared once
 * each: db/index.ts caches them); taking a JSON array apart with `json_each` re-read the row's text
 * for each column, 3 to 4 times the insert itself (a new account's simulated network: 490 against
 * 150 µs, bench/README.md session 34). Either way no per-row work for Kysely (a builder with 61 rows
 * of 15 columns: ~0.5 ms). Values must be strings, finite numbers or null, as JSON carries them.
 */
export function preparedInsertMany<T extends keyof DB>(
  table: T,
  columns: Record<keyof DB[T] & string, true>,
  { skipConflicts = false }: { skipConflicts?: boolean } = {},
) {
  const names = Object.keys(columns) as Array<keyof Selectable<DB[T]> & string>;
  const id = (name: string) => `"${name}"`;
  const list = names.map(id).join(', ');
  /**
   * The PostgreSQL statement, its rows bound as parameter `param` (placeholders are numbered);
   * `optimistic`: without the ON CONFLICT clause (insertManyTogether).
   */
  const text = (param = 1, optimistic = false) =>
    `insert into ${id(table)} (${list}) select ${list} from json_populate_recordset(null::${id(table)}, $${param}::json)${skipConflicts && !optimistic ? ' on conflict do nothing' : ''}`;
  const rowSlots = `(${names.map(() => '?').join(', ')})`;
  // skipConflicts: a row that would break a unique key is left out (the others are written).
  /** The SQLite statement for `count` rows, made once per count (a new account's network: every login). */
  const sqliteTexts = new Map<number, string>();
  const sqliteText = (count: number) => {
    let text = sqliteTexts.get(count);
    if (text === undefined) {
      text = `insert into ${id(table)} (${list}) values ${Array(count).fill(rowSlots).join(', ')}${skipConflicts ? ' on conflict do nothing' : ''}`;
      sqliteTexts.set(count, text);
    }
    return text;
  };
  const rowsPerStatement = Math.floor(SQLITE_MAX_VALUES / names.length);
  const sqliteInsert = async (db: Kysely<DB>, rows: ReadonlyArray<Selectable<DB[T]>>) => {
    for (let at = 0; at < rows.length; at += rowsPerStatement) {
      const chunk = rows.slice(at, at + rowsPerStatement);
      const values = chunk.flatMap((row) => names.map((c) => row[c] ?? null));
      await execute(db, CompiledQuery.raw(sqliteText(chunk.length), values));
    }
  };
  const insert = async (db: Kysely<DB>, rows: ReadonlyArray<Selectable<DB[T]>>) => {
    if (rows.length === 0) return;
    // Each row's columns by name: any other field of a row object is ignored.
    if (isPostgres(db)) await execute(db, CompiledQuery.raw(text(), [rowsAsJson(rows)]));
    else if (rows.length <= rowsPerStatement || db.isTransaction) await sqliteInsert(db, rows);
    // More rows than one statement takes: all of them or none, as in one statement.
    else await db.transaction().execute((trx) => sqliteInsert(trx, rows));
  };
  return Object.assign(insert, { text, skipsConflicts: skipConflicts });
}

/** PostgreSQL's SQLSTATE for a row that breaks a unique key. */
const UNIQUE_VIOLATION = '23505';

/** One table's rows for insertManyTogether, typed by its preparedInsertMany. */
interface InsertPart {
  /** Its PostgreSQL statement, the rows bound as parameter `param` (`optimistic`: no ON CONFLICT). */
  text(param: number, optimistic: boolean): string;
  skipsConflicts: boolean;
  rows: ReadonlyArray<object>;
  run(db: Kysely<DB>): Promise<void>;
}
export const rowsFor = <R extends object>(
  insert: ((db: Kysely<DB>, rows: ReadonlyArray<R>) => Promise<void>) &
    Pick<InsertPart, 'text' | 'skipsConflicts'>,
  rows: ReadonlyArray<R>,
): InsertPart => ({
  text: insert.text,
  skipsConflicts: insert.skipsConflicts,
  rows,
  run: (db) => insert(db, rows),
});

const isPostgres = (db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Rows of several tables written together or not at all, each table's rows with its
 * preparedInsertMany, in order. PostgreSQL: one statement (the inserts but the last in a
 * data-modifying WITH), atomic alone: one round trip and one commit instead of BEGIN, an insert per
 * table, COMMIT. A row may refer to a row of an earlier table (its foreign key is checked at the
 * statement's end, when every row is in). SQLite: a transaction (its statements cost no round trip),
 * or, given one (a unit of the group commit), the caller's: atomic with it.
 */
export async function insertManyTogether(db: Kysely<DB>, parts: ReadonlyArray<InsertPart>): Promise<void> {
  if (!isPostgres(db)) {
    if (db.isTransaction) for (const part of parts) await part.run(db);
    else
      await db.transaction().execute(async (trx) => {
        for (const part of parts) await part.run(trx);
      });
    return;
  }
  const statement = (optimistic: boolean) => {
    const texts = parts.map((part, i) => part.text(i + 1, optimistic));
    const last = texts.pop()!;
    const withs = texts.map((t, i) => `"part${i + 1}" as (${t})`);
    const text = withs.length > 0 ? `with ${withs.join(', ')} ${last}` : last;
    return CompiledQuery.raw(
      text,
      parts.map((part) => rowsAsJson(part.rows)),
    );
  };
  // Rows that skip conflicts are first written as if none were there: ON CONFLICT DO NOTHING costs
  // each row a speculative insertion (a new account's simulated network: 0.80 against 0.55 ms of the
  // database's time). Only when a key collides (another writer of the same rows: rare) is the
  // statement run again, skipping the collisions. Not inside a transaction, which the failed
  // statement would end.
  if (!parts.some((part) => part.skipsConflicts) || db.isTransaction) {
    await db.executeQuery(statement(false));
    return;
  }
  try {
    await db.executeQuery(statement(true));
  } catch (err) {
    if ((err as { code?: unknown }).code !== UNIQUE_VIOLATION) throw err;
    await db.executeQuery(statement(false));
  }
}
