import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Address6 } from 'ip-address';
import { withRouteHook } from '../../lib/http.js';
import type { RateCount, RateCounter } from './store.js';

/** A route's own limit (`config.rateLimit`): counters of its own, shared by its methods. */
export interface RouteRateLimit {
  /** Requests per window and client. */
  max: number;
  /** The window in ms (default: the global limit's). */
  timeWindow?: number;
  /** Requests let through uncounted (default: the global limit's rule). */
  exempt?: (req: FastifyRequest) => boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RouteRateLimit;
  }
}

export interface RateLimitOptions {
  /** The counters (service.ts: this process's, PostgreSQL's table or Redis). */
  counter: RateCounter;
  /** The global limit: requests per window and client, on every route without its own. */
  max: number;
  timeWindow: number;
  /** Requests the global limit lets through uncounted. */
  exempt: (req: FastifyRequest) => boolean;
}

/** IPv6 clients are counted by their /64 (one host usually holds a whole one), the rest by address. */
const IPV6_CLIENT_PREFIX = 64;

/**
 * Who a request is counted as: its address, an IPv6 address by its /64 and an IPv4 address mapped
 * into IPv6 as the IPv4 address (what `@fastify/rate-limit`, which this replaces, counted).
 */
export function clientOf(ip: string): string {
  if (!ip.includes(':')) return ip;
  try {
    const address = new Address6(ip);
    if (address.isMapped4()) return address.to4().correctForm();
    return new Address6(`${address.correctForm()}/${IPV6_CLIENT_PREFIX}`).startAddress().correctForm();
  } catch {
    return ip; // not an address (a test's remoteAddress): counted as given
  }
}

/**
 * Per-client rate limits: every route gets an onRequest hook counting its requests, against its
 * own limit (`config.rateLimit`) or the global one. Over the limit the request is answered 429
 * (the error handler's envelope) with `retry-after` and the `x-ratelimit-*` headers; under it, no
 * header at all (three fewer on every answer). A counter that fails lets the request through: the
 * shared stores fail open (service.ts), and the rules that matter most (login lockout, the SMS
 * limits) are database rules anyway.
 *
 * Written here rather than with `@fastify/rate-limit` (used before; the counters were already ours):
 * its hook awaits the key, the allow list and the store on every request even when each answers at
 * once. This one is synchronous with the in-process counters: 4.6 % fewer main-thread instructions
 * an authenticated read (bench/README.md, session 33). Installed before any route (it hooks routes
 * as they are added).
 */
export function installRateLimits(app: FastifyInstance, opts: RateLimitOptions): void {
  app.addHook('onRoute', (route) => {
    const own = route.config?.rateLimit;
    const hook = limitHook(
      own ? opts.counter.forRoute(route.url) : opts.counter,
      own?.max ?? opts.max,
      own?.timeWindow ?? opts.timeWindow,
      own?.exempt ?? opts.exempt,
    );
    route.onRequest = withRouteHook(route.onRequest, hook, 'last');
  });
}

function limitHook(
  counter: RateCounter,
  max: number,
  windowMs: number,
  exempt: (req: FastifyRequest) => boolean,
): onRequestHookHandler {
  const settle = (count: RateCount, reply: FastifyReply, done: (err?: Error) => void) => {
    if (count.current <= max) return done();
    const seconds = String(Math.max(1, Math.ceil(count.ttl / 1000)));
    reply.headers({
      'x-ratelimit-limit': String(max),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': seconds,
      'retry-after': seconds,
    });
    done(Object.assign(new Error(`rate limit exceeded, retry in ${seconds} s`), { statusCode: 429 }));
  };
  return function rateLimit(req, reply, done) {
    if (exempt(req)) return done();
    let result: RateCount | Promise<RateCount>;
    try {
      result = counter.hit(clientOf(req.ip), windowMs, max);
    } catch {
      return done(); // fail open (the counter has warned)
    }
    if (result instanceof Promise) {
      result.then(
        (count) => settle(count, reply, done),
        () => done(),
      );
    } else {
      settle(result, reply, done);
    }
  };
}
