import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOf, installRateLimits } from './hook.js';
import { memoryWindows, type RateCount, type RateWindows, routeAddressCounter } from './store.js';

// The hook on a bare Fastify app (the product's answers and every backend: test/rate-limits.test.ts).

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function appWith(windows: RateWindows = memoryWindows(), max = 3) {
  app = Fastify();
  installRateLimits(app, {
    counter: routeAddressCounter(windows, () => {}),
    max,
    timeWindow: 60_000,
    exempt: (req) => !req.url.startsWith('/api/'),
  });
  app.get('/api/a', async () => ({ ok: 'a' }));
  app.get('/api/b', async () => ({ ok: 'b' }));
  app.get('/api/captcha', { config: { rateLimit: { max: 2 } } }, async () => ({ ok: 'captcha' }));
  app.get('/page', async () => 'page');
  app.get('/showcase/x', { config: { rateLimit: { max: 1, exempt: () => false } } }, async () => 'x');
  await app.ready();
  return app;
}

const get = (a: FastifyInstance, url: string, ip = '10.0.0.1', method: 'GET' | 'HEAD' = 'GET') =>
  a.inject({ method, url, remoteAddress: ip });

describe('rate limit hook', () => {
  it('answers up to the global limit per client and route-less budget, then 429 with retry-after', async () => {
    const a = await appWith();
    for (const url of ['/api/a', '/api/b', '/api/a']) {
      const ok = await get(a, url);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBeUndefined(); // nothing told under the limit
    }
    const over = await get(a, '/api/b');
    expect(over.statusCode).toBe(429);
    expect(over.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.headers['x-ratelimit-reset']).toBe(over.headers['retry-after']);
    // Another client has its own budget.
    expect((await get(a, '/api/a', '10.0.0.2')).statusCode).toBe(200);
  });

  it("a route's own limit counts apart from the global one, and its HEAD spends its GET's budget", async () => {
    const a = await appWith();
    expect((await get(a, '/api/captcha')).statusCode).toBe(200);
    expect((await get(a, '/api/captcha', '10.0.0.1', 'HEAD')).statusCode).toBe(200);
    expect((await get(a, '/api/captcha')).statusCode).toBe(429);
    expect((await get(a, '/api/captcha', '10.0.0.1', 'HEAD')).statusCode).toBe(429);
    expect((await get(a, '/api/a')).statusCode).toBe(200); // the global budget is untouched
  });

  it('exempt requests are never counted, unless the route says otherwise', async () => {
    const a = await appWith(memoryWindows(), 1);
    for (let i = 0; i < 5; i++) expect((await get(a, '/page')).statusCode).toBe(200);
    expect((await get(a, '/showcase/x')).statusCode).toBe(200);
    expect((await get(a, '/showcase/x')).statusCode).toBe(429);
  });

  it('holds with a counter that answers later (a shared store)', async () => {
    const memory = memoryWindows();
    const later: RateWindows = {
      kind: 'table',
      hit: (key, windowMs) =>
        new Promise<RateCount>((resolve) =>
          setTimeout(() => resolve(memory.hit(key, windowMs) as RateCount), 2),
        ),
    };
    const a = await appWith(later, 2);
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () => get(a, '/api/a').then((r) => r.statusCode)),
    );
    expect(statuses.sort()).toEqual([200, 200, 429, 429, 429]);
  });

  it('lets requests through when the counter fails, at once or later (fail open)', async () => {
    for (const failing of [
      () => {
        throw new Error('down (sync)');
      },
      () => Promise.reject(new Error('down')),
    ]) {
      const a = await appWith({ kind: 'redis', hit: failing }, 1);
      for (let i = 0; i < 3; i++) expect((await get(a, '/api/a')).statusCode).toBe(200);
      await a.close();
      app = undefined;
    }
  });
});

describe('clientOf', () => {
  it('counts IPv4 by address, IPv4 mapped into IPv6 as IPv4, IPv6 by its /64', () => {
    expect(clientOf('10.1.2.3')).toBe('10.1.2.3');
    expect(clientOf('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientOf('2001:db8::1')).toBe(clientOf('2001:db8:0:0:ffff::2'));
    expect(clientOf('2001:db8::1')).toBe('2001:db8::');
    expect(clientOf('2001:db8:0:1::1')).not.toBe(clientOf('2001:db8::1'));
    expect(clientOf('not-an-address:x')).toBe('not-an-address:x');
  });
});
