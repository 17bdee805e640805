import { afterEach, describe, expect, it } from 'vitest';
import { type Database, migrateToLatest, openDatabase } from './index.js';
import { preparedInsertMany, preparedQuery, rowsAsJson } from './prepared.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

async function migrated() {
  database = await openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(database.db);
  return database.db;
}

const keys = async (db: Awaited<ReturnType<typeof migrated>>) =>
  (await db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute()).filter((r) =>
    r.key.startsWith('t.'),
  );

describe('preparedQuery', () => {
  it('runs the query built once with each call’s values, constants kept', async () => {
    const db = await migrated();
    let builds = 0;
    const insert = preparedQuery(2, (d, key: string, value: string) => {
      builds += 1;
      return d.insertInto('settings').values({ key, value, updated_at: 1 });
    });
    const bump = preparedQuery(1, (d, key: string) =>
      d.updateTable('settings').set({ value: 'bumped', updated_at: 2 }).where('key', '=', key).returningAll(),
    );
    await insert(db, 't.a', 'one');
    await insert(db, 't.b', 'two');
    expect(builds).toBe(1);
    expect((await bump(db, 't.b')).rows).toEqual([{ key: 't.b', value: 'bumped', updated_at: 2 }]);
    expect((await bump(db, 't.none')).rows).toEqual([]);
    expect(await keys(db)).toEqual([
      { key: 't.a', value: 'one' },
      { key: 't.b', value: 'bumped' },
    ]);
  });

  it('runs inside a transaction on the transaction’s connection, compiled once for both', async () => {
    const db = await migrated();
    let builds = 0;
    const insert = preparedQuery(1, (d, key: string) => {
      builds += 1;
      return d.insertInto('settings').values({ key, value: 'v', updated_at: 1 });
    });
    await insert(db, 't.outside');
    await expect(
      db.transaction().execute(async (trx) => {
        await insert(trx, 't.inside');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(builds).toBe(1);
    expect(await keys(db)).toEqual([{ key: 't.outside', value: 'v' }]);
  });

  it('refuses a query that does not use one of its arguments', async () => {
    const db = await migrated();
    const wrong = preparedQuery(2, (d, key: string, _unused: number) =>
      d.insertInto('settings').values({ key, value: 'v', updated_at: 1 }),
    );
    await expect(wrong(db, 't.x', 2)).rejects.toThrow('does not use its argument(s) 1');
  });
});

describe('preparedInsertMany', () => {
  it('inserts any number of rows, values as given (quotes, emoji, numbers)', async () => {
    const db = await migrated();
    const insert = preparedInsertMany('settings', { key: true, value: true, updated_at: true });
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      key: `t.${String(i).padStart(4, '0')}`,
      value: i % 2 ? `它's "quoted" 😀 ${i}` : '',
      updated_at: 1_732_700_000_000 + i,
    }));
    await insert(db, rows); // over SQLite's 999 bound values if each were a parameter
    await insert(db, []); // nothing to do
    const stored = await db
      .selectFrom('settings')
      .selectAll()
      .where('key', 'like', 't.%')
      .orderBy('key')
      .execute();
    expect(stored).toEqual(rows);
  });

  it('more rows than one SQLite statement takes: all of them, or none when one fails', async () => {
    const db = await migrated();
    const insert = preparedInsertMany('settings', { key: true, value: true, updated_at: true });
    // 32,766 bound values a statement: 10,922 rows of three columns.
    const rows = Array.from({ length: 11_000 }, (_, i) => ({ key: `t.${i}`, value: '', updated_at: i }));
    await expect(insert(db, [...rows, { key: 't.0', value: 'again', updated_at: 0 }])).rejects.toThrow();
    expect(await keys(db)).toEqual([]);
    await insert(db, rows);
    expect((await keys(db)).length).toBe(11_000);
  });

  it('with skipConflicts, rows that break a unique key are left out and the others written', async () => {
    const db = await migrated();
    const insert = preparedInsertMany(
      'settings',
      { key: true, value: true, updated_at: true },
      { skipConflicts: true },
    );
    await insert(db, [{ key: 't.a', value: 'first', updated_at: 1 }]);
    await insert(db, [
      { key: 't.a', value: 'second', updated_at: 2 },
      { key: 't.b', value: 'new', updated_at: 2 },
    ]);
    expect(await keys(db)).toEqual([
      { key: 't.a', value: 'first' },
      { key: 't.b', value: 'new' },
    ]);
  });
});

describe('rowsAsJson', () => {
  it('is the rows as JSON, a lone surrogate (half an emoji) written as U+FFFD, pairs kept', () => {
    const rows = [
      { a: '它\'s "quoted" 😀', n: 1, z: null },
      { a: `半个${'😀'.slice(0, 1)}表情`, b: `${'😀'.slice(1)}尾` },
    ];
    const json = rowsAsJson(rows);
    expect(JSON.parse(json)).toEqual([
      { a: '它\'s "quoted" 😀', n: 1, z: null },
      { a: '半个\uFFFD表情', b: '\uFFFD尾' },
    ]);
    expect(json).not.toContain('\\ud');
    // Nothing to repair: exactly JSON.stringify's output.
    expect(rowsAsJson(rows.slice(0, 1))).toBe(JSON.stringify(rows.slice(0, 1)));
  });

  it('keeps a text that spells an escape (a backslash before "ud") as it is', () => {
    const rows = [{ path: 'C:\\udp\\ud800', lone: 'x\udc00' }];
    expect(JSON.parse(rowsAsJson(rows))).toEqual([{ path: 'C:\\udp\\ud800', lone: 'x\uFFFD' }]);
    expect(JSON.parse(rowsAsJson(rows.map(({ path }) => ({ path }))))).toEqual([{ path: 'C:\\udp\\ud800' }]);
  });
});
