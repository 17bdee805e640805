import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCatalogue, type ErrorName } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.js';
import type { Peer } from './repo.js';

/**
 * The wire between server processes running the wechaty provider: a call for a device whose puppet
 * runs in another process goes to that process's route server (one small HTTP server per process,
 * on WECHATY_ROUTE_HOST, a port of its own) as `POST /<method>` with the arguments as JSON, and its
 * answer comes back the same way. The route key, random per process and published with its address
 * in the database (wechaty_processes), is what a caller presents: only the service's own processes
 * know it. Domain errors (AppError) cross as their catalogue name and message, so the customer sees
 * the same answer whichever process took the request.
 */

/** A call's arguments; small (ids, a message), media travel as stored file references. */
const BODY_LIMIT = 1024 * 1024;

type Answer =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: ErrorName; message: string } | null };

export type RouteHandler = (method: string, args: unknown[]) => Promise<unknown>;

export interface RouteServer {
  /** `http://host:port`, for the other processes. */
  address: string;
  close(): Promise<void>;
}

function keyMatches(given: string | string[] | undefined, key: Buffer): boolean {
  if (typeof given !== 'string') return false;
  const b = Buffer.from(given);
  return b.length === key.length && timingSafeEqual(b, key);
}

export async function startRouteServer(o: {
  host: string;
  port: number;
  routeKey: string;
  log: FastifyBaseLogger;
  handle: RouteHandler;
}): Promise<RouteServer> {
  const key = Buffer.from(o.routeKey);
  const server = http.createServer((req, res) => {
    const reply = (status: number, answer: Answer) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    };
    if (req.method !== 'POST' || !keyMatches(req.headers['x-route-key'], key)) {
      res.writeHead(404).end();
      req.resume();
      return;
    }
    const method = (req.url ?? '').slice(1);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let args: unknown;
      try {
        args = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        reply(400, { ok: false, error: null });
        return;
      }
      if (!Array.isArray(args)) return reply(400, { ok: false, error: null });
      o.handle(method, args).then(
        (value) => reply(200, { ok: true, value: value ?? null }),
        (err: unknown) => {
          if (err instanceof AppError) {
            reply(200, { ok: false, error: { name: err.errorName, message: err.message } });
          } else {
            o.log.warn({ err, method }, 'wechaty: routed call failed');
            reply(200, { ok: false, error: null });
          }
        },
      );
    });
  });
  // Calls wait for a puppet's answers (a QR code: up to 30 s); nothing here is meant to be slow beyond that.
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // exclusive: with WORKERS=N each worker listens on a port of its own, not the cluster's shared one.
    server.listen({ host: o.host, port: o.port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    address: `http://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The process holding the device could not be reached (it is stopping, or died: its lease lapses soon). */
export class PeerUnreachable extends AppError {
  constructor(readonly reason: unknown) {
    super('SERVICE_BUSY', '消息通道正在切换服务进程，请稍后再试');
  }
}

/** Calls `method` on another process; its AppError is thrown here as it was there. */
export async function callPeer(
  peer: Peer,
  method: string,
  args: unknown[],
  timeoutMs: number,
): Promise<unknown> {
  let answer: Answer;
  try {
    const res = await fetch(`${peer.address}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-route-key': peer.routeKey },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`route server answered ${res.status}`);
    answer = (await res.json()) as Answer;
  } catch (err) {
    throw new PeerUnreachable(err);
  }
  if (answer.ok) return answer.value;
  if (answer.error && Object.hasOwn(ErrorCatalogue, answer.error.name))
    throw new AppError(answer.error.name, answer.error.message);
  throw new AppError('SERVICE_BUSY', '消息通道暂时不可用，请稍后再试');
}
