import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import type { AuthContext } from '../auth/sessions.js';
import type { EventBus } from './bus.js';

const HEARTBEAT_MS = 25_000;

/**
 * GET /api/events: Server-Sent Events of the caller's company (QR states, accounts going on and
 * off line, messages in and out, callback deliveries, real-name status). Authorised like every
 * console call, by the `Authorization` header (the console reads the stream with fetch, so the
 * token never appears in a URL or a log). Each heartbeat re-checks the session, so a logout or an
 * expiry ends the stream.
 */
export function registerEventRoutes(
  app: FastifyInstance,
  bus: EventBus,
  authenticate: (req: FastifyRequest) => Promise<AuthContext | null>,
  heartbeatMs = HEARTBEAT_MS,
) {
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of open) end();
  });

  app.get('/api/events', { schema: { hide: true } }, async (req, reply) => {
    const auth = await authenticate(req);
    if (!auth) throw new AppError('UNAUTHENTICATED');
    if (auth.user.role !== 'customer') throw new AppError('FORBIDDEN', '运营账号没有实时事件');
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    const unsubscribe = bus.subscribe(auth.user.id, (event) => {
      const { companyId: _company, ...data } = event;
      res.write(`event: ${event.kind}\ndata: ${JSON.stringify(data)}\n\n`);
    });
    const heartbeat = setInterval(() => {
      authenticate(req).then(
        (still) => (still ? res.write(': ping\n\n') : end()),
        () => end(),
      );
    }, heartbeatMs);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      if (!res.writableEnded) res.end();
    };
    open.add(end);
    req.raw.on('close', end);
  });
}
