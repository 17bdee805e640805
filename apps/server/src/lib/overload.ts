import { ErrorCatalogue } from '@wxc/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NO_STORE } from './http.js';

/** What a shed request is told: try again after this many seconds. */
export const RETRY_AFTER_SECONDS = 5;

/** The 503 envelope a shed request gets. */
const BUSY = (() => {
  const { code, message } = ErrorCatalogue.SERVICE_BUSY;
  return { code, message, data: null };
})();

/** Sets the status and headers of a "服务繁忙" answer and returns its body. */
export function busy(reply: FastifyReply) {
  reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', NO_STORE);
  return BUSY;
}

/** Shedding is logged once per this long, not per request: a log line per shed request is more load. */
const LOG_EVERY_MS = 10_000;

/** Route config of what is answered even while the service sheds load (see `registerLoadShedding`). */
export const ANSWERED_UNDER_LOAD = { answeredUnderLoad: true };

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether new requests are being shed now (lib/overload.ts). */
    overloaded(): boolean;
  }
  interface FastifyContextConfig {
    /** Answered even while the service sheds load (liveness). */
    answeredUnderLoad?: boolean;
  }
}

/**
 * Load shedding: while the event loop lags more than `maxLagMs` (`behindMs`: the loop's lag, or how
 * long the first request in line for a slice has waited, lib/request-slices.ts), every new request
 * is answered `503 服务繁忙` with Retry-After at once, before any work is done for it, so the turns get short
 * again, connections keep being accepted and what was admitted finishes; `/healthz` is still
 * answered (a busy process is not a dead one), `/readyz` is not (a load balancer sends new work
 * elsewhere). The other overload signal, no free database connection, is the error handler's.
 *
 * The lag is how late a 50 ms timer fires, smoothed (lib/loop-lag.ts): one long turn does not
 * shed, a loop that stays behind does. Measured this way rather than with
 * @fastify/under-pressure, whose event-loop-delay reading shed two requests in three in a
 * 1,000-connection soak that the service answered in full (p99 480 ms) with shedding off.
 */
export function registerLoadShedding(app: FastifyInstance, maxLagMs: number, behindMs: () => number) {
  const overloaded = () => maxLagMs > 0 && behindMs() > maxLagMs;
  app.decorate('overloaded', overloaded);
  if (maxLagMs <= 0) return;

  let loggedAt = 0;
  app.addHook('onRequest', (req, reply, done) => {
    if (!overloaded() || req.routeOptions.config.answeredUnderLoad) return done();
    const now = Date.now();
    if (now - loggedAt >= LOG_EVERY_MS) {
      loggedAt = now;
      req.log.warn({ lagMs: Math.round(behindMs()) }, 'overloaded: shedding requests with 503');
    }
    // Answered here: no later hook and no handler runs for it (Fastify checks reply.sent).
    reply.send(busy(reply));
  });
}
