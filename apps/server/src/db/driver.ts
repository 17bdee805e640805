import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Which better-sqlite3 this Node.js can run. Version 13 (the dependency) is a Node-API 10 addon:
 * Node 22.14+ and 24 load it, Node 20 (Node-API 9) crashes in `new Database()`
 * (WiseLibs/better-sqlite3#1514). Version 12 works on Node 20 but aborts Node 24.19+ when the GC
 * frees a statement (#1515). Node 20 is past its end of life and not supported, but machines still
 * ship it, so `npm ci` on it installs version 12 into compat/node20 (scripts/postinstall.mjs) and
 * this picks that one there.
 */
export const SQLITE_DRIVER_NODE_API = 10;

const require = createRequire(import.meta.url);

export function needsCompatDriver(nodeApi = Number(process.versions.napi)): boolean {
  return nodeApi < SQLITE_DRIVER_NODE_API;
}

/** The file to `require()` for the driver (the checkpoint thread loads the same one). */
export function sqliteDriverPath(): string {
  if (!needsCompatDriver()) return require.resolve('better-sqlite3');
  // Source (apps/server/src/db) and bundle (apps/server/dist) sit at different depths: walk up.
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'compat', 'node20', 'node_modules', 'better-sqlite3');
    if (existsSync(path.join(candidate, 'package.json'))) return require.resolve(candidate);
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(
    `Node.js ${process.version} (Node-API ${process.versions.napi}) cannot load better-sqlite3 13, and ` +
      'the Node 20 fallback in compat/node20 is not installed. Use Node.js 22.14+ or 24 (see README), ' +
      'or run `npm ci` again with this Node to install the fallback.',
  );
}

let driver: typeof BetterSqlite3 | undefined;

export function loadSqliteDriver(): typeof BetterSqlite3 {
  driver ??= require(sqliteDriverPath()) as typeof BetterSqlite3;
  return driver;
}
