import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/index.js';
import { PLAN_EACH_TIME } from '../src/db/pg-statements.js';
import type { DB } from '../src/db/schema.js';
import { createPgSchema, dialects, withSchemaChangeLock } from './helpers.js';

// db/pg-statements.ts: statements with parameters run as named prepared statements on PostgreSQL.
describe.skipIf(!dialects.includes('postgres'))('prepared statements (postgres)', () => {
  const url = process.env.TEST_DATABASE_URL!;
  let schema: { schema: string; drop: () => Promise<void> };
  let database: Database;
  let db: Kysely<DB>;
  /**
   * Another process's connection (a rolling deploy's newer build), changing the schema; under the
   * lock other test files' migrators take (they list every schema's tables).
   */
  const otherProcess = (statement: string) =>
    withSchemaChangeLock(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`set search_path = ${schema.schema}`);
        await c.query(statement);
      } finally {
        await c.end();
      }
    });
  const prepared = async () =>
    (
      await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements order by statement`.execute(db)
    ).rows.map((r) => r.statement);

  beforeAll(async () => {
    schema = await createPgSchema();
    // One connection: every query below runs on the same one, so its prepared statements are seen.
    database = await openDatabase({ databaseUrl: url, pgSchema: schema.schema, poolSize: 1 });
    db = database.db;
    await otherProcess('create table items (id int primary key, name text not null)');
    await otherProcess(`insert into items values (1, 'a'), (2, 'b')`);
  });
  afterAll(async () => {
    await database?.close();
    await schema?.drop();
  });

  it('prepares a statement with parameters once per connection and reuses it; others run unnamed', async () => {
    for (const id of [1, 2, 1]) {
      const { rows } = await sql<{ name: string }>`select name from items where id = ${id}`.execute(db);
      expect(rows).toHaveLength(1);
    }
    await sql`select count(*) from items`.execute(db);
    expect(await prepared()).toEqual(['select name from items where id = $1']);
  });

  it('a statement marked PLAN_EACH_TIME runs unnamed (planned for its values every time)', async () => {
    const before = await prepared();
    for (const id of [1, 2, 1, 2, 1, 2, 1])
      await sql`${sql.raw(PLAN_EACH_TIME)} select name from items where id = ${id}`.execute(db);
    expect(await prepared()).toEqual(before);
  });

  it('a column added by another process: a query outside a transaction is prepared again and answers with it', async () => {
    const read = () => sql`select * from items where id = ${1}`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1, name: 'a' }]);
    await otherProcess(`alter table items add column note text not null default 'x'`);
    expect((await read()).rows).toEqual([{ id: 1, name: 'a', note: 'x' }]);
  });

  it('inside a transaction the caller gets the error once; the next use is prepared anew', async () => {
    const read = (d: Kysely<DB>) => sql`select *, 1 as one from items where id = ${2}`.execute(d);
    expect((await read(db)).rows).toEqual([{ id: 2, name: 'b', note: 'x', one: 1 }]);
    await otherProcess(`alter table items add column extra int not null default 7`);
    await expect(db.transaction().execute((trx) => read(trx))).rejects.toThrow(
      /cached plan must not change result type/,
    );
    expect((await db.transaction().execute((trx) => read(trx))).rows).toEqual([
      { id: 2, name: 'b', note: 'x', extra: 7, one: 1 },
    ]);
  });
});
