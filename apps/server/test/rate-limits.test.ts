import { randomBytes } from 'node:crypto';
import { authCalls } from '@wxc/contract';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../src/db/index.js';
import {
  type RateCount,
  type RateCounter,
  type RateWindows,
  redisWindows,
  routeAddressCounter,
  sweepWindows,
  tableWindows,
} from '../src/modules/rate-limits/store.js';
import {
  createTestApp,
  dialects,
  sharedDatabase,
  type TestApp,
  uniquePhone,
  withSchemaChangeLock,
} from './helpers.js';

/**
 * Per-IP rate limits hold for the whole deployment: two app instances on one database (or one
 * Redis) share every budget. Redis runs when TEST_REDIS_URL is set (CI sets it; under CI a missing
 * Redis is a failure, not a skip). Each run uses keys of its own and deletes only those.
 */
const REDIS_URL = process.env.TEST_REDIS_URL;
if (process.env.CI === 'true' && !REDIS_URL) {
  throw new Error(
    'CI=true but TEST_REDIS_URL is not set: the Redis rate limit tests may not be skipped in CI',
  );
}
const runPrefix = `wxc:rl:test-${process.pid}-${randomBytes(4).toString('hex')}:`;

let redis: Redis | undefined;
beforeAll(async () => {
  if (REDIS_URL) redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis?.connect();
});
afterAll(async () => {
  if (!redis) return;
  // Only this run's keys.
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const incr = async (counter: RateCounter, key: string, windowMs = 60_000): Promise<RateCount> =>
  counter.hit(key, windowMs);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the shared backends, as the store uses them ----------------------------------------------------

interface Backend {
  name: string;
  windows: RateWindows;
  /** Another process's store on the same backend. */
  another(): RateWindows;
  dispose(): Promise<void>;
  /** The table store only: rows in rate_windows, and the sweep. */
  table?: { rows(): Promise<number>; sweep(now?: number): Promise<number> };
}

const backends: { name: string; make(): Promise<Backend> }[] = [
  ...dialects.map((dialect) => ({
    name: `table (${dialect})`,
    async make(): Promise<Backend> {
      const t = await createTestApp(dialect);
      const db = t.database.db;
      return {
        name: `table (${dialect})`,
        windows: tableWindows(db),
        another: () => tableWindows(db),
        dispose: () => t.close(),
        table: {
          rows: async () =>
            Number((await sql<{ n: number }>`select count(*) as n from rate_windows`.execute(db)).rows[0]?.n),
          sweep: (now) => sweepWindows(db, now),
        },
      };
    },
  })),
  ...(REDIS_URL
    ? [
        {
          name: 'redis',
          async make(): Promise<Backend> {
            const prefix = `${runPrefix}unit:${randomBytes(3).toString('hex')}:`;
            return {
              name: 'redis',
              windows: redisWindows(redis!, prefix),
              another: () => redisWindows(redis!, prefix),
              dispose: async () => {},
            };
          },
        },
      ]
    : []),
];

describe.each(dialects)('rate_windows counted in batches (%s)', (dialect) => {
  it('two stores on one database (two processes): 80 concurrent hits are 1..80 once, other keys apart', async () => {
    const t = await createTestApp(dialect);
    try {
      const a = tableWindows(t.database.db);
      const b = tableWindows(t.database.db);
      const shared = Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).hit('batch shared', 60_000));
      const apart = Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).hit(`batch apart ${i}`, 60_000));
      const counts = (await Promise.all(shared)).map((c) => c.current).sort((x, y) => x - y);
      expect(counts).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
      expect((await Promise.all(apart)).map((c) => c.current)).toEqual(Array(12).fill(1));
      // A window that has ended starts over, within a batch too.
      const short = await Promise.all([a.hit('batch short', 100), a.hit('batch short', 100)]);
      expect(short.map((c) => c.current).sort()).toEqual([1, 2]);
      await sleep(150);
      const again = await Promise.all([
        a.hit('batch short', 100),
        a.hit('batch short', 100),
        a.hit('batch short', 100),
      ]);
      expect(again.map((c) => c.current).sort()).toEqual([1, 2, 3]);
    } finally {
      await t.close();
    }
  });
});

describe.each(backends)('rate limit backend: $name', ({ make }) => {
  let b: Backend;
  let counter: RateCounter;
  beforeAll(async () => {
    b = await make();
    counter = routeAddressCounter(b.windows, (err) => {
      throw err;
    });
  });
  afterAll(async () => b?.dispose());

  it('counts a window, and starts a new one after it ends', async () => {
    // A 1 s window: a store's round trip slowed by a pausing machine still lands inside it.
    expect((await incr(counter, '10.0.0.1', 1_000)).current).toBe(1);
    const second = await incr(counter, '10.0.0.1', 1_000);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(1_000);
    await sleep(1_050);
    const fresh = await incr(counter, '10.0.0.1', 1_000);
    expect(fresh.current).toBe(1);
    expect(fresh.ttl).toBeGreaterThan(500);
  });

  it("a route's own counters are its address's (the hook asks for HEAD and GET alike); routes and clients count apart", async () => {
    const get = counter.forRoute('/api/x');
    const head = counter.forRoute('/api/x');
    expect((await incr(get, '10.0.0.2')).current).toBe(1);
    expect((await incr(head, '10.0.0.2')).current).toBe(2);
    expect((await incr(get, '10.0.0.2')).current).toBe(3);
    expect((await incr(counter.forRoute('/api/y'), '10.0.0.2')).current).toBe(1);
    expect((await incr(get, '10.0.0.3')).current).toBe(1);
    expect((await incr(counter, '10.0.0.2')).current).toBe(1); // the global limit: its own counter
  });

  it('counts 50 concurrent requests exactly: 1..50, each once', async () => {
    const store = counter.forRoute('/api/concurrent');
    const counts = await Promise.all(Array.from({ length: 50 }, () => incr(store, '10.0.0.4')));
    expect(counts.map((c) => c.current).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });

  it('a limit of 100 or more reserves places in the store: the next requests are counted at once, another process counts after them', async () => {
    const first = await counter.hit('10.0.0.7', 60_000, 1000);
    expect(first.current).toBe(1);
    // floor((500 - 1) / 8) = 62 places reserved beyond it, answered without the store.
    for (let place = 2; place <= 63; place++) {
      const count = counter.hit('10.0.0.7', 60_000, 1000);
      expect(count).not.toBeInstanceOf(Promise);
      expect(count).toMatchObject({ current: place });
    }
    const other = routeAddressCounter(b.another(), (err) => {
      throw err;
    });
    expect(await other.hit('10.0.0.7', 60_000, 1000)).toMatchObject({ current: 64 });
    // The first process's lease used up: it asks again and counts after the other's.
    const next = await counter.hit('10.0.0.7', 60_000, 1000);
    expect(next.current).toBeGreaterThan(64);
    // A captcha's 30 a minute is counted in the store request by request.
    expect(await counter.hit('10.0.0.8', 60_000, 30)).toMatchObject({ current: 1 });
    expect(await other.hit('10.0.0.8', 60_000, 30)).toMatchObject({ current: 2 });
    expect(await counter.hit('10.0.0.8', 60_000, 30)).toMatchObject({ current: 3 });
  });

  it('the table sweep deletes expired windows only', async ({ skip }) => {
    if (!b.table) return skip('Redis keys expire by themselves');
    await incr(counter, '10.0.0.5', 60_000);
    await incr(counter, '10.0.0.6', 50);
    await sleep(80);
    const before = await b.table.rows();
    expect(await b.table.sweep()).toBeGreaterThanOrEqual(1);
    expect(await b.table.rows()).toBeLessThan(before);
    expect((await incr(counter, '10.0.0.5')).current).toBe(2); // the open window survived
    expect((await incr(counter, '10.0.0.6')).current).toBe(1);
    // Later, every window has ended: all go.
    const left = await b.table.rows();
    expect(await b.table.sweep(Date.now() + 120_000)).toBe(left);
    expect(await b.table.rows()).toBe(0);
  });
});

// ---- two app instances, one budget ------------------------------------------------------------------

const LIMIT = 5;
const sharedCases: { name: string; dialect: Dialect; env: Record<string, string>; kind: string }[] = [
  ...(dialects.includes('postgres')
    ? [{ name: 'PostgreSQL (rate_windows)', dialect: 'postgres' as Dialect, env: {}, kind: 'table' }]
    : []),
  ...(REDIS_URL
    ? [
        {
          name: 'Redis',
          dialect: dialects.at(-1) as Dialect,
          env: { REDIS_URL },
          kind: 'redis',
        },
      ]
    : []),
];

let ipSeq = 0;
const nextIp = () => {
  ipSeq += 1;
  return `10.77.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
};

describe.each(sharedCases)('per-IP limits across two instances: $name', ({ dialect, env, kind }) => {
  let a: TestApp;
  let b: TestApp;
  let dispose: () => Promise<void>;
  const prefix = `${runPrefix}apps:`;

  beforeAll(async () => {
    const shared = await sharedDatabase(dialect);
    dispose = shared.dispose;
    const options = { ...shared.options, sensitiveRateLimit: LIMIT, app: { rateLimitKeyPrefix: prefix } };
    a = await createTestApp(dialect, env, options);
    b = await createTestApp(dialect, env, options);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dispose?.();
  });

  it(`uses the ${kind} store`, () => {
    expect(a.app.services.rateLimits.kind).toBe(kind);
    expect(b.app.services.rateLimits.kind).toBe(kind);
  });

  it('answers exactly `limit` captcha requests alternating between the instances, then 429 on both', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await (i % 2 === 0 ? a : b).call(authCalls.getVerifyCode, {}, { ip });
      statuses.push(res.status);
      expect(res.code).toBe('200');
    }
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    for (const t of [a, b]) {
      const over = await t.call(authCalls.getVerifyCode, {}, { ip });
      expect(over).toMatchObject({ status: 429, code: '429', data: null });
      const retryAfter = Number(over.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // HEAD of the same address spends the same budget, on either instance.
    const head = await b.app.inject({ method: 'HEAD', url: authCalls.getVerifyCode.path, remoteAddress: ip });
    expect(head.statusCode).toBe(429);
    // Another client, and another call from this one, are not affected.
    expect((await b.call(authCalls.getVerifyCode, {}, { ip: nextIp() })).code).toBe('200');
    expect((await a.call(authCalls.isAutoRegiste, {}, { ip })).code).toBe('200');
  });

  it('counts concurrent requests on both instances exactly: `limit` answered, the rest 429', async () => {
    const ip = nextIp();
    const results = await Promise.all(
      Array.from({ length: 4 * LIMIT }, (_, i) => (i % 2 ? a : b).call(authCalls.getVerifyCode, {}, { ip })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3 * LIMIT);
  });

  it('login and SMS calls share their budgets across the instances too', async () => {
    const ip = nextIp();
    const login = { companyAccount: 'nobody', password: 'x', captchaId: 'x', captchaCode: 'pass' };
    for (let i = 0; i < LIMIT; i++) {
      expect((await (i % 2 ? a : b).call(authCalls.login, login, { ip })).status).not.toBe(429);
    }
    expect((await a.call(authCalls.login, login, { ip })).status).toBe(429);
    expect((await b.call(authCalls.login, login, { ip })).status).toBe(429);

    const sms = () => ({ phone: uniquePhone(), captchaId: 'x', captchaCode: 'pass' });
    for (let i = 0; i < LIMIT; i++) {
      expect((await (i % 2 ? a : b).call(authCalls.sendRegisterSms, sms(), { ip })).code).toBe('200');
    }
    expect((await a.call(authCalls.sendRegisterSms, sms(), { ip })).status).toBe(429);
    expect((await b.call(authCalls.sendRegisterSms, sms(), { ip })).status).toBe(429);
  });
});

// ---- fail open --------------------------------------------------------------------------------------

function capturingLogger() {
  const lines: string[] = [];
  return {
    lines,
    logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
  };
}

describe('a shared store that does not answer fails open, with a warning', () => {
  it('Redis unreachable: requests past the limit are served, one warning is logged', async () => {
    const { lines, logger } = capturingLogger();
    // Nothing listens on port 1 of the loopback.
    const t = await createTestApp(
      dialects[0]!,
      { REDIS_URL: 'redis://127.0.0.1:1' },
      { sensitiveRateLimit: 2, logger },
    );
    try {
      expect(t.app.services.rateLimits.kind).toBe('redis');
      const ip = nextIp();
      for (let i = 0; i < 4; i++) {
        expect((await t.call(authCalls.getVerifyCode, {}, { ip })).code).toBe('200');
      }
      const warnings = lines.filter((l) => l.includes('fail open'));
      expect(warnings.length).toBe(1);
    } finally {
      await t.close();
    }
  });

  it.runIf(dialects.includes('postgres'))(
    'PostgreSQL without the table: requests are served, a warning is logged',
    async () => {
      const { lines, logger } = capturingLogger();
      const t = await createTestApp('postgres', {}, { sensitiveRateLimit: 2, logger });
      try {
        expect(t.app.services.rateLimits.kind).toBe('table');
        await withSchemaChangeLock(() => sql`drop table rate_windows`.execute(t.database.db));
        const ip = nextIp();
        for (let i = 0; i < 4; i++) {
          expect((await t.call(authCalls.getVerifyCode, {}, { ip })).code).toBe('200');
        }
        expect(lines.some((l) => l.includes('fail open'))).toBe(true);
      } finally {
        await t.close();
      }
    },
  );
});

describe.each(dialects.filter((d) => d === 'sqlite'))('embedded SQLite (%s)', (dialect) => {
  it('counts in this process (one process only); the limit holds', async () => {
    const t = await createTestApp(dialect, {}, { sensitiveRateLimit: 2 });
    try {
      expect(t.app.services.rateLimits.kind).toBe('memory');
      const ip = nextIp();
      expect((await t.call(authCalls.getVerifyCode, {}, { ip })).status).toBe(200);
      expect((await t.call(authCalls.getVerifyCode, {}, { ip })).status).toBe(200);
      expect((await t.call(authCalls.getVerifyCode, {}, { ip })).status).toBe(429);
    } finally {
      await t.close();
    }
  });
});
