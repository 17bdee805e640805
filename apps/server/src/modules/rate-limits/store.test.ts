import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.js';
import { createRateLimits } from './service.js';
import {
  leasedWindows,
  memoryWindows,
  type RateCount,
  type RateCounter,
  type RateWindows,
  routeAddressCounter,
  type WindowTotals,
} from './store.js';

// The store with the in-memory backend, and failing backends. Every backend (the table on SQLite and
// PostgreSQL, Redis) passes the same checks in apps/server/test/rate-limits.test.ts.

const incr = async (counter: RateCounter, key: string, windowMs = 60_000): Promise<RateCount> =>
  counter.hit(key, windowMs);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * The windows' clock (Date.now) under the test's hand, from now on: windows end when the test moves
 * it, never because a loaded machine paused between two hits. Timers still run on real time.
 */
function handClock() {
  let now = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  return {
    advance: (ms: number) => {
      now += ms;
    },
  };
}
afterEach(() => {
  vi.restoreAllMocks();
});

describe('rate limit store (in memory)', () => {
  it('counts a window, and starts a new one after it ends', async () => {
    const clock = handClock();
    const store = routeAddressCounter(memoryWindows(), () => {});
    expect(await incr(store, '10.0.0.1', 80)).toMatchObject({ current: 1 });
    clock.advance(30);
    const second = await incr(store, '10.0.0.1', 80);
    expect(second.current).toBe(2);
    expect(second.ttl).toBe(50);
    clock.advance(50);
    expect(await incr(store, '10.0.0.1', 80)).toMatchObject({ current: 1 });
  });

  it("a route's own counters are its address's (the hook asks for HEAD and GET alike); routes and clients count apart", async () => {
    const root = routeAddressCounter(memoryWindows(), () => {});
    const get = root.forRoute('/api/x');
    const head = root.forRoute('/api/x');
    const other = root.forRoute('/api/y');
    expect((await incr(get, 'ip')).current).toBe(1);
    expect((await incr(head, 'ip')).current).toBe(2);
    expect((await incr(get, 'ip')).current).toBe(3);
    expect((await incr(other, 'ip')).current).toBe(1);
    expect((await incr(get, 'ip2')).current).toBe(1);
    expect((await incr(root, 'ip')).current).toBe(1); // the global limit: its own counter
  });

  it('counts 50 requests at once exactly', async () => {
    const store = routeAddressCounter(memoryWindows(), () => {});
    const counts = await Promise.all(Array.from({ length: 50 }, () => incr(store, 'ip')));
    expect(counts.map((c) => c.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });

  it('keeps at most its bound of windows, dropping expired and then the oldest', async () => {
    const store = routeAddressCounter(memoryWindows(3), () => {});
    for (const ip of ['a', 'b', 'c', 'd']) await incr(store, ip);
    expect((await incr(store, 'a')).current).toBe(1); // the oldest went first
    expect((await incr(store, 'd')).current).toBe(2);
  });
});

/** A shared store's totals in memory, as several processes see them, with its calls recorded. */
function sharedTotals() {
  const windows = new Map<string, { total: number; resetAt: number }>();
  const calls: number[] = [];
  let failing = false;
  const totals: WindowTotals = {
    async add(key, windowMs, n) {
      await sleep(1); // a round trip
      if (failing) throw new Error('store down');
      calls.push(n);
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { total: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.total += n;
      return { ...w };
    },
  };
  return {
    totals,
    calls,
    total: (key: string) => windows.get(key)?.total ?? 0,
    fail: (on: boolean) => {
      failing = on;
    },
  };
}

/** Counts one request of `key` against `max`, as the hook does: admitted when its place is within it. */
async function admitted(windows: RateWindows, key: string, max: number, windowMs = 60_000) {
  return (await windows.hit(key, windowMs, max)).current <= max;
}

describe('a shared store counted with leases', () => {
  it('a limit of 100 or more: one store call reserves places, the next requests are counted here at once', async () => {
    const shared = sharedTotals();
    const windows = leasedWindows('table', shared.totals);
    const first = await windows.hit('ip', 60_000, 1000);
    // An eighth of the first half still free: floor((500 - 1) / 8) = 62 places beyond this request.
    expect(first.current).toBe(1);
    expect(shared.calls).toEqual([63]);
    for (let place = 2; place <= 63; place++) {
      const count = windows.hit('ip', 60_000, 1000);
      expect(count).not.toBeInstanceOf(Promise); // no round trip
      expect(count).toMatchObject({ current: place });
    }
    // The lease used up: the store again, a smaller share of what is left of the first half.
    expect(await windows.hit('ip', 60_000, 1000)).toMatchObject({ current: 64 });
    expect(shared.calls).toEqual([63, 1 + Math.floor((500 - 63 - 1) / 8)]);
  });

  it('smaller limits, and the second half of any window, are counted request by request', async () => {
    const shared = sharedTotals();
    const windows = leasedWindows('table', shared.totals);
    for (let i = 1; i <= 31; i++) expect((await windows.hit('login', 60_000, 30)).current).toBe(i);
    expect(shared.calls).toEqual(Array(31).fill(1));
    // 100: leases while the first half has room (places 1..50), then one by one.
    const big = sharedTotals();
    const w100 = leasedWindows('table', big.totals);
    for (let i = 1; i <= 100; i++) expect((await w100.hit('ip', 60_000, 100)).current).toBe(i);
    expect(big.calls.slice(-50)).toEqual(Array(50).fill(1));
    expect(big.calls.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('concurrent requests of one key wait for one store call and share its lease; each gets one place', async () => {
    const shared = sharedTotals();
    const windows = leasedWindows('table', shared.totals);
    const counts = await Promise.all(Array.from({ length: 50 }, () => windows.hit('ip', 60_000, 10_000)));
    expect(counts.map((c) => c.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    // The first asks (with at most 500 places beyond it); the 49 that came meanwhile take places
    // of its lease.
    expect(shared.calls).toEqual([1 + 500]);
    // Without a limit (a caller that does not say), every request is counted exactly, still batched.
    const exact = sharedTotals();
    const plain = leasedWindows('table', exact.totals);
    await Promise.all(Array.from({ length: 20 }, () => plain.hit('ip', 60_000)));
    expect(exact.calls).toEqual([1, 19]);
  });

  it('two processes never let a client past its limit; alternating, it gets exactly its limit', async () => {
    const shared = sharedTotals();
    const a = leasedWindows('table', shared.totals);
    const b = leasedWindows('table', shared.totals);
    const answers: boolean[] = [];
    for (let i = 0; i < 600; i++) answers.push(await admitted(i % 2 ? a : b, 'ip', 400));
    expect(answers.filter(Boolean)).toHaveLength(400);
    expect(answers.slice(400)).toEqual(Array(200).fill(false));
    // Concurrently, both at once: never more than the limit.
    const c = leasedWindows('table', shared.totals);
    const d = leasedWindows('table', shared.totals);
    const burst = await Promise.all(
      Array.from({ length: 900 }, (_, i) => admitted(i % 3 ? c : d, 'burst', 400)),
    );
    expect(burst.filter(Boolean).length).toBeLessThanOrEqual(400);
    expect(burst.filter(Boolean).length).toBeGreaterThanOrEqual(400 - 400 / 16);
  });

  it('a process that stops seeing a client wastes at most a sixteenth of the limit', async () => {
    const shared = sharedTotals();
    const quiet = leasedWindows('table', shared.totals);
    const busy = leasedWindows('table', shared.totals);
    expect(await admitted(quiet, 'ip', 1600)).toBe(true); // reserves its places, then sees no more
    let served = 1;
    for (let i = 0; i < 1700; i++) if (await admitted(busy, 'ip', 1600)) served += 1;
    expect(served).toBeLessThanOrEqual(1600);
    expect(served).toBeGreaterThanOrEqual(1600 - 1600 / 16);
  });

  it('a lease ends with its window; a failing store rejects the waiting requests and is asked again later', async () => {
    const clock = handClock();
    const shared = sharedTotals();
    const windows = leasedWindows('redis', shared.totals);
    expect((await windows.hit('ip', 60, 10_000)).current).toBe(1);
    clock.advance(59);
    expect(windows.hit('ip', 60, 10_000)).toMatchObject({ current: 2 }); // the lease, at once
    clock.advance(1);
    expect(await windows.hit('ip', 60, 10_000)).toMatchObject({ current: 1 }); // a new window
    expect(shared.calls).toHaveLength(2);

    const other = sharedTotals();
    const failing = leasedWindows('redis', other.totals);
    other.fail(true);
    const hits = [failing.hit('x', 60_000, 10_000), failing.hit('x', 60_000, 10_000)];
    await expect(hits[0]).rejects.toThrow(/store down/);
    await expect(hits[1]).rejects.toThrow(/store down/);
    other.fail(false);
    expect(await failing.hit('x', 60_000, 10_000)).toMatchObject({ current: 1 });
  });

  it('keeps at most its bound of keys, dropping ended windows, then the oldest', async () => {
    const shared = sharedTotals();
    const windows = leasedWindows('table', shared.totals, 3);
    for (const ip of ['a', 'b', 'c', 'd']) await windows.hit(ip, 60_000, 1000);
    // 'a' was dropped with its lease: the store again, and its places go on from the lease's end.
    const calls = shared.calls.length;
    const reserved = shared.total('a');
    expect(await windows.hit('a', 60_000, 1000)).toMatchObject({ current: reserved + 1 });
    expect(shared.calls.length).toBe(calls + 1);
    expect(windows.hit('d', 60_000, 1000)).toMatchObject({ current: 2 });
  });
});

describe('a failing shared store', () => {
  it('hands the error to the hook (which lets the request through) and tells onError', async () => {
    const errors: Error[] = [];
    const failing = (sync: boolean): RateWindows => ({
      kind: 'redis',
      hit: () => {
        if (sync) throw new Error('down (sync)');
        return Promise.reject(new Error('down'));
      },
    });
    for (const sync of [false, true]) {
      const counter = routeAddressCounter(failing(sync), (err) => errors.push(err));
      await expect(incr(counter.forRoute('/api/x'), 'ip')).rejects.toThrow(/down/);
    }
    expect(errors.map((e) => e.message)).toEqual(['down', 'down (sync)']);
  });

  it('warns at most once a minute, then says how many failures it did not log', async () => {
    const warnings: unknown[] = [];
    const log = { warn: (obj: unknown) => warnings.push(obj) } as unknown as FastifyBaseLogger;
    // REDIS_URL set but never connected (start() not called): every hit fails at once.
    const limits = createRateLimits({
      database: { db: undefined as never, dialect: 'sqlite' },
      redisUrl: 'redis://127.0.0.1:1',
      log,
    });
    expect(limits.kind).toBe('redis');
    for (let i = 0; i < 5; i++) await expect(incr(limits.counter, 'ip')).rejects.toThrow(/not connected/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ store: 'redis', suppressed: 0 });
    await limits.close();
  });
});

describe('store choice and REDIS_URL', () => {
  it('memory on SQLite, the table on PostgreSQL, Redis whenever REDIS_URL is set', () => {
    const log = { warn() {} } as unknown as FastifyBaseLogger;
    const db = undefined as never;
    const kind = (dialect: 'sqlite' | 'postgres', redisUrl?: string) =>
      createRateLimits({ database: { db, dialect }, redisUrl, log }).kind;
    expect(kind('sqlite')).toBe('memory');
    expect(kind('postgres')).toBe('table');
    expect(kind('postgres', 'redis://cache:6379')).toBe('redis');
    expect(kind('sqlite', 'redis://cache:6379')).toBe('redis');
  });

  it('REDIS_URL must be a redis:// URL', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@cache:6380' }).redisUrl).toBe(
      'rediss://user:pw@cache:6380',
    );
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(() => loadConfig({ REDIS_URL: 'http://cache:6379' })).toThrow(/REDIS_URL/);
  });
});
