import Fastify, { type FastifyRequest, type FastifySchema } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bodyDigest, bodyDigestOf, installBodyDigest } from './body-digest.js';

/** A route as createRouter declares one that takes API credentials (its OpenAPI security). */
const security: Record<string, string[]>[] = [{ appKey: [], appSecret: [] }, { session: [] }];
const withCredentials: { schema: FastifySchema } = { schema: { security } };
const signed = { 'x-app-key': 'key', 'content-type': 'application/json' };

async function appWithRoutes() {
  const prechecked: string[] = [];
  const app = Fastify();
  installBodyDigest(app, async (req: FastifyRequest) => {
    prechecked.push(req.url);
  });
  const answer = async (req: FastifyRequest) => ({ digest: bodyDigestOf(req) ?? null, body: req.body });
  app.post('/api/program', withCredentials, answer);
  app.post('/api/console', { schema: { security: [{ session: [] }] } }, answer);
  app.post(
    '/api/own-hook',
    { ...withCredentials, preParsing: async (_req, _reply, payload) => payload },
    answer,
  );
  await app.ready();
  return { app, prechecked };
}

describe('the signed-body digest', () => {
  it('reads and hashes a signed request to a route that takes credentials, before its parser', async () => {
    const { app, prechecked } = await appWithRoutes();
    const payload = '{"wxid":"wxid_1","content":"你好"}';
    for (const url of ['/api/program', '/api/own-hook']) {
      const res = await app.inject({ method: 'POST', url, headers: signed, payload });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ digest: bodyDigest(payload), body: JSON.parse(payload) });
    }
    expect(prechecked).toEqual(['/api/program', '/api/own-hook']);
    await app.close();
  });

  it('leaves every other request alone: routes without credentials have no hook at all', async () => {
    const { app, prechecked } = await appWithRoutes();
    const payload = '{"a":1}';
    // Signed headers on a console route: not this hook's business (admission refuses it later).
    const consoleRes = await app.inject({ method: 'POST', url: '/api/console', headers: signed, payload });
    expect(consoleRes.json()).toEqual({ digest: null, body: { a: 1 } });
    // An unsigned request to a credentials route passes straight through.
    const plain = await app.inject({
      method: 'POST',
      url: '/api/program',
      headers: { 'content-type': 'application/json', 'x-app-key': 'key', 'x-app-secret': 'secret' },
      payload,
    });
    expect(plain.json()).toEqual({ digest: null, body: { a: 1 } });
    expect(prechecked).toEqual([]);
    // The hook sits on the credential routes only.
    const routes = app.printRoutes({ includeHooks: true, commonPrefix: false });
    // Each route's line, then its hooks' lines (until the next route's "── ").
    const lines = routes.split('\n');
    const hooksOf = (url: string) => {
      const at = lines.findIndex((l) => l.includes(`── ${url} `));
      const next = lines.findIndex((l, i) => i > at && l.includes('── '));
      return lines.slice(at + 1, next === -1 ? undefined : next).join('\n');
    };
    expect(hooksOf('/api/program')).toContain('preParsing');
    expect(hooksOf('/api/console')).not.toContain('preParsing');
    await app.close();
  });
});
