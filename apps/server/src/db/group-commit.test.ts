import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSqliteDriver } from './driver.js';
import { directRunnerOn, FLUSH_AFTER_MS, FLUSH_AT, groupCommitWrites } from './group-commit.js';
import { type Database, migrateToLatest, openDatabase } from './index.js';
import { preparedQuery } from './prepared.js';
import type { DB } from './schema.js';

let dir: string;
let other: Database;
let db: Kysely<DB>;
/** The group commit under test, on `db`'s connection. */
let groupCommit: () => ReturnType<typeof groupCommitWrites>;
/** Unit savepoints it opened (run on the connection directly, not through Kysely's log). */
let savepointsOpened: number;
/** Every statement the group commit's connection ran through Kysely (savepoints and prepared queries run beside it). */
let statements: string[];

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'wxc-group-commit-'));
  const file = path.join(dir, 'db.sqlite');
  // A second connection on the same file: what it sees is committed.
  other = await openDatabase({ sqliteFile: file });
  await migrateToLatest(other.db);
  statements = [];
  const Sqlite = loadSqliteDriver();
  const sqlite = new Sqlite(file);
  db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => void statements.push(event.query.sql),
  });
  savepointsOpened = 0;
  // The clock stands still unless a test moves it: a CI machine once paused over FLUSH_AFTER_MS
  // between two writes of one turn, and the time bound split a batch a test counted on.
  vi.spyOn(performance, 'now').mockReturnValue(1_000);
  groupCommit = () => {
    const run = directRunnerOn(sqlite);
    return groupCommitWrites(db, (text, parameters) => {
      if (text === 'savepoint unit') savepointsOpened += 1;
      return run(text, parameters);
    });
  };
});

afterEach(async () => {
  vi.restoreAllMocks();
  await db.destroy();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

const put = (key: string) => (trx: Kysely<DB>) =>
  trx.insertInto('settings').values({ key, value: key, updated_at: 1 }).execute();
const committedKeys = async () =>
  (
    await other.db.selectFrom('settings').select('key').where('key', 'like', 't.%').orderBy('key').execute()
  ).map((r) => r.key);
const commits = () => statements.filter((s) => s === 'commit').length;

describe('group commit (SQLite)', () => {
  it('commits the writes of one turn together, each answered with its own result once committed', async () => {
    const writes = groupCommit();
    const seen: string[][] = [];
    const results = await Promise.all(
      ['t.a', 't.b', 't.c'].map((key) =>
        writes
          .transact(async (trx) => {
            await put(key)(trx);
            return key.toUpperCase();
          })
          .then(async (result) => {
            seen.push(await committedKeys());
            return result;
          }),
      ),
    );
    expect(results).toEqual(['T.A', 'T.B', 'T.C']);
    expect(commits()).toBe(1);
    // Each promise resolved after the commit: another connection already saw all three.
    for (const keys of seen) expect(keys).toEqual(['t.a', 't.b', 't.c']);
  });

  it('rolls back a unit that throws alone, and gives its caller its error', async () => {
    const writes = groupCommit();
    const failing = writes.transact(async (trx) => {
      await put('t.b')(trx);
      throw new Error('unit b failed');
    });
    const [a, b, c] = await Promise.allSettled([
      writes.transact(put('t.a')),
      failing,
      writes.write(put('t.c')),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(b).toMatchObject({ status: 'rejected', reason: { message: 'unit b failed' } });
    expect(c.status).toBe('fulfilled');
    expect(commits()).toBe(1);
    expect(savepointsOpened).toBe(3); // one per unit
    expect(await committedKeys()).toEqual(['t.a', 't.c']);
  });

  it('a lone write is a transaction of its own; a failing one changes nothing', async () => {
    const writes = groupCommit();
    await writes.write(put('t.a'));
    await expect(
      writes.transact(async (trx) => {
        await put('t.b')(trx);
        await put('t.a')(trx); // already there: the unique key refuses it
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect(commits()).toBe(1);
    expect(savepointsOpened).toBe(0);
    expect(await committedKeys()).toEqual(['t.a']);
  });

  it('prepared queries in a batch run on its connection directly, inside its transaction; elsewhere through Kysely', async () => {
    const putPrepared = preparedQuery(1, (d, key: string) =>
      d.insertInto('settings').values({ key, value: key, updated_at: 1 }),
    );
    const writes = groupCommit();
    const [a, b] = await Promise.allSettled([
      writes.transact((trx) => putPrepared(trx, 't.a')),
      writes.transact(async (trx) => {
        await putPrepared(trx, 't.b');
        throw new Error('unit b failed');
      }),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(b).toMatchObject({ status: 'rejected', reason: { message: 'unit b failed' } });
    expect(commits()).toBe(1);
    expect(statements.some((s) => s.startsWith('insert'))).toBe(false); // not through Kysely
    expect(await committedKeys()).toEqual(['t.a']);
    // A unit alone: its error rolls back its prepared writes too.
    await expect(
      writes.transact(async (trx) => {
        await putPrepared(trx, 't.c');
        throw new Error('unit c failed');
      }),
    ).rejects.toThrow('unit c failed');
    expect(await committedKeys()).toEqual(['t.a']);
    // Outside a batch (and on the batch's transaction after it ended), Kysely runs them.
    await putPrepared(db, 't.d');
    expect(statements.filter((s) => s.startsWith('insert'))).toHaveLength(1);
    expect(await committedKeys()).toEqual(['t.a', 't.d']);
  });

  it(`commits once ${FLUSH_AT} writes wait, without waiting for the end of the turn; later ones go in the next batch`, async () => {
    const writes = groupCommit();
    const keys = Array.from({ length: FLUSH_AT + 1 }, (_, i) => `t.${String(i).padStart(2, '0')}`);
    await Promise.all(keys.map((key) => writes.write(put(key))));
    expect(commits()).toBe(2);
    expect(await committedKeys()).toEqual(keys);

    statements = [];
    await Promise.all(keys.slice(0, FLUSH_AT - 1).map((key) => writes.write(put(`${key}.again`))));
    expect(commits()).toBe(1);
  });

  it(`commits once the first write of a batch has waited ${FLUSH_AFTER_MS} ms, whatever the count; the rest of the turn goes next`, async () => {
    const writes = groupCommit();
    let now = 1_000;
    vi.mocked(performance.now).mockImplementation(() => now);
    // One turn: two writes, then the turn goes on (other requests) before a third arrives.
    const first = [writes.write(put('t.a')), writes.write(put('t.b'))];
    now += FLUSH_AFTER_MS - 1;
    const third = writes.write(put('t.c')); // not yet: the batch is younger than the bound
    now += 1;
    const fourth = writes.write(put('t.d')); // now: a, b, c and d go; e waits for the next
    const fifth = writes.write(put('t.e'));
    await Promise.all([...first, third, fourth, fifth]);
    expect(commits()).toBe(2);
    expect(await committedKeys()).toEqual(['t.a', 't.b', 't.c', 't.d', 't.e']);
  });

  it('the server keeps the sub-journal of its savepoints in memory (no temporary file written per page)', async () => {
    // 2 = MEMORY; the default (0) spills a sub-journal past 64 KiB to a file: a write(2) per page.
    const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(other.db);
    expect(rows[0]?.temp_store).toBe(2);
  });
});
