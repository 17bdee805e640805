import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { systemCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';

/**
 * The console's files as served: precompressed siblings chosen by Accept-Encoding, hashed assets
 * cached for good, index.html revalidated; large API answers compressed on the fly.
 */
describe('console delivery', () => {
  let t: TestApp;
  const js = `console.log(${JSON.stringify('控制台'.repeat(400))});\n`;
  const html = `<!doctype html><html><head><title>控制台</title></head><body><div id="root">${'<p>登录</p>'.repeat(200)}</div></body></html>`;

  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'wxc-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    const write = (name: string, text: string) => {
      writeFileSync(path.join(dist, name), text);
      writeFileSync(path.join(dist, `${name}.br`), brotliCompressSync(text));
      writeFileSync(path.join(dist, `${name}.gz`), gzipSync(text));
    };
    write('index.html', html);
    write('assets/app-Ab12Cd34.js', js);
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp('sqlite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('hashed assets: brotli or gzip by Accept-Encoding, identity without, cached for a year', async () => {
    const br = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    const gz = await get('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await get('/assets/app-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(js);
    for (const res of [br, gz, plain]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      // Document-only headers are left off scripts and styles; nosniff stays.
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    const page = await get('/login');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('index.html and client routes: no-cache with validators, a repeat visit answers 304', async () => {
    for (const url of ['/', '/login', '/dashboard', '/index.html']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
      expect(res.headers.etag, url).toBeTruthy();
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(res.headers.etag) });
      expect(again.statusCode, url).toBe(304);
    }
    const plain = await get('/login');
    expect(plain.payload).toBe(html);
  });

  it('large API answers are compressed on the fly; small ones are not', async () => {
    const plain = await get('/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const gz = await get('/docs/json', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.payload);
    const br = await get('/docs/json', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.payload) / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).openapi).toMatch(/^3\./);
    // Neither encoding accepted: sent as it is.
    const refused = await get('/docs/json', { 'accept-encoding': 'identity, deflate' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.payload).toBe(plain.payload);
    const small = await get(systemCalls.siteInfo.path, { 'accept-encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.json().code).toBe('200');
  });

  it('files without precompressed siblings: large text compressed as it streams, small files and images not', async () => {
    // The API reference's script (about 1.5 MB), streamed from disk.
    const script = await get('/docs/static/swagger-ui-bundle.js');
    expect(script.headers['content-encoding']).toBeUndefined();
    const gz = await get('/docs/static/swagger-ui-bundle.js', { 'accept-encoding': 'gzip' });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-length']).toBeUndefined();
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script.payload);
    // Declares 42 bytes: too small to be worth it.
    const svg = await get('/favicon.svg', { 'accept-encoding': 'br' });
    expect(svg.headers['content-encoding']).toBeUndefined();
    expect(svg.payload).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const png = await get('/docs/static/favicon-32x32.png', { 'accept-encoding': 'br' });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
  });
});

/** /login and /register: the prerendered sign-in page, finished with this server's facts. */
describe('sign-in page', () => {
  const page = (address: string, flag: string) =>
    `<!doctype html><title>${address === 'login' ? '登录' : '注册'} - __PRODUCT_TITLE__</title><div id="root" data-product-title="__PRODUCT_TITLE__" data-server-flag="${flag}" data-year="__YEAR__"><h1>__PRODUCT_TITLE__${flag ? '<span>正式版</span>' : ''}</h1><p>© __YEAR__ __PRODUCT_TITLE__</p></div>`;
  const dists: string[] = [];
  afterAll(() => {
    for (const dist of dists.splice(0)) rmSync(dist, { recursive: true, force: true });
  });
  const distWithSignIn = () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'wxc-dist-'));
    dists.push(dist);
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    for (const address of ['login', 'register']) {
      writeFileSync(path.join(dist, `${address}.html`), page(address, ''));
      writeFileSync(path.join(dist, `${address}.formal.html`), page(address, 'formal'));
    }
    return dist;
  };

  it('fills in the title (escaped) and year, picks the version flag, and serves it compressed with validators', async () => {
    const t = await createTestApp('sqlite', {
      WEB_DIST_DIR: distWithSignIn(),
      PRODUCT_TITLE: '某某 <云> 控制台',
      SERVER_FLAG: 'formal',
    });
    try {
      const year = String(new Date().getFullYear());
      const plain = await t.app.inject({ method: 'GET', url: '/register' });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.payload).toContain('<title>注册 - 某某 &#60;云&#62; 控制台</title>');
      expect(plain.payload).toContain('<span>正式版</span>');
      expect(plain.payload).toContain(`© ${year} 某某 &#60;云&#62; 控制台`);
      expect(plain.payload).not.toContain('__');
      const br = await t.app.inject({
        method: 'GET',
        url: '/login',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<title>登录 - ');
      const gz = await t.app.inject({
        method: 'GET',
        url: '/login?redirect=%2Fx',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gunzipSync(gz.rawPayload).toString()).toBe(brotliDecompressSync(br.rawPayload).toString());
      expect(gz.headers.etag).not.toBe(br.headers.etag);
      const again = await t.app.inject({
        method: 'GET',
        url: '/login',
        headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      const head = await t.app.inject({ method: 'HEAD', url: '/login' });
      expect(head.statusCode).toBe(200);
      expect(head.payload).toBe('');
    } finally {
      await t.close();
    }
  });

  it('without the version flag, the plain variant', async () => {
    const t = await createTestApp('sqlite', { WEB_DIST_DIR: distWithSignIn(), SERVER_FLAG: 'test' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/login' });
      expect(res.payload).not.toContain('正式版');
      expect(res.payload).toContain('data-server-flag=""');
    } finally {
      await t.close();
    }
  });
});
