// The HTTP half of a delivery (modules/callbacks/transport.ts) against a real receiver on loopback:
// what a receiver sees of many deliveries at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInlineTransport,
  POST_CEILING_TIMEOUTS,
  RECEIVER_CONNECTIONS,
} from '../src/modules/callbacks/transport.js';
import { waitFor } from './callback-helpers.js';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('callback transport', () => {
  it(`opens at most ${RECEIVER_CONNECTIONS} connections to one receiver; the other posts wait in line`, async () => {
    const held: http.ServerResponse[] = [];
    let holding = true;
    let open = 0;
    let mostOpen = 0;
    const sockets = new Set<unknown>();
    const server = http.createServer((req, res) => {
      sockets.add(req.socket);
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      res.on('finish', () => {
        open -= 1;
      });
      req.resume();
      req.on('end', () => (holding ? held.push(res) : res.end('ok')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const transport = createInlineTransport({ allowPrivate: true, timeoutMs: 10_000 });
    close = async () => {
      for (const res of held.splice(0)) res.end('ok');
      await transport.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    };

    const posts = Array.from({ length: RECEIVER_CONNECTIONS * 2 }, (_, i) =>
      transport.post({ url, eventId: `e${i}`, payload: '{}', secretHash: 'k' }),
    );
    await waitFor('the receiver to hold its connections', () => held.length === RECEIVER_CONNECTIONS);
    await new Promise((r) => setTimeout(r, 200));
    expect(held).toHaveLength(RECEIVER_CONNECTIONS); // the rest wait for a connection

    holding = false;
    for (const res of held.splice(0)) res.end('ok');
    const outcomes = await Promise.all(posts);
    expect(outcomes.every((o) => o.statusCode === 200 && o.error === null)).toBe(true);
    expect(mostOpen).toBe(RECEIVER_CONNECTIONS);
    expect(sockets.size).toBe(RECEIVER_CONNECTIONS); // kept alive and used again
  });

  it("counts an attempt's timeout from its sending: posts that wait in line longer still arrive", async () => {
    let open = 0;
    let mostOpen = 0;
    // Each answer takes 300 ms: five waves of RECEIVER_CONNECTIONS posts take ~1.5 s, the last wave
    // waiting ~1.2 s in line, longer than the attempts' 1 s timeout. (An answer's 300 ms leave 700 ms
    // to its timeout: a machine that pauses does not turn it into one.)
    const server = http.createServer((req, res) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          open -= 1;
          res.end('ok');
        }, 300),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const timeoutMs = 1_000;
    expect(timeoutMs * POST_CEILING_TIMEOUTS).toBeGreaterThan(3_000); // the line fits under the ceiling
    const transport = createInlineTransport({ allowPrivate: true, timeoutMs });
    close = async () => {
      await transport.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    };

    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: RECEIVER_CONNECTIONS * 5 }, (_, i) =>
        transport.post({ url, eventId: `e${i}`, payload: '{}', secretHash: 'k' }),
      ),
    );
    expect(performance.now() - started).toBeGreaterThan(1_200);
    expect(outcomes.filter((o) => o.error !== null).map((o) => o.error)).toEqual([]);
    expect(mostOpen).toBeLessThanOrEqual(RECEIVER_CONNECTIONS);
  });

  /** A receiver on loopback answering with `answer`; closed after the test. */
  async function receiver(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(String(req.headers['x-wx-event']));
      req.resume();
      req.on('end', () => answer(req, res));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?a=1`;
    return { server, url, seen };
  }

  it('tells a post by its status while its body keeps coming; the line ends at its ceiling', async () => {
    const timeoutMs = 200;
    const trickles: NodeJS.Timeout[] = [];
    // Headers at once, then a byte every 50 ms: no attempt timeout ever fires (each piece of the
    // body comes within it), only the post's ceiling. A post that reaches the receiver as the
    // ceiling frees connections gets no answer: the line's outcome cannot race its ceiling.
    let answering = RECEIVER_CONNECTIONS;
    const { server, url, seen } = await receiver((_req, res) => {
      if (answering-- <= 0) return;
      res.writeHead(200);
      trickles.push(setInterval(() => res.write('.'), 50));
    });
    const transport = createInlineTransport({ allowPrivate: true, timeoutMs });
    close = async () => {
      for (const t of trickles) clearInterval(t);
      await transport.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    };
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: RECEIVER_CONNECTIONS + 3 }, (_, i) =>
        transport.post({ url, eventId: `e${i}`, payload: '{}', secretHash: 'k' }),
      ),
    );
    const ceiling = `超时：${(timeoutMs * POST_CEILING_TIMEOUTS) / 1000} 秒内未完成（含等待空闲连接）`;
    // Those on a connection were answered 200: delivered, whatever their body does after.
    const answered = outcomes.slice(0, RECEIVER_CONNECTIONS);
    expect(answered.every((o) => o.statusCode === 200 && o.error === null)).toBe(true);
    expect(Math.max(...answered.map((o) => o.durationMs))).toBeLessThan(timeoutMs * POST_CEILING_TIMEOUTS);
    // Those in line got no connection before their ceiling (the bodies held them all).
    expect(outcomes.slice(RECEIVER_CONNECTIONS)).toMatchObject(
      [0, 1, 2].map(() => ({ statusCode: null, error: ceiling })),
    );
    for (const o of outcomes.slice(RECEIVER_CONNECTIONS))
      expect(o.durationMs).toBeGreaterThanOrEqual(timeoutMs * POST_CEILING_TIMEOUTS - 10);
    expect(performance.now() - started).toBeLessThan(timeoutMs * POST_CEILING_TIMEOUTS + 2_000);
    expect(seen.length).toBeGreaterThanOrEqual(RECEIVER_CONNECTIONS);
  });

  it('reads an answer up to its limit: a larger one is cut off with its status; redirects are not followed; 1xx is not the answer', async () => {
    const { server, url } = await receiver((req, res) => {
      if (req.url?.startsWith('/big')) res.end('x'.repeat(1024 * 1024));
      else if (req.url?.startsWith('/moved')) res.writeHead(302, { location: '/elsewhere' }).end();
      else if (req.url?.startsWith('/hints')) {
        res.writeEarlyHints({ link: '</x.css>; rel=preload; as=style' });
        res.end('ok');
      } else res.writeHead(503).end('busy');
    });
    const transport = createInlineTransport({ allowPrivate: true, timeoutMs: 5_000 });
    close = async () => {
      await transport.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    };
    const at = (path: string) => url.replace('/hook?a=1', path);
    const post = (u: string) => transport.post({ url: u, eventId: 'e', payload: '{}', secretHash: 'k' });
    expect(await post(at('/big'))).toMatchObject({ statusCode: 200, error: null });
    expect(await post(at('/moved'))).toMatchObject({
      statusCode: 302,
      error: 'HTTP 302 重定向：回调不跟随重定向，请直接填写最终地址',
    });
    expect(await post(at('/busy'))).toMatchObject({ statusCode: 503, error: 'HTTP 503' });
    // An informational answer first (103 Early Hints): the outcome is the final answer's.
    expect(await post(at('/hints'))).toMatchObject({ statusCode: 200, error: null });
    // After a cut-off answer (its connection given up) the next post goes out on a new one.
    expect(await post(at('/big'))).toMatchObject({ statusCode: 200, error: null });
  });

  it('a receiver that is not listening is an outcome, not a rejection', async () => {
    const { server, url } = await receiver((_req, res) => res.end('ok'));
    await new Promise((r) => server.close(r));
    const transport = createInlineTransport({ allowPrivate: true, timeoutMs: 5_000 });
    close = () => transport.close();
    const outcome = await transport.post({ url, eventId: 'e', payload: '{}', secretHash: 'k' });
    expect(outcome).toMatchObject({
      statusCode: null,
      error: '连接被拒绝（ECONNREFUSED），对方服务未启动或端口未开放',
    });
  });
});
