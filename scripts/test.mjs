#!/usr/bin/env node
// `npm test`: lint, module boundaries, typecheck, unit tests, API tests (SQLite, plus PostgreSQL when
// TEST_DATABASE_URL is set), then browser tests on the production build (built beside the API tests)
// when Chromium is found.
// Says plainly what it skipped and why; under CI=true nothing may be skipped. Ends with one line
// "N passed, N failed" (also written as JSON to TEST_TOTALS_FILE when set, for .ci/run's total).
// `--only unit,api` runs just those vitest projects (CI's shorter Node.js lines); `--api-files a,b`
// limits the API tests to files whose names contain one of those words.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const CI = process.env.CI === 'true';
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg === -1 ? null : new Set(process.argv[onlyArg + 1]?.split(',') ?? []);
const PROJECTS = ['unit', 'api', 'e2e'];
if (only && (only.size === 0 || [...only].some((p) => !PROJECTS.includes(p)))) {
  console.error(`--only takes a comma-separated list of: ${PROJECTS.join(', ')}`);
  process.exit(2);
}
const apiFilesArg = process.argv.indexOf('--api-files');
const apiFiles = apiFilesArg === -1 ? [] : (process.argv[apiFilesArg + 1]?.split(',').filter(Boolean) ?? []);
if (apiFilesArg !== -1 && apiFiles.length === 0) {
  console.error('--api-files takes a comma-separated list of words in test file names');
  process.exit(2);
}
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The steps' reports (read back into the summary below) and background logs; gone when this ends.
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'wxc-test-'));
process.on('exit', () => rmSync(reportDir, { recursive: true, force: true }));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** "project › file › test: first line of the error", for the summary (CI's log may show only its end). */
const failures = [];
const steps = [];
const skipped = [];

function run(name, cmd, args, env = {}) {
  process.stdout.write(`\n▶ ${name}: ${cmd} ${args.join(' ')}\n`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = res.status === 0;
  steps.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  return ok;
}

/**
 * Starts a step in the background, its output kept in a file until `finish` (so it does not
 * interleave with the step running meanwhile, and never waits on a full pipe while that step's
 * spawnSync holds this process); `finish` prints it and records the step.
 */
function startInBackground(name, cmd, args) {
  const started = Date.now();
  const outFile = path.join(reportDir, `${name.replace(/\W+/g, '-')}.log`);
  const out = openSync(outFile, 'w');
  const child = spawn(cmd, args, { stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  return async function finish() {
    const code = await exited;
    process.stdout.write(`\n▶ ${name}: ${cmd} ${args.join(' ')} (beside the step before)\n`);
    process.stdout.write(readFileSync(outFile));
    const ok = code === 0;
    steps.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    return ok;
  };
}

function vitest(project, env = {}, extraArgs = []) {
  const out = path.join(reportDir, `${project}.json`);
  const suiteErrorsFile = path.join(reportDir, `${project}-suite-errors.json`);
  const ok = run(
    `${project} tests`,
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
      '--reporter=./scripts/vitest-suite-errors.mjs',
      ...extraArgs,
    ],
    { ...env, WXC_SUITE_ERRORS_FILE: suiteErrorsFile },
  );
  const suiteErrors = existsSync(suiteErrorsFile) ? JSON.parse(readFileSync(suiteErrorsFile, 'utf8')) : [];
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    if (!ok && r.numFailedTests === 0) totals.failed += 1; // a suite that failed to load
    for (const file of r.testResults ?? []) {
      const where = `${project} › ${path.relative(process.cwd(), file.name)}`;
      const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failed) failures.push(`${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
      if (file.status === 'failed' && failed.length === 0) {
        // A describe block's hook failed: the JSON report has no message, the reporter above has.
        const own = suiteErrors.filter((e) => e.file === file.name);
        if (own.length === 0) failures.push(`${where}: ${firstLine(file.message)}`);
        for (const e of own) failures.push(`${where} › ${e.where}: ${firstLines(e.error)}`);
      }
    }
    for (const e of suiteErrors.filter((e) => e.where === 'unhandled'))
      failures.push(`${project} › unhandled error: ${firstLines(e.error)}`);
  } else if (!ok) {
    totals.failed += 1;
    failures.push(`${project}: no report (vitest did not finish)`);
  }
  return ok;
}

/** The message and the first frames of a stack outside node_modules, indented under the summary line. */
function firstLines(text, count = 6) {
  return stripVTControlCharacters(text ?? '')
    .trim()
    .split('\n')
    .filter((line) => !line.includes('/node_modules/'))
    .slice(0, count)
    .join('\n      ');
}

function firstLine(text) {
  return stripVTControlCharacters(text ?? '')
    .trim()
    .split('\n')[0]
    .slice(0, 300);
}

const wants = (project) => !only || only.has(project);
// A deliberate subset (--only) lists what it left out; only the full run must leave out nothing under CI.
const strict = CI && !only;
let ok = true;
if (only)
  skipped.push(`only ${[...only].join(', ')} asked for (--only): no lint, typecheck or other projects`);
else {
  ok = run('lint', 'npx', ['biome', 'check', '.']) && ok;
  // Module boundaries of the server (one owner per table, SQL in repos, no module cycles, literal call paths).
  ok = run('boundaries', 'node', ['scripts/check-boundaries.mjs']) && ok;
}
// The typecheck (one core, ~50 s) runs beside the unit tests rather than before them.
const typecheck = only ? null : startInBackground('typecheck', 'npm', ['run', '--silent', 'typecheck']);
if (wants('unit')) ok = vitest('unit') && ok;
if (typecheck) ok = (await typecheck()) && ok;

// The production build the browser tests need (~25 s) runs beside the API tests, at the lowest
// priority: it takes the CPU their waits leave (timers, other processes) instead of a step of its own.
const build =
  wants('e2e') && existsSync(chromium)
    ? startInBackground('production build', 'nice', ['-n', '19', 'npm', 'run', '--silent', 'build'])
    : null;

if (wants('api')) {
  if (!process.env.TEST_DATABASE_URL) {
    const why = 'TEST_DATABASE_URL is not set, so the API tests ran on SQLite only';
    if (strict) {
      console.error(`\n✗ ${why}; CI requires PostgreSQL too`);
      ok = false;
    } else skipped.push(why);
  }
  if (!process.env.TEST_REDIS_URL) {
    // apps/server/test/rate-limits.test.ts itself fails under CI without it.
    skipped.push('TEST_REDIS_URL is not set, so the Redis rate limit store was not tested');
  }
  if (apiFiles.length)
    skipped.push(`API tests limited to files named like: ${apiFiles.join(', ')} (--api-files)`);
  // On SQLite alone the files run in worker threads (they start faster: CI's shorter lines, 78 -> 62 s
  // locally). With PostgreSQL they stay in child processes: two files migrating their schemas from
  // threads of one process failed once with "relation … does not exist" (not seen with processes).
  const pool = process.env.TEST_DATABASE_URL ? [] : ['--pool', 'threads'];
  ok = vitest('api', {}, [...pool, ...apiFiles]) && ok;
}

if (wants('e2e')) {
  if (build) {
    const built = await build();
    ok = built && ok;
    if (built) ok = vitest('e2e', { CHROMIUM_PATH: chromium }) && ok;
    else {
      totals.failed += 1;
      failures.push('e2e: not run, the production build failed');
    }
  } else {
    const why = `browser tests: Chromium not found at ${chromium} (apt-get install -y chromium)`;
    if (strict) {
      console.error(`\n✗ ${why}; CI requires them`);
      ok = false;
    } else skipped.push(why);
  }
}

console.log('\nSummary');
for (const s of steps) console.log(`  ${s.ok ? '✓' : '✗'} ${s.name} (${s.seconds}s)`);
for (const s of skipped) console.log(`  - skipped: ${s}`);
for (const f of failures) console.log(`  ✗ ${f}`);
console.log(
  `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
if (process.env.TEST_TOTALS_FILE) {
  writeFileSync(
    process.env.TEST_TOTALS_FILE,
    JSON.stringify({ ...totals, failures, ok, node: process.version }),
  );
}
process.exit(ok && totals.failed === 0 ? 0 : 1);
