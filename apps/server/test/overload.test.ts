import { authCalls, ErrorCatalogue, packageCalls } from '@wxc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/index.js';
import { createPgSchema, createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';

/**
 * Keeps the event loop busy (a 150 ms busy wait per turn, requests served in between) until
 * stopped: what a process saturated by its own work looks like to the load shedder.
 */
function hogEventLoop(): () => void {
  let on = true;
  const turn = () => {
    if (!on) return;
    const until = performance.now() + 150;
    while (performance.now() < until) {
      /* busy */
    }
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    on = false;
  };
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Runs `step` once the smoothed lag is under the threshold; if the shedder still turns one of its
 * calls away (a busy machine's lag comes and goes), tries again, as a client told "503,
 * Retry-After" would. Anything else fails at once.
 */
async function whenCalm<T>(t: TestApp, step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await until(() => !t.app.overloaded());
    try {
      return await step();
    } catch (err) {
      if (attempt >= 5 || !String(err).includes('服务繁忙')) throw err;
    }
  }
}

describe.each(dialects)('overload (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { OVERLOAD_EVENT_LOOP_DELAY_MS: '50' });
  });
  afterAll(() => t.close());

  it('sheds new requests with 503 and Retry-After while overloaded; health answers; then recovers', async () => {
    // A 50 ms threshold: let the start-up's long turns (and a busy machine's) fade from the smoothed
    // lag first, or the registration itself is shed.
    const company = await whenCalm(t, () => registerCompany(t));
    await whenCalm(t, async () => {
      const res = await t.call(authCalls.refreshLoginInfo, {}, { token: company.token });
      if (res.status === 503) throw new Error(res.message);
      expect(res.code).toBe('200');
    });

    const stop = hogEventLoop();
    try {
      await until(() => t.app.overloaded());
      const shed = await t.call(authCalls.refreshLoginInfo, {}, { token: company.token });
      expect(shed.status).toBe(503);
      expect(shed.code).toBe(ErrorCatalogue.SERVICE_BUSY.code);
      expect(shed.message).toBe('服务繁忙，请稍后再试');
      expect(shed.headers['retry-after']).toBe('5');
      // Liveness still answers (a busy process is not restarted); readiness says "not now".
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(503);
    } finally {
      stop();
    }
    await whenCalm(t, async () => {
      const res = await t.call(authCalls.refreshLoginInfo, {}, { token: company.token });
      if (res.status === 503) throw new Error(res.message);
      expect(res.code).toBe('200');
      // readiness follows the shedder: 503 again only if the lag came back meanwhile
      const ready = (await t.app.inject({ url: '/readyz' })).statusCode;
      if (ready === 503) throw new Error('服务繁忙 (readyz)');
      expect(ready).toBe(200);
    });
  });
});

describe.runIf(dialects.includes('postgres'))('overload: no free database connection (postgres)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres', {}, { pool: { size: 1, waitMs: 300 } });
  });
  afterAll(() => t.close());

  it('answers 503 when no connection comes free in time, and serves again once one does', async () => {
    const company = await registerCompany(t);
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    // The pool's only connection, taken and kept busy.
    const holding = t.database.db.connection().execute(() => held);
    try {
      const res = await t.call(packageCalls.list, {}, { token: company.token });
      expect(res.status).toBe(503);
      expect(res.code).toBe(ErrorCatalogue.SERVICE_BUSY.code);
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      release();
      await holding;
    }
    expect((await t.call(packageCalls.list, {}, { token: company.token })).code).toBe('200');
  });
});

describe.runIf(dialects.includes('postgres'))(
  'the server pool opens its connections at start (postgres)',
  () => {
    /** When the backends of three queries run at once started, each on a connection of its own. */
    async function backendStarts(keepConnectionsOpen: boolean) {
      const schema = await createPgSchema();
      const database = await openDatabase({
        databaseUrl: process.env.TEST_DATABASE_URL,
        pgSchema: schema.schema,
        poolSize: 3,
        keepConnectionsOpen,
      });
      const opened = Date.now();
      try {
        // Each holds its connection 100 ms, so the three need all three connections.
        const rows = await Promise.all(
          [0, 1, 2].map(async () => {
            const { rows } = await sql<{ pid: number; started: Date }>`select pg_backend_pid() as pid,
            (select backend_start from pg_stat_activity where pid = pg_backend_pid()) as started,
            pg_sleep(0.1)::text as slept`.execute(database.db);
            return rows[0]!;
          }),
        );
        expect(new Set(rows.map((r) => r.pid)).size).toBe(3);
        return { opened, starts: rows.map((r) => r.started.getTime()) };
      } finally {
        await database.close();
        await schema.drop();
      }
    }

    it('every connection is open before openDatabase returns; without keepConnectionsOpen they open on demand', async () => {
      const kept = await backendStarts(true);
      for (const started of kept.starts) expect(started).toBeLessThanOrEqual(kept.opened);
      const onDemand = await backendStarts(false);
      for (const started of onDemand.starts) expect(started).toBeGreaterThanOrEqual(onDemand.opened);
    });
  },
);
