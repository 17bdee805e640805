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
  /**
   * Counts one request under `key`; a new or expired window starts over and lasts `windowMs`.
   * `max`, the limit it is counted against, lets a shared store reserve places (leasedWindows).
   */
  hit(key: string, windowMs: number, max?: number): RateCount | Promise<RateCount>;
}

/**
 * Counts a client's requests against one limit: the global limit's counters, or (`forRoute`) a
 * route's own. A backend that fails (Redis or PostgreSQL unreachable) throws or rejects, after
 * `onError` is told so it can warn; the limit's hook then lets the request through (fail open).
 */
export interface RateCounter {
  /** Counts one request of `client` against `max`; a synchronous answer comes without a promise. */
  hit(client: string, windowMs: number, max?: number): RateCount | Promise<RateCount>;
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
    hit(client, windowMs, max) {
      let result: RateCount | Promise<RateCount>;
      try {
        result = windows.hit(scope + client, windowMs, max);
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

/**
 * A shared store's one operation: adds `n` requests to the window of `key` (a new or expired window
 * starts over at `n` and lasts `windowMs`) and answers the window's total right after them and when
 * it ends (epoch ms). The requests added are the total's last `n` places.
 */
export interface WindowTotals {
  add(key: string, windowMs: number, n: number): Promise<{ total: number; resetAt: number }>;
}

/** Limits below this are counted one request at a time (the captcha, SMS and login calls' 30). */
const LEASE_MIN_MAX = 100;
/** Of the first half of a window still free, a process reserves at most this share at once… */
const LEASE_SHARE = 8;
/** …and at most this many places. */
const LEASE_MAX_PLACES = 500;

/**
 * A shared store's windows, counted with leases: a request that reaches the store for a limit of
 * at least LEASE_MIN_MAX also reserves places for this process's next requests of the same key, so
 * those are counted here at once with no round trip (counted one by one, the table's upserts were
 * 2.6 of a PostgreSQL login's 13.7 statements; bench/README.md, session 37). A lease is at most an
 * eighth of the window's first half still free (LEASE_SHARE, LEASE_MAX_PLACES) and ends with the
 * window; the second half is counted request by request, as every smaller limit is. So the
 * deployment never lets a client past its limit, and a client reaches it exactly when its requests
 * keep reaching every process that holds places; a process that stops seeing a client wastes what
 * it still holds (at most a sixteenth of the limit, until the window ends). Requests of one key that
 * arrive while its store call is on its way wait for it and take the lease's places, or go together
 * in the next.
 */
export function leasedWindows(
  kind: 'table' | 'redis',
  totals: WindowTotals,
  maxKeys = MAX_RATE_WINDOWS,
): RateWindows {
  type Waiter = { resolve: (count: RateCount) => void; reject: (err: unknown) => void };
  /** Per key: this process's places `next..last` of the window ending at `resetAt`, and who waits. */
  type Lease = {
    next: number;
    last: number;
    resetAt: number;
    windowMs: number;
    max: number | undefined;
    asking: boolean;
    waiters: Waiter[];
  };
  const leases = new Map<string, Lease>();

  /** Makes room for one more key: ended windows go first, then the oldest (none on its way). */
  const makeRoom = (now: number) => {
    for (const [key, lease] of leases) {
      if (!lease.asking && lease.resetAt <= now) leases.delete(key);
    }
    for (const [key, lease] of leases) {
      if (leases.size < maxKeys) break;
      if (!lease.asking) leases.delete(key);
    }
  };

  /** Places to reserve beyond the `n` requests counted now (0: counted one by one). */
  const extraPlaces = (lease: Lease, n: number, now: number): number => {
    if (lease.max === undefined || lease.max < LEASE_MIN_MAX) return 0;
    const known = lease.resetAt > now ? lease.last : 0;
    const free = Math.floor(lease.max / 2) - known - n;
    return Math.max(0, Math.min(LEASE_MAX_PLACES, Math.floor(free / LEASE_SHARE)));
  };

  function ask(key: string, lease: Lease) {
    const now = Date.now();
    const waiting = lease.waiters;
    lease.waiters = [];
    const n = waiting.length;
    const added = n + extraPlaces(lease, n, now);
    lease.asking = true;
    totals.add(key, lease.windowMs, added).then(
      ({ total, resetAt }) => {
        let place = total - added + 1;
        const ttl = Math.max(0, resetAt - Date.now());
        for (const w of waiting) w.resolve({ current: place++, ttl });
        lease.next = place;
        lease.last = total;
        lease.resetAt = resetAt;
        answered(key, lease);
      },
      (err: unknown) => {
        for (const w of waiting) w.reject(err);
        answered(key, lease);
      },
    );
  }

  /** After a store call: the requests that came meanwhile take the lease's places, or ask again. */
  function answered(key: string, lease: Lease) {
    lease.asking = false;
    const now = Date.now();
    while (lease.waiters.length > 0 && lease.next <= lease.last && lease.resetAt > now) {
      lease.waiters.shift()!.resolve({ current: lease.next++, ttl: lease.resetAt - now });
    }
    if (lease.waiters.length > 0) ask(key, lease);
  }

  return {
    kind,
    hit(key, windowMs, max) {
      const now = Date.now();
      let lease = leases.get(key);
      if (lease && !lease.asking && lease.next <= lease.last && lease.resetAt > now) {
        return { current: lease.next++, ttl: lease.resetAt - now };
      }
      if (!lease) {
        if (leases.size >= maxKeys) makeRoom(now);
        lease = { next: 1, last: 0, resetAt: 0, windowMs, max, asking: false, waiters: [] };
        leases.set(key, lease);
      }
      lease.windowMs = windowMs;
      lease.max = max;
      const waiting = lease;
      return new Promise<RateCount>((resolve, reject) => {
        waiting.waiters.push({ resolve, reject });
        if (!waiting.asking) ask(key, waiting);
      });
    },
  };
}

/** Keys counted in one statement at most (a batch over this waits for the next). */
const TABLE_BATCH_KEYS = 500;

/**
 * Totals in the `rate_windows` table, shared by every process on one PostgreSQL. Additions go in
 * batches, one statement each (repo.hitMany): the first at once, and those that arrive while a
 * statement is on its way together in the next, per key with their sum. Still exact: the statement
 * returns each window's total after the batch, and the batch's additions of a key take the last
 * places of it in arrival order. (One upsert per request cost the authenticated read more than half
 * its time on PostgreSQL: bench/README.md.) Expired rows are deleted by `sweepWindows` on a timer
 * (service.ts).
 */
export function tableTotals(db: Kysely<DB>): WindowTotals {
  type Adder = {
    n: number;
    resolve: (t: { total: number; resetAt: number }) => void;
    reject: (e: unknown) => void;
  };
  /** Per key: its window, the requests added in all, and who added them (in order). */
  let pending = new Map<string, { windowMs: number; n: number; adders: Adder[] }>();
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
          [...batch].map(([key, b]) => ({
            key,
            n: b.n,
            windowMs: b.windowMs,
          })),
          now,
        );
        for (const row of rows) {
          const { n, adders } = batch.get(row.key)!;
          const resetAt = Number(row.reset_at);
          let total = Number(row.count) - n;
          for (const a of adders) {
            total += a.n;
            a.resolve({ total, resetAt });
          }
          batch.delete(row.key);
        }
        const lost = new Error('rate window not returned');
        for (const b of batch.values()) for (const a of b.adders) a.reject(lost);
      } catch (err) {
        for (const b of batch.values()) for (const a of b.adders) a.reject(err);
      }
    }
    flushing = false;
  }

  return {
    add(key, windowMs, n) {
      return new Promise((resolve, reject) => {
        let entry = pending.get(key);
        if (!entry) {
          entry = { windowMs, n: 0, adders: [] };
          pending.set(key, entry);
        }
        entry.n += n;
        entry.adders.push({ n, resolve, reject });
        if (!flushing) void flush();
      });
    },
  };
}

/** Counters in the `rate_windows` table (PostgreSQL: every process's), with leases. */
export function tableWindows(db: Kysely<DB>): RateWindows {
  return leasedWindows('table', tableTotals(db));
}

/** Deletes the table's expired windows; returns how many. */
export function sweepWindows(db: Kysely<DB>, now = Date.now()): Promise<number> {
  return repo.deleteExpired(db, now);
}

/**
 * INCRBY, and PEXPIRE when the window opens, in one script (one round trip, atomic): the total and
 * the ms left. A key left without an expiry (never by this script) is given one.
 */
const ADD_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type WithAdd = Redis & {
  wxcRateAdd(key: string, windowMs: number, n: number): Promise<[number, number]>;
};

/** Redis key prefix of the counters (`wxc:rl:<route address> <client>`, or `wxc:rl:<client>`). */
export const REDIS_KEY_PREFIX = 'wxc:rl:';

/** Totals in Redis (REDIS_URL): keys expire by themselves with their window. */
export function redisTotals(client: Redis, prefix = REDIS_KEY_PREFIX): WindowTotals {
  client.defineCommand('wxcRateAdd', { numberOfKeys: 1, lua: ADD_SCRIPT });
  const adder = client as WithAdd;
  return {
    async add(key, windowMs, n) {
      const asked = Date.now();
      const [total, ttl] = await adder.wxcRateAdd(prefix + key, windowMs, n);
      // The ms left counted from before the call: a lease never outlives the window.
      return { total: Number(total), resetAt: asked + Number(ttl) };
    },
  };
}

/** Counters in Redis, with leases. */
export function redisWindows(client: Redis, prefix = REDIS_KEY_PREFIX): RateWindows {
  return leasedWindows('redis', redisTotals(client, prefix));
}
