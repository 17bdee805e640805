import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import * as repo from './repo.js';

/** What a window says after counting a request: its count so far and the ms until it ends. */
export interface RateCount {
  current: number;
  ttl: number;
}

/**
 * Where the counters live: one window per key, counted atomically. `memory` for the embedded
 * single process, `table` (rate_windows) for processes sharing PostgreSQL, `redis` with REDIS_URL.
 */
export interface RateWindows {
  readonly kind: 'memory' | 'table' | 'redis';
  /** Counts one request under `key`; a new or expired window starts over and lasts `windowMs`. */
  hit(key: string, windowMs: number): RateCount | Promise<RateCount>;
}

/**
 * Counts a client's requests against one limit: the global limit's counters, or (`forRoute`) a
 * route's own. A backend that fails (Redis or PostgreSQL unreachable) throws or rejects, after
 * `onError` is told so it can warn; the limit's hook then lets the request through (fail open).
 */
export interface RateCounter {
  /** Counts one request of `client`; a synchronous backend answers at once (no promise). */
  hit(client: string, windowMs: number): RateCount | Promise<RateCount>;
  /**
   * A route's own limit: counters scoped by the route's *address*, not its method, so the HEAD that
   * Fastify answers with a GET route's handler (issuing a captcha, say) spends the GET's budget
   * instead of getting a second one.
   */
  forRoute(url: string): RateCounter;
}

/** The limits' counters over one backend: per client, and per route address for a route's own limit. */
export function routeAddressCounter(windows: RateWindows, onError: (err: Error) => void): RateCounter {
  const told = (err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    onError(error);
    return error;
  };
  const scoped = (scope: string): RateCounter => ({
    hit(client, windowMs) {
      let result: RateCount | Promise<RateCount>;
      try {
        result = windows.hit(scope + client, windowMs);
      } catch (err) {
        throw told(err);
      }
      // The in-memory backend answers at once: no promise on the path of every request.
      if (!(result instanceof Promise)) return result;
      return result.catch((err: unknown) => {
        throw told(err);
      });
    },
    forRoute: (url) => scoped(`${url} `),
  });
  return scoped('');
}

/** Counters kept at most in memory (client and route pairs); expired ones go first, then the oldest. */
const MAX_RATE_WINDOWS = 50_000;

/** In-process counters: the embedded single-process default (SQLite). */
export function memoryWindows(maxWindows = MAX_RATE_WINDOWS): RateWindows {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const evict = (now: number) => {
    for (const [id, window] of windows) {
      if (window.resetAt <= now) windows.delete(id);
    }
    for (const id of windows.keys()) {
      if (windows.size <= maxWindows) break;
      windows.delete(id);
    }
  };
  return {
    kind: 'memory',
    hit(key, windowMs) {
      const now = Date.now();
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + windowMs };
        windows.delete(key); // re-inserted: the map stays in order of window start
        windows.set(key, window);
        if (windows.size > maxWindows) evict(now);
      }
      window.count += 1;
      return { current: window.count, ttl: window.resetAt - now };
    },
  };
}

/** Keys counted in one statement at most (a batch over this waits for the next). */
const TABLE_BATCH_KEYS = 500;

/**
 * Counters in the `rate_windows` table, shared by every process on one PostgreSQL. Requests are
 * counted in batches, one statement each (repo.hitMany): the first request goes at once, and those
 * that arrive while a statement is on its way go together in the next, per key with their number.
 * Still exact: the statement returns each window's total after the batch, and the batch's requests
 * of a key take the last places of it in arrival order. (One upsert per request cost the
 * authenticated read more than half its time on PostgreSQL: bench/README.md.) Expired rows are
 * deleted by `sweepWindows` on a timer (service.ts).
 */
export function tableWindows(db: Kysely<DB>): RateWindows {
  type Waiter = { resolve: (count: RateCount) => void; reject: (err: unknown) => void };
  let pending = new Map<string, { windowMs: number; waiters: Waiter[] }>();
  let flushing = false;

  async function flush() {
    flushing = true;
    while (pending.size > 0) {
      let batch = pending;
      pending = new Map();
      if (batch.size > TABLE_BATCH_KEYS) {
        const keys = [...batch.keys()];
        for (const key of keys.slice(TABLE_BATCH_KEYS)) pending.set(key, batch.get(key)!);
        batch = new Map(keys.slice(0, TABLE_BATCH_KEYS).map((key) => [key, batch.get(key)!]));
      }
      const now = Date.now();
      try {
        const rows = await repo.hitMany(
          db,
          [...batch].map(([key, b]) => ({ key, n: b.waiters.length, windowMs: b.windowMs })),
          now,
        );
        for (const row of rows) {
          const { waiters } = batch.get(row.key)!;
          const count = Number(row.count);
          const ttl = Math.max(0, Number(row.reset_at) - now);
          const first = count - waiters.length + 1;
          for (const [i, w] of waiters.entries()) w.resolve({ current: first + i, ttl });
          batch.delete(row.key);
        }
        const lost = new Error('rate window not returned');
        for (const b of batch.values()) for (const w of b.waiters) w.reject(lost);
      } catch (err) {
        for (const b of batch.values()) for (const w of b.waiters) w.reject(err);
      }
    }
    flushing = false;
  }

  return {
    kind: 'table',
    hit(key, windowMs) {
      return new Promise<RateCount>((resolve, reject) => {
        let entry = pending.get(key);
        if (!entry) {
          entry = { windowMs, waiters: [] };
          pending.set(key, entry);
        }
        entry.waiters.push({ resolve, reject });
        if (!flushing) void flush();
      });
    },
  };
}

/** Deletes the table's expired windows; returns how many. */
export function sweepWindows(db: Kysely<DB>, now = Date.now()): Promise<number> {
  return repo.deleteExpired(db, now);
}

/**
 * INCR, and PEXPIRE when the window opens, in one script (one round trip, atomic): the count and
 * the ms left. A key left without an expiry (never by this script) is given one.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type WithHit = Redis & { wxcRateHit(key: string, windowMs: number): Promise<[number, number]> };

/** Redis key prefix of the counters (`wxc:rl:<route address> <client>`, or `wxc:rl:<client>`). */
export const REDIS_KEY_PREFIX = 'wxc:rl:';

/** Counters in Redis (REDIS_URL): keys expire by themselves with their window. */
export function redisWindows(client: Redis, prefix = REDIS_KEY_PREFIX): RateWindows {
  client.defineCommand('wxcRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const hitter = client as WithHit;
  return {
    kind: 'redis',
    async hit(key, windowMs) {
      const [current, ttl] = await hitter.wxcRateHit(prefix + key, windowMs);
      return { current: Number(current), ttl: Number(ttl) };
    },
  };
}
