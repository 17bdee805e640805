import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/index.js';
import { insertManyTogether, preparedInsertMany, rowsFor } from '../src/db/prepared.js';
import type { DB } from '../src/db/schema.js';
import { dialects, openBareDatabase, withSchemaChangeLock } from './helpers.js';

// db/prepared.ts insertManyTogether: rows of several tables together or not at all (one statement on
// PostgreSQL, a transaction on SQLite, or the caller's). Its users: a new device with its login (in
// SQLite's group commit), a simulated network.
describe.each(dialects)('rows of several tables written together (%s)', (dialect) => {
  let bare: Awaited<ReturnType<typeof openBareDatabase>> | undefined;
  let db: Kysely<DB>;

  beforeAll(async () => {
    bare = await openBareDatabase(dialect);
    db = bare.database.db;
    await withSchemaChangeLock(() => migrateToLatest(db));
  });
  afterAll(async () => {
    await bare?.close();
  });

  const settings = preparedInsertMany('settings', { key: true, value: true, updated_at: true });
  const stored = async (prefix: string) =>
    (
      await db
        .selectFrom('settings')
        .select(['key', 'value', 'updated_at'])
        .where('key', 'like', `${prefix}%`)
        .orderBy('key')
        .execute()
    ).map((r) => ({ ...r, updated_at: Number(r.updated_at) }));

  it('writes each part’s rows, values as given', async () => {
    const first = [
      { key: 'a.1', value: `它's "quoted" 😀`, updated_at: 1_732_700_000_001 },
      { key: 'a.2', value: '', updated_at: 2 },
    ];
    const second = [{ key: 'a.3', value: 'three', updated_at: 3 }];
    await insertManyTogether(db, [
      rowsFor(settings, first),
      rowsFor(settings, []),
      rowsFor(settings, second),
    ]);
    expect(await stored('a.')).toEqual([...first, ...second]);
  });

  it('a part that fails keeps none of the others', async () => {
    await insertManyTogether(db, [rowsFor(settings, [{ key: 'b.taken', value: 'first', updated_at: 1 }])]);
    await expect(
      insertManyTogether(db, [
        rowsFor(settings, [{ key: 'b.new', value: 'new', updated_at: 2 }]),
        // The same key again (no skipConflicts): the statement, or the transaction, fails whole.
        rowsFor(settings, [{ key: 'b.taken', value: 'second', updated_at: 2 }]),
      ]),
    ).rejects.toThrow();
    expect(await stored('b.')).toEqual([{ key: 'b.taken', value: 'first', updated_at: 1 }]);
  });

  it("inside a caller's transaction it joins it: kept with it, undone with it", async () => {
    await db.transaction().execute(async (trx) => {
      await insertManyTogether(trx, [
        rowsFor(settings, [{ key: 'c.1', value: 'one', updated_at: 1 }]),
        rowsFor(settings, [{ key: 'c.2', value: 'two', updated_at: 2 }]),
      ]);
    });
    expect((await stored('c.')).map((r) => r.key)).toEqual(['c.1', 'c.2']);
    await expect(
      db.transaction().execute(async (trx) => {
        await insertManyTogether(trx, [rowsFor(settings, [{ key: 'd.1', value: 'one', updated_at: 1 }])]);
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    expect(await stored('d.')).toEqual([]);
  });
});
