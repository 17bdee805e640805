import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSqliteDriver } from './driver.js';
import { StablePlanSqliteDialect } from './sqlite-dialect.js';

interface T {
  t: { id: string; n: number; txt: string | null; flag: number };
}

const open: Array<Kysely<T>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()));
});

/** One in-memory database, as Kysely's stock dialect and as ours see it. */
async function both() {
  const Sqlite = loadSqliteDriver();
  const sqlite = new Sqlite(':memory:');
  const stock = new Kysely<T>({ dialect: new SqliteDialect({ database: sqlite }) });
  const stable = new Kysely<T>({ dialect: new StablePlanSqliteDialect({ database: sqlite }) });
  open.push(stable); // one connection under both: destroyed once
  await sql`create table t (id text primary key, n integer not null, txt text, flag integer not null)`.execute(
    stock,
  );
  await sql`create index t_n on t (n, id)`.execute(stock);
  await sql`create index t_flagged on t (n) where flag = 1`.execute(stock);
  await stable
    .insertInto('t')
    .values([
      { id: 'a', n: 1, txt: '1', flag: 1 },
      { id: 'b', n: 2, txt: 'two', flag: 0 },
      { id: 'c', n: 3, txt: null, flag: 1 },
      { id: 'd', n: 10, txt: '10', flag: 0 },
    ])
    .execute();
  return { stock, stable };
}

describe('StablePlanSqliteDialect', () => {
  it('binds values as +?', async () => {
    const { stable } = await both();
    const { sql: text, parameters } = stable
      .selectFrom('t')
      .selectAll()
      .where('id', '=', 'a')
      .orderBy('n')
      .limit(2)
      .compile();
    expect(text).toBe('select * from "t" where "id" = +? order by "n" limit +?');
    expect(parameters).toEqual(['a', 2]);
  });

  it('answers every query as the stock dialect does: comparisons across types, IN, LIKE, NULL, LIMIT, joins, writes', async () => {
    const { stock, stable } = await both();
    const queries = (db: Kysely<T>) => [
      // A text column against a number, an integer column against a text: SQLite's affinity rules.
      db
        .selectFrom('t')
        .select('id')
        .where('txt', '=', 1 as never)
        .orderBy('id'),
      db
        .selectFrom('t')
        .select('id')
        .where('n', '=', '2' as never)
        .orderBy('id'),
      db
        .selectFrom('t')
        .select('id')
        .where('n', '>', '2' as never)
        .orderBy('id'),
      db.selectFrom('t').select('id').where('id', 'in', ['a', 'c', 'x']).orderBy('n', 'desc'),
      db.selectFrom('t').select('id').where('txt', 'like', 't%').orderBy('id'),
      db.selectFrom('t').select('id').where('txt', 'is', null),
      db
        .selectFrom('t')
        .select(['id', sql<number>`${5} + n`.as('m')])
        .orderBy('id')
        .limit(2)
        .offset(1),
      db
        .selectFrom('t as x')
        .innerJoin('t as y', (j) => j.onRef('y.n', '>', 'x.n').on('y.flag', '=', 1))
        .select(['x.id as a', 'y.id as b'])
        .where('x.id', '=', 'a')
        .orderBy('y.id'),
      db.selectFrom('t').select('id').where('flag', '=', 1).where('n', '<', 5).orderBy('n'),
    ];
    const a = await Promise.all(queries(stock).map((q) => q.execute()));
    const b = await Promise.all(queries(stable).map((q) => q.execute()));
    expect(b).toEqual(a);
    expect(a[1]).toEqual([{ id: 'b' }]); // the queries found something to compare

    await stable
      .updateTable('t')
      .set({ txt: 'x', n: sql`n + ${1}` })
      .where('id', '=', 'b')
      .execute();
    await stable.deleteFrom('t').where('n', '>=', 10).execute();
    expect(await stock.selectFrom('t').selectAll().orderBy('id').execute()).toEqual([
      { id: 'a', n: 1, txt: '1', flag: 1 },
      { id: 'b', n: 3, txt: 'x', flag: 0 },
      { id: 'c', n: 3, txt: null, flag: 1 },
    ]);
  });

  it('still finds a row of a join by its key through the index', async () => {
    const { stable } = await both();
    const query = stable
      .selectFrom('t as x')
      .leftJoin('t as y', 'y.id', 'x.txt')
      .select(['x.id', 'y.n'])
      .where('x.id', '=', 'a')
      .compile();
    const plan = await stable.executeQuery<{ detail: string }>({
      ...query,
      sql: `explain query plan ${query.sql}`,
    });
    const detail = plan.rows.map((r) => r.detail);
    expect(detail.join(' | ')).toMatch(/SEARCH x USING INDEX sqlite_autoindex_t_1 \(id=\?\)/);
  });
});
