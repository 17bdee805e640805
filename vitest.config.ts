import { defineConfig } from 'vitest/config';

// Three projects: fast unit tests, API tests against real databases, browser journeys.
// `npm test` (scripts/test.mjs) runs them in that order and prints one summary line.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
          ],
          environment: 'node',
          // Worker threads start faster than child processes: 70 files, 37 s -> 21 s (47 -> 28 CPU s).
          pool: 'threads',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          // Two files at a time (vitest's default on 2 cores is one): each file has its own
          // databases (a PostgreSQL schema, SQLite in memory or its own file), Redis key prefix and
          // ports, and half of a file's time is importing the server. CI: 294 s -> 163 s.
          maxWorkers: 2,
          // A worker keeps the modules it imported for its next file (each file still builds its own
          // apps and databases). Importing the server once per file was 70 of the suite's 207 s; 156-160 s
          // without it, and the shorter Node lines' SQLite files 26 s instead of ~45.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Two files at a time: a browser journey mostly waits (on the page, the service, its
          // polls), so two share the 2-core machine well (the run: 625 s -> 493 s). Four made the
          // restart and re-login tests miss their deadlines.
          maxWorkers: 2,
          // A worker keeps the modules it imported (the harness, playwright-core, the contract) for its
          // next file, as in the API tests; each file still starts its own service and browser.
          isolate: false,
          // A poll waits on a page that shares the machine with another journey: the default 1 s
          // failed a save-then-navigate on a loaded CI machine.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
