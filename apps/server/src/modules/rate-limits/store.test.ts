import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createRateLimits } from './service.js';
import {
  memoryWindows,
  type RateCount,
  type RateCounter,
  type RateWindows,
  routeAddressCounter,
} from './store.js';

// The store with the in-memory backend, and failing backends. Every backend (the table on SQLite and
// PostgreSQL, Redis) passes the same checks in apps/server/test/rate-limits.test.ts.

const incr = async (counter: RateCounter, key: string, windowMs = 60_000): Promise<RateCount> =>
  counter.hit(key, windowMs);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rate limit store (in memory)', () => {
  it('counts a window, and starts a new one after it ends', async () => {
    const store = routeAddressCounter(memoryWindows(), () => {});
    expect(await incr(store, '10.0.0.1', 80)).toMatchObject({ current: 1 });
    const second = await incr(store, '10.0.0.1', 80);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(80);
    await sleep(120);
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
