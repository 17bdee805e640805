#!/usr/bin/env node
// `npm run test:e2e`: builds the console and the service, then runs the browser journeys
// (vitest project "e2e"). Extra arguments go to vitest, e.g. `npm run test:e2e -- e2e/auth.e2e.ts`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}: install Debian's chromium package or set CHROMIUM_PATH.`);
  process.exit(1);
}
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: process.env }).status ?? 1;
if (!process.argv.includes('--no-build')) {
  const status = run('npm', ['run', '--silent', 'build']);
  if (status !== 0) process.exit(status);
}
const args = process.argv.slice(2).filter((a) => a !== '--no-build');
process.exit(run('npx', ['vitest', 'run', '--project', 'e2e', ...args]));
