import underPressure from '@fastify/under-pressure';
import { ErrorCatalogue } from '@wxc/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NO_STORE } from './error-handler.js';

/** What a shed request is told: try again after this many seconds. */
export const RETRY_AFTER_SECONDS = 5;

/** How often the event loop's delay is sampled (its mean over this window is compared). */
const SAMPLE_MS = 500;

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

/**
 * Route config of what is answered even while the service sheds load (liveness: the process is
 * there; a supervisor must not restart a process for being busy).
 */
export const ANSWERED_UNDER_LOAD = { pressureHandler: () => undefined };

/**
 * Load shedding (@fastify/under-pressure): while the event loop's mean delay over the last
 * half-second is above `maxEventLoopDelayMs`, every new request is answered 503 at once, costing
 * almost nothing, so the turns stay short, connections keep being accepted, and what is already
 * admitted finishes. Readiness (/readyz) says "overloaded" meanwhile so a load balancer sends new
 * work elsewhere. The other overload signal, no free database connection, is the error handler's.
 */
export async function registerLoadShedding(app: FastifyInstance, maxEventLoopDelayMs: number) {
  if (maxEventLoopDelayMs <= 0) {
    app.decorate('isUnderPressure', () => false);
    return;
  }
  let loggedAt = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    sampleInterval: SAMPLE_MS,
    // Once it has answered, no later hook and no handler runs for the request (Fastify checks).
    pressureHandler: (req, reply, type, value) => {
      const now = Date.now();
      if (now - loggedAt >= LOG_EVERY_MS) {
        loggedAt = now;
        req.log.warn({ type, value }, 'overloaded: shedding requests with 503');
      }
      reply.send(busy(reply));
    },
  });
}
