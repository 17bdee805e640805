#!/usr/bin/env node
// Runs after `npm ci` / `npm install` at the root. better-sqlite3 13 is a Node-API 10 addon, which
// Node.js 20 (end of life since April 2026, not supported) cannot load. So that a machine that still
// has only Node 20 can run the product, npm on Node 20 also installs better-sqlite3 12, from its own
// lockfile, into compat/node20; apps/server/src/db/driver.ts loads it from there on such a Node.
// (Node 22 before 22.14 has Node-API 9 too and gets the same.) On Node 22.14+ and 24 it does nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

if (Number(process.versions.napi) >= 10) process.exit(0);

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'compat', 'node20');
const lock = readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
// Built once per lockfile and Node ABI: a root `npm ci` does not have to compile it again.
const stamp = `node-abi ${process.versions.modules}, lockfile ${createHash('sha256').update(lock).digest('hex')}`;
const stampFile = path.join(dir, 'node_modules', '.installed-for');
if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) process.exit(0);

console.warn(
  `\nNode.js ${process.version} (Node-API ${process.versions.napi}) is not supported: use 22.14+ or 24. ` +
    'Installing the better-sqlite3 12 fallback for it into compat/node20 (compiles from source).\n',
);
const npmCli = process.env.npm_execpath;
const [cmd, args] = npmCli?.endsWith('.js') ? [process.execPath, [npmCli]] : [npmCli || 'npm', []];
const res = spawnSync(cmd, [...args, 'ci', '--no-audit', '--no-fund', '--prefix', dir], {
  stdio: 'inherit',
});
if (res.status !== 0) process.exit(res.status ?? 1);
writeFileSync(stampFile, stamp);
