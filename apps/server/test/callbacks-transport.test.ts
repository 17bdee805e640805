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
});
