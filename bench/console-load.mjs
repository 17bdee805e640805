#!/usr/bin/env node
// How fast the console reaches a person: the login page and the first dashboard, each loaded in a
// fresh browser context (empty cache) of Debian's Chromium, interleaved with a baseline measured in
// the same run: a static HTML page with the login page's own markup and CSS and no script, served by
// the same server (the physical floor for the login page's first paint).
//   npm run build && node bench/console-load.mjs [--loads 7] [--encodings gzip,br,identity] [--list]
// Each target is loaded as a gzip-only client and as a brotli client (interleaved). Reports bytes on
// the wire (bodies as served plus headers, from Chromium's own count), requests, FCP, LCP and, for
// the login page, "form usable" (the script has taken over the form: data-form-ready appears).
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { api, startServer } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const LOADS = Math.max(5, arg('loads', 7));
const encodingArg = process.argv.indexOf('--encodings');
const ENCODINGS = (encodingArg > 0 ? process.argv[encodingArg + 1] : 'gzip,br').split(',');
/** What a client of each kind sends as Accept-Encoding. */
/** --list: print what each target's last load fetched, largest first (where the bytes go). */
const LIST = process.argv.includes('--list');
const ACCEPT = { gzip: 'gzip, deflate', br: 'gzip, deflate, br, zstd', identity: 'identity' };
const BASELINE_FILE = 'bench-baseline.html';

// Serve a copy of the built console, so the baseline page can sit beside it.
const webDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'wxc-bench-web-')), 'web');
cpSync(path.join(root, 'apps/web/dist'), webDir, { recursive: true });
const serverEnv = {
  WEB_DIST_DIR: webDir,
  SEED_DEMO: 'true',
  ADMIN_PASSWORD: 'bench-admin-password-1',
  CAPTCHA_FIXED_CODE: 'bench',
  RATE_LIMIT_PER_MINUTE: '100000',
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

// Records LCP and the moment the login form becomes usable, from the page's own clock.
const INIT = () => {
  window.__lcp = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const mark = () => {
    if (window.__ready === undefined && document.querySelector('[data-form-ready]')) {
      window.__ready = performance.now();
    }
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true });
};

async function measure(url, { token, waitFor, encoding }) {
  const accept = ACCEPT[encoding];
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  if (token) {
    await context.addCookies([{ name: 'Admin-Token', value: token, url: base }]);
  }
  const page = await context.newPage();
  await page.addInitScript(INIT);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // The browser's own Accept-Encoding wins over extraHTTPHeaders; set it at the protocol level.
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': accept } });
  let bytes = 0;
  let requests = 0;
  const encodings = new Set();
  const urls = new Map();
  const files = [];
  cdp.on('Network.responseReceived', (e) => {
    requests++;
    urls.set(e.requestId, new URL(e.response.url).pathname);
    const enc = e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'];
    if (enc) encodings.add(enc);
  });
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    files.push([e.encodedDataLength, urls.get(e.requestId) ?? '?']);
  });
  await page.goto(url, { waitUntil: 'load' });
  if (waitFor) await page.waitForSelector(waitFor, { timeout: 30_000 });
  // Let late requests (lazy chunks, data) finish: quiet for 500 ms.
  let last = requests;
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(250);
    if (requests === last && i > 1) break;
    last = requests;
  }
  const timing = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    lcp: window.__lcp || null,
    ready: window.__ready ?? null,
  }));
  await context.close();
  return { bytes, requests, encodings: [...encodings], ...timing, files };
}

// The baseline: the login page as rendered, scripts removed, written beside the console's files
// (the static file server lists its files at start, so the service starts again afterwards).
{
  const first = await startServer(serverEnv);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${first.url}/login`);
  await page.waitForSelector('[data-form-ready]', { timeout: 30_000 });
  const html = await page.evaluate(() => {
    const doc = document.documentElement.cloneNode(true);
    for (const el of doc.querySelectorAll('script, link[rel="modulepreload"]')) el.remove();
    for (const el of doc.querySelectorAll('[data-form-ready]')) el.removeAttribute('data-form-ready');
    return `<!doctype html>\n${doc.outerHTML}`;
  });
  writeFileSync(path.join(webDir, BASELINE_FILE), html);
  await context.close();
  await first.stop();
}
const server = await startServer(serverEnv);
const base = server.url;

try {
  const login = await api(base, '/api/normal/login', {
    companyAccount: '13800000000',
    password: 'demo123456',
    captchaId: 'x',
    captchaCode: 'bench',
  });
  const token = login.token;

  const targets = {};
  for (const encoding of ENCODINGS) {
    targets[`baseline/${encoding}`] = () => measure(`${base}/${BASELINE_FILE}`, { encoding });
    targets[`login/${encoding}`] = () => measure(`${base}/login`, { waitFor: '[data-form-ready]', encoding });
    targets[`dashboard/${encoding}`] = () =>
      measure(`${base}/dashboard`, { token, waitFor: '.stat-card .stat-value', encoding });
  }
  const runs = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let i = 0; i < LOADS; i++) {
    for (const [name, run] of Object.entries(targets)) runs[name].push(await run());
  }

  if (LIST) {
    for (const [name, rs] of Object.entries(runs)) {
      console.log(`\n${name} (last load)`);
      for (const [b, u] of rs.at(-1).files.sort((x, y) => y[0] - x[0])) console.log(String(b).padStart(8), u);
    }
  }
  for (const rs of Object.values(runs)) for (const r of rs) delete r.files;
  const median = (xs) => {
    const v = xs.filter((x) => x !== null).sort((a, b) => a - b);
    return v.length ? v[Math.floor(v.length / 2)] : null;
  };
  const summary = Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      {
        bytes: median(rs.map((r) => r.bytes)),
        requests: median(rs.map((r) => r.requests)),
        encodings: [...new Set(rs.flatMap((r) => r.encodings))],
        fcpMs: median(rs.map((r) => r.fcp)),
        lcpMs: median(rs.map((r) => r.lcp)),
        formUsableMs: median(rs.map((r) => r.ready)),
      },
    ]),
  );
  const ratio = (a, b) => (a && b ? Number((a / b).toFixed(2)) : null);
  const report = {
    when: new Date().toISOString(),
    loads: LOADS,
    summary,
    loginFcpRatio: Object.fromEntries(
      ENCODINGS.map((e) => [e, ratio(summary[`login/${e}`].fcpMs, summary[`baseline/${e}`].fcpMs)]),
    ),
    runs,
  };
  const out = path.join(root, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, `console-load-${Date.now()}.json`), JSON.stringify(report, null, 2));
  console.log(JSON.stringify({ ...report, runs: undefined }, null, 2));
} finally {
  await browser.close();
  await server.stop();
}
