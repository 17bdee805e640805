import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { authCalls, fileCalls, messagingCalls, realNameCalls, systemCalls } from '@wxc/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  FIXED_CAPTCHA,
  PASSWORD,
  registerCompany,
  type TestApp,
  tableCounts,
} from './helpers.js';
import { PNG } from './realname-helpers.js';

/**
 * The service's edges as an outside probe sees them: security headers over http and https,
 * per-IP limits whatever the spelling of the address, multipart and URL errors, HEAD, and caching.
 * Every answer under /api is the envelope `{ code, message, data }`.
 */

/** A stand-in for the built console: index.html and one hashed asset. */
function fakeConsole(): string {
  const dir = path.join(os.tmpdir(), `wxc-edge-web-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>console</title><div id="root"></div>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("console");');
  return dir;
}

/** The CSP of an https answer: exactly what the service always sent before. */
const HTTPS_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';" +
  "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';" +
  "style-src 'self' 'unsafe-inline';upgrade-insecure-requests;connect-src 'self'";
/** Over plain http: the same, without upgrade-insecure-requests. */
const HTTP_CSP = HTTPS_CSP.replace('upgrade-insecure-requests;', '');
/** What an API answer carries instead (it is data, never a page), written out independently. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const isApi = (url: string) => url.startsWith('/api/');

function expectEnvelope(res: LightMyRequestResponse, status: number, code = String(status)) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/json');
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.data).toBeNull();
  // Chinese, and no framework internals
  expect(body.message).toMatch(/[\u4e00-\u9fff]/);
  expect(res.body).not.toMatch(/FST_|Bad Request|statusCode|Boundary|busboy|Error/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  return body as { code: string; message: string; data: null };
}

describe.each(dialects)('http edges (%s)', (dialect) => {
  const webDir = fakeConsole();
  let t: TestApp;
  let limited: TestApp;
  let ip = 0;
  /** A fresh client address for each limit scenario. */
  const nextIp = () => {
    ip += 1;
    return `10.90.${Math.floor(ip / 250)}.${(ip % 250) + 1}`;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { WEB_DIST_DIR: webDir, TRUST_PROXY: 'true' });
    limited = await createTestApp(
      dialect,
      { WEB_DIST_DIR: webDir, RATE_LIMIT_PER_MINUTE: '3' },
      { sensitiveRateLimit: 3 },
    );
  });
  afterAll(async () => {
    await t?.close();
    await limited?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  describe('security headers over http and https', () => {
    it('a plain http request gets neither upgrade-insecure-requests nor HSTS; the rest of the CSP is unchanged', async () => {
      for (const [app, opts] of [
        [t, { method: 'GET', url: '/login' }],
        // (Scripts and styles carry no document headers at all: console-delivery.test.ts.)
        [t, { method: 'GET', url: '/index.html' }],
        [t, { method: 'POST', url: authCalls.isAutoRegiste.path }],
        [t, { method: 'POST', url: '/api/nothing' }],
        [t, { method: 'GET', url: '/healthz' }],
        // Without TRUST_PROXY a client's x-forwarded-proto means nothing.
        [limited, { method: 'GET', url: '/login', headers: { 'x-forwarded-proto': 'https' } }],
      ] as [TestApp, InjectOptions][]) {
        const res = await app.app.inject({ ...opts, remoteAddress: nextIp() });
        const url = opts.url as string;
        expect(res.headers['content-security-policy'], url).toBe(isApi(url) ? API_CSP : HTTP_CSP);
        expect(res.headers['strict-transport-security'], url).toBeUndefined();
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe(isApi(url) ? 'DENY' : 'SAMEORIGIN');
        // Headers that only mean something on a page are left off data.
        expect(res.headers['x-xss-protection'] === undefined, url).toBe(isApi(url));
      }
    });

    it('https behind a trusted proxy (x-forwarded-proto) gets both', async () => {
      for (const url of ['/login', '/healthz', systemCalls.siteInfo.path]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
        expect(res.headers['content-security-policy'], url).toBe(isApi(url) ? API_CSP : HTTPS_CSP);
        expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      }
    });

    it('an https PUBLIC_URL gets both on every answer', async () => {
      const https = await createTestApp(dialect, {
        WEB_DIST_DIR: webDir,
        PUBLIC_URL: 'https://console.example',
      });
      try {
        for (const url of ['/login', '/healthz', systemCalls.siteInfo.path, '/api/nothing']) {
          const res = await https.app.inject({ method: 'GET', url });
          expect(res.headers['content-security-policy'], url).toBe(isApi(url) ? API_CSP : HTTPS_CSP);
          expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
        }
      } finally {
        await https.close();
      }
    });
  });

  describe('per-IP limits follow the matched route, not the spelling of the address', () => {
    const captchas = async () => (await tableCounts(limited.database)).captchas;

    it('percent-encoded and HEAD requests of getVerifyCode spend the same per-route budget', async () => {
      const from = nextIp();
      const before = await captchas();
      const spellings = [
        authCalls.getVerifyCode.path,
        '/%61pi/normal/tools/getVerifyCode',
        '/api/normal/tools/%67etVerifyCode',
      ];
      for (const url of spellings) {
        const res = await limited.app.inject({ method: 'GET', url, remoteAddress: from });
        expect(res.statusCode, url).toBe(200);
        expect(res.json().code).toBe('200');
      }
      for (const url of [...spellings, '/%61%70%69/normal/tools/getVerifyCode']) {
        const res = await limited.app.inject({ method: 'GET', url, remoteAddress: from });
        expect(res.json(), url).toEqual({ code: '429', message: '请求过于频繁，请稍后再试', data: null });
        expect(res.statusCode).toBe(429);
      }
      // HEAD runs the GET handler: it is counted with GET, not given a budget of its own.
      const head = await limited.app.inject({
        method: 'HEAD',
        url: authCalls.getVerifyCode.path,
        remoteAddress: from,
      });
      expect(head.statusCode).toBe(429);
      expect(await captchas()).toBe(before + 3);
      // A HEAD-first client is limited the same way.
      const other = nextIp();
      for (let i = 0; i < 3; i++) {
        const res = await limited.app.inject({
          method: 'HEAD',
          url: authCalls.getVerifyCode.path,
          remoteAddress: other,
        });
        expect(res.statusCode).toBe(200);
      }
      const get = await limited.app.inject({
        method: 'GET',
        url: '/%61pi/normal/tools/getVerifyCode',
        remoteAddress: other,
      });
      expect(get.statusCode).toBe(429);
    });

    it('percent-encoded addresses count against the global limit', async () => {
      const from = nextIp();
      for (const url of ['/%61pi/normal/siteInfo', '/api/normal/%73iteInfo', systemCalls.siteInfo.path]) {
        const res = await limited.app.inject({ method: 'GET', url, remoteAddress: from });
        expect(res.json(), url).toMatchObject({ code: '200' });
      }
      const over = await limited.app.inject({
        method: 'GET',
        url: '/%61pi/normal/siteInfo',
        remoteAddress: from,
      });
      expect(over.statusCode).toBe(429);
      expectEnvelope(over, 429);
    });

    it('mixed case is not an API address (the router is case-sensitive): it runs no call', async () => {
      const from = nextIp();
      const before = await tableCounts(limited.database);
      for (let i = 0; i < 6; i++) {
        const get = await limited.app.inject({
          method: 'GET',
          url: '/API/normal/tools/getVerifyCode',
          remoteAddress: from,
        });
        // A console address like any other unknown one: the SPA's index.html, no captcha issued.
        expect(get.statusCode).toBe(200);
        expect(String(get.headers['content-type'])).toContain('text/html');
        expect(get.body).not.toContain('captchaId');
        const post = await limited.app.inject({
          method: 'POST',
          url: '/Api/normal/login',
          payload: { companyAccount: 'x', password: 'y', captchaId: 'x', captchaCode: FIXED_CAPTCHA },
          remoteAddress: from,
        });
        expect(post.statusCode).toBe(404);
      }
      expect(await tableCounts(limited.database)).toEqual(before);
      // And the real address still has its whole budget.
      const res = await limited.app.inject({
        method: 'GET',
        url: authCalls.getVerifyCode.path,
        remoteAddress: from,
      });
      expect(res.statusCode).toBe(200);
    });

    it('IPv6 clients are counted by their /64 network; a mapped IPv4 address as that address', async () => {
      const statusFrom = async (remoteAddress: string) =>
        (await limited.app.inject({ method: 'GET', url: systemCalls.siteInfo.path, remoteAddress }))
          .statusCode;
      for (const remoteAddress of ['2001:db8:1:ab00::1', '2001:db8:1:ab00::2', '2001:db8:1:ab00:ffff::9']) {
        expect(await statusFrom(remoteAddress), remoteAddress).toBe(200);
      }
      expect(await statusFrom('2001:db8:1:ab00:1234::7')).toBe(429);
      expect(await statusFrom('2001:db8:1:ab01::1')).toBe(200); // another network
      const v4 = nextIp();
      for (const remoteAddress of [v4, `::ffff:${v4}`, v4]) {
        expect(await statusFrom(remoteAddress), remoteAddress).toBe(200);
      }
      expect(await statusFrom(`::ffff:${v4}`)).toBe(429);
    });

    it('static console files, client routes and health probes stay unlimited', async () => {
      const from = nextIp();
      for (let i = 0; i < 8; i++) {
        for (const url of ['/assets/index-abc123.js', '/index.html', '/login', '/', '/healthz']) {
          const res = await limited.app.inject({ method: 'GET', url, remoteAddress: from });
          expect(res.statusCode, url).toBe(200);
        }
      }
    });
  });

  describe('multipart errors are "400" envelopes on every upload call', () => {
    const B = 'edgeBoundary';
    const file = (field: string, name: string, data: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `--${B}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        data,
        Buffer.from('\r\n'),
      ]);
    const end = Buffer.from(`--${B}--\r\n`);
    const cases: [string, string, Buffer][] = [
      ['no boundary', 'multipart/form-data', file('file', 'a.png', PNG)],
      ['an empty boundary', 'multipart/form-data; boundary=', file('file', 'a.png', PNG)],
      [
        'an overlong boundary',
        `multipart/form-data; boundary=${'b'.repeat(300)}`,
        file('file', 'a.png', PNG),
      ],
      ['a body that is not multipart', `multipart/form-data; boundary=${B}`, Buffer.from('{"a":1}')],
      ['an empty body', `multipart/form-data; boundary=${B}`, Buffer.alloc(0)],
      ['a truncated part', `multipart/form-data; boundary=${B}`, file('file', 'a.png', PNG).subarray(0, 80)],
      ['no closing boundary', `multipart/form-data; boundary=${B}`, file('file', 'a.png', PNG)],
      [
        'a wrong field name',
        `multipart/form-data; boundary=${B}`,
        Buffer.concat([file('upload', 'a.png', PNG), end]),
      ],
      [
        'a prototype field name',
        `multipart/form-data; boundary=${B}`,
        Buffer.concat([file('__proto__', 'a.png', PNG), end]),
      ],
    ];

    it.each([
      fileCalls.getSourceUrl.path,
      realNameCalls.uploadImg.path,
      realNameCalls.uploadRealNameSource.path,
    ])('%s', async (url) => {
      const c = await registerCompany(t);
      const before = await tableCounts(t.database);
      for (const [name, contentType, payload] of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': contentType, authorization: c.token },
          payload,
        });
        expect({ name, status: res.statusCode, code: res.json().code }).toEqual({
          name,
          status: 400,
          code: '400',
        });
        expectEnvelope(res, 400);
      }
      expect(await tableCounts(t.database)).toEqual(before);
    });
  });

  describe('framework-level errors are envelopes', () => {
    it('a malformed percent-encoding is a "400" envelope, under /api and elsewhere', async () => {
      for (const url of [
        '/api/msg/getAuth%zz',
        `${messagingCalls.getAuth.path}?x=%zz`,
        '/login%zz',
        '/media/%E0%A4%A',
      ]) {
        const res = await t.app.inject({ method: 'GET', url });
        if (url.includes('?')) {
          // A bad query string is the call's own validation (it still answers the envelope).
          expect(res.json().code, url).toMatch(/^4/);
          continue;
        }
        const body = expectEnvelope(res, 400);
        expect(body.message, url).toBe('请求地址格式错误');
      }
    });

    it('an over-long path parameter is an envelope', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/media/${'a'.repeat(500)}` });
      expect(res.statusCode).toBe(414);
      const body = expectEnvelope(res, 414, '400');
      expect(body.message).toBe('请求地址过长');
    });

    it('bad JSON, an unsupported content type, an encoded and an oversized body are envelopes', async () => {
      const cases: [InjectOptions, number, string][] = [
        [
          { headers: { 'content-type': 'application/json' }, payload: '{"companyAccount": ' },
          400,
          '请求体格式错误',
        ],
        [{ headers: { 'content-type': 'application/xml' }, payload: '<a/>' }, 400, '不支持的请求内容类型'],
        // Bodies are never decompressed: an encoded one is refused by name, not read as garbage.
        [
          {
            headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
            payload: gzipSync(JSON.stringify({ companyAccount: '13800000000' })),
          },
          400,
          '不支持压缩的请求体（Content-Encoding），请发送未压缩的 JSON',
        ],
        [{ headers: { 'content-type': ';;;' }, payload: '{}' }, 400, '不支持的请求内容类型'],
        [
          { headers: { 'content-type': 'application/json' }, payload: `"${'x'.repeat(1024 * 1024 + 10)}"` },
          413,
          '请求内容过大',
        ],
      ];
      for (const url of [authCalls.login.path, '/%61pi/normal/login']) {
        for (const [opts, status, message] of cases) {
          const res = await t.app.inject({ method: 'POST', url, ...opts });
          expect(expectEnvelope(res, status, '400').message, url).toBe(message);
        }
      }
      // An unknown address: the body's fault or the miss, either way an envelope.
      for (const [opts, status] of cases) {
        const res = await t.app.inject({ method: 'POST', url: '/api/no/such/call', ...opts });
        expect([status, 404]).toContain(res.statusCode);
        expectEnvelope(res, res.statusCode, res.statusCode === 404 ? '404' : '400');
      }
    });

    it('a request the HTTP parser refuses is an envelope too', async () => {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = new URL(address);
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString('utf8');
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
        socket.write('GET /api/normal/siteInfo HTTP/1.1\r\nHost: x\r\nNot A Header\r\n\r\n');
      });
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head!.toLowerCase()).toContain('content-type: application/json');
      expect(head!.toLowerCase()).toContain('cache-control: no-store');
      expect(JSON.parse(body!)).toEqual({ code: '400', message: '请求格式错误', data: null });
    });
  });

  describe('HEAD mirrors GET on the console', () => {
    it.each(['/', '/login', '/user-info', '/index.html', '/assets/index-abc123.js'])('%s', async (url) => {
      const get = await t.app.inject({ method: 'GET', url });
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(get.statusCode).toBe(200);
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      const strip = (h: Record<string, unknown>) => {
        const { date: _d, 'x-request-id': _id, ...rest } = h;
        return rest;
      };
      expect(strip(head.headers)).toEqual(strip(get.headers));
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.body));
    });

    it('HEAD of an unknown API address is a bodiless 404 like its GET', async () => {
      const get = await t.app.inject({ method: 'GET', url: '/api/no/such/call' });
      const head = await t.app.inject({ method: 'HEAD', url: '/api/no/such/call' });
      expect(get.statusCode).toBe(404);
      expect(head.statusCode).toBe(404);
      expect(head.body).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['cache-control']).toBe('no-store');
    });
  });

  describe('Cache-Control', () => {
    it('every /api answer is no-store: successes, the login token, errors, 404s and 429s', async () => {
      const c = await registerCompany(t);
      const login = await t.call(authCalls.login, {
        companyAccount: c.phone,
        password: PASSWORD,
        captchaId: 'x',
        captchaCode: FIXED_CAPTCHA,
      });
      expect(login.code).toBe('200');
      expect(login.data.token).toBeTruthy();
      expect(login.headers['cache-control']).toBe('no-store');

      const ok = await t.call(systemCalls.siteInfo, {});
      expect(ok.headers['cache-control']).toBe('no-store');
      const encoded = await t.app.inject({ method: 'GET', url: '/%61pi/normal/siteInfo' });
      expect(encoded.json().code).toBe('200');
      expect(encoded.headers['cache-control']).toBe('no-store');

      expectEnvelope(
        await t.app.inject({ method: 'POST', url: authCalls.refreshLoginInfo.path }),
        401,
        '403',
      );
      expectEnvelope(await t.app.inject({ method: 'GET', url: '/api/no/such/call' }), 404);
      expectEnvelope(await t.app.inject({ method: 'GET', url: '/%61pi/no/such/call' }), 404);
      expectEnvelope(
        await t.app.inject({ method: 'POST', url: authCalls.login.path, payload: { companyAccount: 1 } }),
        400,
      );

      const from = nextIp();
      for (let i = 0; i < 3; i++) {
        await limited.app.inject({ method: 'GET', url: systemCalls.siteInfo.path, remoteAddress: from });
      }
      expectEnvelope(
        await limited.app.inject({ method: 'GET', url: systemCalls.siteInfo.path, remoteAddress: from }),
        429,
      );
    });

    it('static console files keep their own caching', async () => {
      for (const url of ['/assets/index-abc123.js', '/login', '/']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control'], url).toBeTruthy();
        expect(res.headers['cache-control'], url).not.toContain('no-store');
      }
    });
  });
});
