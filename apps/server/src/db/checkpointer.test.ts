import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_EVERY_MS } from './checkpointer.js';
import { openDatabase } from './index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function fileDatabase() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wxc-checkpoint-'));
  dirs.push(dir);
  const file = path.join(dir, 'app.sqlite');
  const warnings: string[] = [];
  const database = await openDatabase({ sqliteFile: file, warn: (m) => warnings.push(m) });
  return { database, file, warnings };
}

describe('SQLite checkpoint thread', () => {
  it('moves committed pages into the database file while the service keeps writing', async () => {
    const { database, file, warnings } = await fileDatabase();
    const { db } = database;
    await sql`create table t (id integer primary key, body text not null)`.execute(db);
    const before = fs.statSync(file).size;
    // ~2 MB in 200 commits: far below the main connection's own backstop (10,000 pages), so only
    // the thread can have copied them into the file.
    for (let i = 0; i < 200; i++) await sql`insert into t (body) values (${'x'.repeat(10_000)})`.execute(db);
    await expect
      .poll(() => fs.statSync(file).size, { timeout: 20 * CHECKPOINT_EVERY_MS })
      .toBeGreaterThan(before + 1_500_000);
    await database.close();
    expect(warnings).toEqual([]);
  });

  it('stops with the database: after close no connection is left, so SQLite removed the WAL', async () => {
    const { database, file } = await fileDatabase();
    await sql`create table t (id integer primary key)`.execute(database.db);
    await sql`insert into t default values`.execute(database.db);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await database.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    // Closing twice is harmless (the service's shutdown may race a failing start-up).
    await expect(database.close()).resolves.toBeUndefined();
  });
});
