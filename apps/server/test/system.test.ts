import { Writable } from 'node:stream';
import { allCalls, authCalls, PRODUCT_TITLE_DEFAULT, systemCalls } from '@wxc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  FIXED_CAPTCHA,
  type TestApp,
  tableCounts,
  uniquePhone,
  withSchemaChangeLock,
} from './helpers.js';

/**
 * Breaks an app's database. On PostgreSQL under the schema change lock: another file's migrator
 * lists every schema's tables, and failed with "relation … settings does not exist" meanwhile.
 */
const dropSettings = (t: TestApp) => {
  const drop = () => t.database.db.schema.dropTable('settings').execute();
  return t.database.dialect === 'postgres' ? withSchemaChangeLock(drop) : drop();
};

describe.each(dialects)('system (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('/healthz answers; /readyz checks the database and names it', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: dialect });
  });

  it('siteInfo gives the product title and serverFlag', async () => {
    const res = await t.call(systemCalls.siteInfo, {});
    expect(res).toMatchObject({ status: 200, code: '200' });
    expect(res.data).toMatchObject({ productTitle: PRODUCT_TITLE_DEFAULT, serverFlag: 'test' });
  });

  it('an unknown /api address, or a known one with the wrong method, is a 404 envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/no/such/call?x=1', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: '404', message: '接口不存在：POST /api/no/such/call', data: null });
    const get = await t.app.inject({ method: 'GET', url: authCalls.login.path });
    expect(get.statusCode).toBe(404);
    expect(get.json()).toMatchObject({ code: '404', data: null });
    expect(get.headers['x-request-id']).toBeTruthy();
  });

  it('invalid JSON, a wrong content type and an empty JSON body are 400 envelopes, writing nothing', async () => {
    const before = await tableCounts(t.database);
    const invalid = await t.app.inject({
      method: 'POST',
      url: authCalls.login.path,
      headers: { 'content-type': 'application/json' },
      payload: '{"companyAccount": "13900000000", ',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ code: '400', message: '请求体格式错误', data: null });

    const text = await t.app.inject({
      method: 'POST',
      url: authCalls.login.path,
      headers: { 'content-type': 'text/plain' },
      payload: 'companyAccount=13900000000',
    });
    // Fastify reads text/plain as a string: the body then is not the object the call wants.
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: '400', data: null });

    const form = await t.app.inject({
      method: 'POST',
      url: authCalls.login.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'companyAccount=13900000000',
    });
    expect(form.statusCode).toBe(400);
    expect(form.json()).toEqual({ code: '400', message: '不支持的请求内容类型', data: null });

    const empty = await t.app.inject({
      method: 'POST',
      url: authCalls.login.path,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('400');
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('a body over 1 MB is a 413 envelope', async () => {
    const before = await tableCounts(t.database);
    const res = await t.app.inject({
      method: 'POST',
      url: authCalls.login.path,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ companyAccount: 'x'.repeat(1024 * 1024 + 10), password: 'x' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: '400', message: '请求内容过大', data: null });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('sets security headers and a request id on every answer', async () => {
    for (const [res, api] of [
      [await t.app.inject({ method: 'POST', url: authCalls.isAutoRegiste.path }), true],
      [await t.app.inject({ method: 'POST', url: '/api/nothing' }), true],
      [await t.app.inject({ method: 'GET', url: '/healthz' }), false],
    ] as const) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      if (api) {
        // Data, never a page: nothing may load from it.
        expect(csp).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(res.headers['x-frame-options']).toBe('DENY');
      } else {
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self'");
        expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      }
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // Plain http (as inject sends): no HSTS; the https cases are in http-edge.test.ts.
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    const b = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    // A client cannot choose its own request id.
    const chosen = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'mine' },
    });
    expect(chosen.headers['x-request-id']).not.toBe('mine');
  });

  it('is same-origin only by default: no CORS headers for another origin', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: authCalls.login.path,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const post = await t.app.inject({
      method: 'POST',
      url: authCalls.isAutoRegiste.path,
      headers: { origin: 'https://evil.example' },
    });
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('CORS_ORIGINS lets the listed origins in, and only those', async () => {
    const cors = await createTestApp(dialect, { CORS_ORIGINS: 'https://partner.example' });
    try {
      const ok = await cors.app.inject({
        method: 'POST',
        url: authCalls.isAutoRegiste.path,
        headers: { origin: 'https://partner.example' },
      });
      expect(ok.headers['access-control-allow-origin']).toBe('https://partner.example');
      const other = await cors.app.inject({
        method: 'POST',
        url: authCalls.isAutoRegiste.path,
        headers: { origin: 'https://evil.example' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await cors.close();
    }
  });

  it('publishes the OpenAPI document with every contract call and its operationId', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toContain(PRODUCT_TITLE_DEFAULT);
    expect(allCalls.length).toBeGreaterThan(10);
    for (const call of allCalls) {
      const op = doc.paths?.[call.path]?.[call.method.toLowerCase()];
      expect(op, `${call.method} ${call.path}`).toBeDefined();
      expect(op.operationId).toBe(call.id);
      expect(op.summary).toBe(call.summary);
      if (call.audience === 'public') expect(op.security).toBeUndefined();
      else if (call.audience === 'customerOrApi')
        expect(op.security).toEqual([{ appKey: [], appSecret: [] }, { session: [] }]);
      else expect(op.security).toEqual([{ session: [] }]);
    }
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
      (p) => Object.values(p).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    // The register request schema is described, with the readMsg rule.
    const register = doc.paths[authCalls.register.path].post;
    const schema = register.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(
      expect.arrayContaining(['companyName', 'companyAccount', 'password', 'checkPassword', 'verifyCode']),
    );
    // Health probes stay out of the customer reference.
    expect(doc.paths['/healthz']).toBeUndefined();
  });

  it('serves the readable API reference page at /docs', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/docs' });
    if (res.statusCode >= 300 && res.statusCode < 400) {
      res = await t.app.inject({
        method: 'GET',
        url: new URL(String(res.headers.location), 'http://x/').pathname,
      });
    }
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    // The console's page policy, not the plugin's: over plain http nothing is sent to https (a LAN
    // name has none), and the inline styles the page sets are allowed.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    const script = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(script.statusCode).toBe(200);
    expect(String(script.headers['content-security-policy'] ?? '')).not.toContain(
      'upgrade-insecure-requests',
    );
  });

  it('a GET outside /api without a built console says so', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/user-info' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('npm run build');
  });

  it('an unexpected error is a "500" with the request id and no internals', async () => {
    const broken = await createTestApp(dialect);
    try {
      await dropSettings(broken);
      const res = await broken.app.inject({ method: 'POST', url: authCalls.isAutoRegiste.path });
      expect(res.statusCode).toBe(500);
      const body = res.json();
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body).toEqual({
        code: '500',
        message: `服务器开小差了，请稍后再试（请求编号 ${id}）`,
        data: null,
      });
      expect(res.body).not.toMatch(/settings|select|sqlite|relation|stack|Error|\bat /i);

      // With the database gone, /readyz says so and the API still answers with envelopes.
      await sql`select 1`.execute(broken.database.db);
      await broken.database.close();
      const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: dialect });
      const login = await broken.call(authCalls.login, {
        companyAccount: uniquePhone(),
        password: 'whatever1',
        captchaId: 'x',
        captchaCode: 'wrong',
      });
      expect(login.status).toBe(500);
      expect(login.code).toBe('500');
      expect(login.message).toContain(String(login.headers['x-request-id']));
      expect((await broken.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await broken.close().catch(() => undefined);
    }
  });

  it('logs the unexpected error with the request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logged = await createTestApp(dialect, {}, { logger: { level: 'error', stream } });
    try {
      await dropSettings(logged);
      const res = await logged.app.inject({ method: 'POST', url: authCalls.isAutoRegiste.path });
      expect(res.statusCode).toBe(500);
      const entry = lines.find((l) => l.msg === 'unhandled error');
      expect(entry).toBeDefined();
      expect(entry!.reqId).toBe(res.headers['x-request-id']);
      expect(JSON.stringify(entry!.err)).toMatch(/settings/);
    } finally {
      await logged.close();
    }
  });

  it('the dev outbox writes the code to the log as a [dev-sms] line, never to the answer', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dev = await createTestApp(
      dialect,
      {},
      { logger: { level: 'warn', stream }, configuredSmsProvider: true },
    );
    try {
      const phone = uniquePhone();
      const res = await dev.call(authCalls.sendRegisterSms, {
        phone,
        captchaId: 'x',
        captchaCode: FIXED_CAPTCHA,
      });
      expect(res.code).toBe('200');
      const line = lines.map((l) => JSON.parse(l).msg as string).find((m) => m.startsWith('[dev-sms]'));
      expect(line).toMatch(new RegExp(`^\\[dev-sms\\] to=${phone} scene=register code=\\d{6}$`));
      const code = line!.split('code=')[1]!;
      expect(JSON.stringify(res)).not.toContain(code);
      expect(dev.outbox).toHaveLength(0);
      // And the code registers.
      const reg = await dev.call(authCalls.register, {
        companyName: '日志验证码公司',
        companyAccount: phone,
        password: 'secret123abc',
        checkPassword: 'secret123abc',
        verifyCode: code,
        readMsg: true,
      });
      expect(reg.code).toBe('200');
      // CAPTCHA_FIXED_CODE was announced loudly at start.
      expect(lines.join('\n')).toContain('CAPTCHA_FIXED_CODE is set');
    } finally {
      await dev.close();
    }
  });

  it('rate limits captcha, SMS and login calls per IP with a "429" envelope', async () => {
    const limited = await createTestApp(dialect, {}, { sensitiveRateLimit: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await limited.call(authCalls.getVerifyCode, {}, { ip: '10.70.0.1' })).code).toBe('200');
      }
      const over = await limited.call(authCalls.getVerifyCode, {}, { ip: '10.70.0.1' });
      expect(over).toMatchObject({
        status: 429,
        code: '429',
        message: '请求过于频繁，请稍后再试',
        data: null,
      });
      expect(over.headers['retry-after']).toBeTruthy();
      // Another IP is not affected; nor are other calls from that IP.
      expect((await limited.call(authCalls.getVerifyCode, {}, { ip: '10.70.0.2' })).code).toBe('200');
      expect((await limited.call(authCalls.isAutoRegiste, {}, { ip: '10.70.0.1' })).code).toBe('200');

      for (let i = 0; i < 3; i++) {
        await limited.call(
          authCalls.login,
          { companyAccount: 'nobody', password: 'x', captchaId: 'x', captchaCode: FIXED_CAPTCHA },
          { ip: '10.70.0.3' },
        );
      }
      const before = await tableCounts(limited.database);
      const login = await limited.call(
        authCalls.login,
        { companyAccount: 'nobody', password: 'x', captchaId: 'x', captchaCode: FIXED_CAPTCHA },
        { ip: '10.70.0.3' },
      );
      expect(login).toMatchObject({ status: 429, code: '429' });
      expect(await tableCounts(limited.database)).toEqual(before);
    } finally {
      await limited.close();
    }
  });

  it('applies the global per-IP limit (RATE_LIMIT_PER_MINUTE) to every call, but not to health probes', async () => {
    const limited = await createTestApp(dialect, { RATE_LIMIT_PER_MINUTE: '3' });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await limited.call(systemCalls.siteInfo, {}, { ip: '10.71.0.1' })).code).toBe('200');
      }
      expect(await limited.call(systemCalls.siteInfo, {}, { ip: '10.71.0.1' })).toMatchObject({
        status: 429,
        code: '429',
      });
      for (let i = 0; i < 5; i++) {
        expect(
          (await limited.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.71.0.1' }))
            .statusCode,
        ).toBe(200);
        expect(
          (await limited.app.inject({ method: 'GET', url: '/readyz', remoteAddress: '10.71.0.1' }))
            .statusCode,
        ).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });
});
