import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '../../db/index.js';
import {
  memoryWindows,
  type RateCounter,
  type RateWindows,
  REDIS_KEY_PREFIX,
  redisWindows,
  routeAddressCounter,
  sweepWindows,
  tableWindows,
} from './store.js';

/** How often expired windows are deleted from `rate_windows` (each lasts a minute). */
export const RATE_WINDOW_SWEEP_MS = 5 * 60_000;
/** At most one warning per this long while the shared store fails (requests keep being served). */
const WARN_EVERY_MS = 60_000;

export interface RateLimitOptions {
  database: Pick<Database, 'db' | 'dialect'>;
  /** redis://… : counters in Redis, whatever the database. */
  redisUrl: string | undefined;
  log: FastifyBaseLogger;
  /** Prefix of the Redis keys (default `wxc:rl:`); tests give each run its own. */
  redisKeyPrefix?: string | undefined;
}

export interface RateLimits {
  /** Which store keeps the counters: Redis, the rate_windows table (PostgreSQL) or this process. */
  readonly kind: RateWindows['kind'];
  /** The counters the limits' hook (hook.ts) counts requests with. */
  readonly counter: RateCounter;
  /** Connects to Redis (a failure is a warning: requests are served, unlimited, until it answers). */
  start(): Promise<void>;
  /** Deletes expired windows of the table store now and every `everyMs`; returns the stop. */
  startSweeping(everyMs?: number): () => void;
  /** Stops the sweep and closes the Redis connection. */
  close(): Promise<void>;
}

/**
 * The per-IP rate limits' store, chosen once at start: Redis when REDIS_URL is set, else the
 * `rate_windows` table on PostgreSQL (several processes share it), else counters in this process
 * (the embedded SQLite default runs one process). Shared stores fail open: when Redis or PostgreSQL
 * does not answer, the request is served and a warning logged (at most once a minute); the rules
 * that matter most (login lockout, the SMS per-number and daily limits) live in the database anyway.
 */
export function createRateLimits(opts: RateLimitOptions): RateLimits {
  const { database, log } = opts;
  const kind: RateWindows['kind'] = opts.redisUrl
    ? 'redis'
    : database.dialect === 'postgres'
      ? 'table'
      : 'memory';

  let lastWarning = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  const warn = (err: Error) => {
    const now = Date.now();
    if (now - lastWarning < WARN_EVERY_MS) {
      suppressed += 1;
      return;
    }
    log.warn(
      { err, store: kind, suppressed },
      'rate limit store unavailable: requests are served without per-IP limits (fail open) until it answers',
    );
    lastWarning = now;
    suppressed = 0;
  };

  let client: Redis | undefined;
  // Counters go to Redis once connected (start); until then, and whenever it is unreachable, a hit
  // fails at once (no queue, no waiting) and the request is let through.
  let windows: RateWindows =
    kind === 'memory'
      ? memoryWindows()
      : kind === 'table'
        ? tableWindows(database.db)
        : {
            kind: 'redis',
            hit: () => Promise.reject(new Error('Redis not connected yet')),
          };
  const counter = routeAddressCounter(
    { kind, hit: (key, windowMs, max) => windows.hit(key, windowMs, max) },
    warn,
  );
  const timers = new Set<NodeJS.Timeout>();

  return {
    kind,
    counter,
    async start() {
      if (kind !== 'redis' || client || !opts.redisUrl) return;
      // Loaded only when used: most installations never need it.
      const { Redis } = await import('ioredis');
      client = new Redis(opts.redisUrl, {
        lazyConnect: true,
        // A request never waits for Redis: offline, the hit fails at once and the request is served.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1_000,
        connectTimeout: 2_000,
      });
      client.on('error', warn); // it reconnects by itself (ioredis' retry strategy)
      windows = redisWindows(client, opts.redisKeyPrefix ?? REDIS_KEY_PREFIX);
      await client.connect().catch(warn);
    },
    startSweeping(everyMs = RATE_WINDOW_SWEEP_MS) {
      if (kind !== 'table') return () => {};
      const run = () =>
        sweepWindows(database.db).catch((err) => log.error({ err }, 'rate window sweep failed'));
      const timer = setInterval(run, everyMs);
      timer.unref();
      timers.add(timer);
      void run();
      return () => {
        clearInterval(timer);
        timers.delete(timer);
      };
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      const c = client;
      client = undefined;
      if (c) await c.quit().catch(() => c.disconnect());
    },
  };
}
