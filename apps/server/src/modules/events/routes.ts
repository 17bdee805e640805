import type { OutgoingHttpHeaders } from 'node:http';
import { LIVE_EVENTS_PATH, liveEventSchema } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { type SessionService, tokenFromHeader } from '../auth/sessions.js';
import type { BusEvent, EventBus } from './bus.js';

const HEARTBEAT_MS = 25_000;
/** setTimeout's longest delay; the heartbeat re-arms the expiry timer long before it matters. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * GET /api/events: Server-Sent Events of the caller's company (QR states, accounts going on and
 * off line, messages in and out, callback deliveries, real-name status). Authorised like every
 * console call, by the `Authorization` header (the console reads the stream with fetch, so the
 * token never appears in a URL or a log).
 *
 * A stream lives exactly as long as its session:
 * - revoked (logout, password reset, phone change): the session service announces the ended
 *   sessions on the bus, which reaches every process, and their streams stop writing and close at
 *   once;
 * - expired (absolute or idle): a timer per stream fires at the session's deadline and re-reads it
 *   (another request may have moved the idle deadline), closing the stream when it is over;
 * - the heartbeat re-checks too, as a fallback for a missed announcement.
 * None of these re-checks counts as a use of the session: an open stream alone never keeps it alive.
 */
export function registerEventRoutes(
  app: FastifyInstance,
  bus: EventBus,
  sessions: SessionService,
  heartbeatMs = HEARTBEAT_MS,
) {
  // Revocations reach the streams through the bus, in this process and the others.
  sessions.onEnded((ended) => bus.endSessions(ended));

  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of open) end();
  });

  app.get(LIVE_EVENTS_PATH, { schema: { hide: true } }, async (req, reply) => {
    const auth = await sessions.authenticate(tokenFromHeader(req.headers.authorization));
    if (!auth) throw new AppError('UNAUTHENTICATED');
    if (auth.user.role !== 'customer') throw new AppError('FORBIDDEN', '运营账号没有实时事件');
    const { sessionId } = auth;
    const companyId = auth.user.id;

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders), // the security headers of every answer
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');

    /** False once the session ended or the client left: nothing is written after that. */
    let live = true;
    /** Events wait until the session has been re-read after subscribing (a revocation in between). */
    let verified = false;
    const held: BusEvent[] = [];
    let expiry: NodeJS.Timeout | undefined;

    // Written through the contract's schema, like every answer: what the stream says is what the
    // console can validate, and nothing else (the company id) leaves.
    const send = (event: BusEvent) => {
      const data = liveEventSchema.safeParse(event);
      if (!data.success) {
        req.log.error({ kind: event.kind, issues: data.error.issues }, 'live event not in the contract');
        return;
      }
      res.write(`event: ${data.data.kind}\ndata: ${JSON.stringify(data.data)}\n\n`);
    };
    const unsubscribe = bus.subscribe(companyId, (event) => {
      if (!live) return;
      if (verified) send(event);
      else held.push(event);
    });
    const unsubscribeEnded = bus.onSessionsEnded(companyId, (ids) => {
      if (ids.includes(sessionId)) end();
    });
    const heartbeat = setInterval(() => {
      if (!live) return;
      res.write(': ping\n\n');
      void check();
    }, heartbeatMs);
    heartbeat.unref();

    function end() {
      if (!live) return;
      live = false;
      held.length = 0;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      unsubscribe();
      unsubscribeEnded();
      open.delete(end);
      if (!res.writableEnded) res.end();
    }

    /** Re-reads the session: ends the stream when it is over, else arms the timer for its deadline. */
    async function check() {
      let endsAt: number | null;
      try {
        endsAt = await sessions.endsAt(sessionId);
      } catch (err) {
        req.log.warn({ err }, 'live stream: session check failed; closing the stream');
        endsAt = null;
      }
      if (!live) return;
      if (endsAt === null) return end();
      if (!verified) {
        verified = true;
        for (const event of held.splice(0)) send(event);
      }
      clearTimeout(expiry);
      expiry = setTimeout(() => void check(), Math.min(Math.max(endsAt - Date.now(), 0) + 1, MAX_TIMER_MS));
      expiry.unref();
    }

    open.add(end);
    req.raw.on('close', end);
    await check();
  });
}
