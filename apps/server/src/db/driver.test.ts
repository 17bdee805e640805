import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSqliteDriver, needsCompatDriver, SQLITE_DRIVER_NODE_API, sqliteDriverPath } from './driver.js';

function driverVersion(): string {
  let dir = path.dirname(sqliteDriverPath());
  while (path.basename(dir) !== 'better-sqlite3') dir = path.dirname(dir);
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

describe('SQLite driver for this Node.js', () => {
  it('needs the Node 20 fallback exactly when Node-API is older than 10', () => {
    expect(SQLITE_DRIVER_NODE_API).toBe(10);
    expect(needsCompatDriver(9)).toBe(true);
    expect(needsCompatDriver(10)).toBe(false);
    expect(needsCompatDriver(11)).toBe(false);
  });

  it(`loads better-sqlite3 ${needsCompatDriver() ? '12 from compat/node20' : '13'} on Node ${process.version}`, () => {
    const fallback = needsCompatDriver();
    expect(sqliteDriverPath().includes(`${path.sep}compat${path.sep}node20${path.sep}`)).toBe(fallback);
    expect(driverVersion().split('.')[0]).toBe(fallback ? '12' : '13');
    // Statements freed by the GC while the process runs: what better-sqlite3 12 aborts on in Node 24.19+.
    const Sqlite = loadSqliteDriver();
    const db = new Sqlite(':memory:');
    for (let i = 0; i < 2_000; i++) expect(db.prepare('SELECT ? AS n').get(i)).toEqual({ n: i });
    (globalThis as { gc?: () => void }).gc?.();
    db.close();
  });
});
