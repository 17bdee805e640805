import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** Counters kept at most (client and route pairs); expired ones go first, then the oldest. */
const MAX_RATE_WINDOWS = 50_000;

/**
 * The rate limiter's in-process counters, one per client and route *address*. The plugin's own
 * store counts each route and method apart, so the HEAD that Fastify answers with a GET route's
 * handler (issuing a captcha, say) would get a second budget of its own; here they share one.
 */
export class RouteAddressStore implements FastifyRateLimitStore {
  constructor(
    _options?: unknown,
    private readonly windows = new Map<string, { count: number; resetAt: number }>(),
    private readonly scope = '',
  ) {}

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    const id = this.scope + key;
    let window = this.windows.get(id);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + timeWindow };
      this.windows.delete(id); // re-inserted: the map stays in order of window start
      this.windows.set(id, window);
      if (this.windows.size > MAX_RATE_WINDOWS) this.evict(now);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.resetAt - now });
  }

  /** A route's own limit: its counters, scoped by the route's address (not its method). */
  child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    // The plugin passes its merged limit options with the route under `routeInfo`.
    const url = (options as { routeInfo?: { url?: string } }).routeInfo?.url ?? '';
    return new RouteAddressStore(undefined, this.windows, `${url} `);
  }

  private evict(now: number): void {
    for (const [id, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(id);
    }
    for (const id of this.windows.keys()) {
      if (this.windows.size <= MAX_RATE_WINDOWS) break;
      this.windows.delete(id);
    }
  }
}
