/**
 * Browser-test harness: starts the built service (`npm run build` must have run) on a free port with
 * a fresh data directory, reads dev-SMS codes from its log, seeds companies through the API, and
 * drives Debian's Chromium through playwright-core. Nothing here downloads a browser.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallDef, CallRequest, CallResponse } from '@wxc/contract/call';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as authCalls from '@wxc/contract/calls/auth';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as orderCalls from '@wxc/contract/calls/orders';
import * as packageCalls from '@wxc/contract/calls/packages';
import * as simCalls from '@wxc/contract/calls/sim';
import { TOKEN_COOKIE } from '@wxc/contract/constants';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadSqliteDriver } from '../apps/server/src/db/driver.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
export const CAPTCHA = '1234';
export const ADMIN = { account: 'operator', password: 'Operator2024' };
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface SmsMessage {
  phone: string;
  scene: string;
  code: string;
}

export interface TestServer {
  baseUrl: string;
  /** The service's DATA_DIR (its SQLite database is `app.sqlite` there). */
  dataDir: string;
  /** Every log line the service printed so far. */
  log: string[];
  /** Waits for the newest dev-SMS code sent to `phone` (optionally for one scene). */
  smsCode(phone: string, scene?: string, timeoutMs?: number): Promise<string>;
  /** Calls the API like a program would; resolves to the whole envelope. */
  api<C extends CallDef>(
    def: C,
    input: CallRequest<C>,
    token?: string,
  ): Promise<{ code: string; message: string; data: CallResponse<C> }>;
  /** Stops the service (SIGTERM) and deletes its data. */
  stop(): Promise<void>;
  /** Kills the service outright (SIGKILL, no shutdown at all) and keeps its data for a restart. */
  kill(): Promise<void>;
  /** Stops the service as an orchestrator would (SIGTERM) and keeps its data; its exit code. */
  terminate(): Promise<number | null>;
  /** The folder to hand `startServer` to start again on the same data. */
  root: string;
  /** The service's process (with WORKERS=N, the primary that runs the workers). */
  pid: number;
}

/** A random private address to stand for one client. */
export function fakeClientIp(): string {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const SMS_LINE = /\[dev-sms\] to=(\S+) scene=(\S+) code=(\d+)/;

/**
 * A snapshot of `from` at `to`, made of hard links (a few ms for the console's ~600 files, where a
 * copy took ~200 ms of every service start). A build replaces dist/ with new files (Vite empties it
 * first), so the links keep serving the files as they were; a copy where links cannot be made.
 */
function snapshotDir(from: string, to: string): void {
  try {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const source = path.join(from, entry.name);
      const target = path.join(to, entry.name);
      if (entry.isDirectory()) snapshotDir(source, target);
      else linkSync(source, target);
    }
  } catch {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
  }
}

export async function startServer(
  extraEnv: Record<string, string> = {},
  options: { root?: string } = {},
): Promise<TestServer> {
  const main = path.join(ROOT, 'apps/server/dist/main.js');
  if (!existsSync(main) || !existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('The service or console is not built: run `npm run build` before the browser tests.');
  }
  const port = await freePort();
  const dataDir = options.root ?? mkdtempSync(path.join(os.tmpdir(), 'wxc-e2e-'));
  // Serve a snapshot of the built console, so a rebuild during the run can't swap chunks under it.
  const webDir = path.join(dataDir, 'web');
  if (!options.root) snapshotDir(path.join(ROOT, 'apps/web/dist'), webDir);
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dataDir, 'data'),
      WEB_DIST_DIR: webDir,
      CAPTCHA_FIXED_CODE: CAPTCHA,
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'false',
      // Every browser context and API helper call comes from its own (forwarded) address, as real
      // customers do, so the per-address limits (30 sensitive calls a minute, 20 SMS an hour) apply
      // per test instead of to the whole run from 127.0.0.1.
      TRUST_PROXY: '1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const sms: SmsMessage[] = [];
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl = buffer.indexOf('\n');
    while (nl !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      log.push(line);
      let text = line;
      try {
        text = String((JSON.parse(line) as { msg?: unknown }).msg ?? line);
      } catch {
        // not JSON: a banner line
      }
      const m = SMS_LINE.exec(text);
      if (m) sms.push({ phone: m[1]!, scene: m[2]!, code: m[3]! });
      nl = buffer.indexOf('\n');
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`The service exited during start:\n${log.join('\n')}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The service did not become healthy:\n${log.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }

  return {
    baseUrl,
    dataDir: path.join(dataDir, 'data'),
    root: dataDir,
    log,
    pid: child.pid!,
    async smsCode(phone, scene, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = [...sms].reverse().find((s) => s.phone === phone && (!scene || s.scene === scene));
        if (found) return found.code;
        if (Date.now() > until) throw new Error(`No dev-SMS code for ${phone} (${scene ?? 'any scene'})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async api(def, input, token) {
      const headers: Record<string, string> = { 'X-Forwarded-For': fakeClientIp() };
      if (token) headers.Authorization = token;
      let url = baseUrl + def.path;
      let body: string | undefined;
      if (def.method === 'GET') {
        const q = new URLSearchParams(input as Record<string, string>).toString();
        if (q) url += `?${q}`;
      } else {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(input ?? {});
      }
      const res = await fetch(url, { method: def.method, headers, body });
      return (await res.json()) as never;
    },
    async stop() {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await done;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    async terminate() {
      if (exited) return child.exitCode;
      const done = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await done;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (exited) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await done;
    },
  };
}

/** A PostgreSQL server the tests may create databases on (CI sets TEST_DATABASE_URL). */
export const PG_URL = process.env.TEST_DATABASE_URL;

async function pgAdmin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export interface FreshPostgres {
  name: string;
  /** Its `DATABASE_URL`. */
  url: string;
  /** Drops it, ending any connection still open to it. */
  drop(): Promise<void>;
}

/** Creates an empty database on TEST_DATABASE_URL's server, for the services of one test. */
export async function freshPostgresDatabase(prefix = 'wxc_e2e'): Promise<FreshPostgres> {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await pgAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => pgAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

let phoneSeq = 0;
/** A mobile number unique within this run. */
export function uniquePhone(): string {
  phoneSeq += 1;
  const tail = `${Date.now() % 1_000_000}`.padStart(6, '0') + `${phoneSeq % 100}`.padStart(2, '0');
  return `139${tail}`;
}

export interface Company {
  phone: string;
  password: string;
  companyName: string;
  token: string;
}

/**
 * Registers a company through the API, as its own program would: captcha, SMS code, register.
 * `accountType` is its access mode (1 SaaS, 2 本地部署, 3 托管, 4 私有化; default SaaS).
 */
export async function seedCompany(
  server: TestServer,
  overrides: Partial<Omit<Company, 'token'>> & { accountType?: 1 | 2 | 3 | 4 } = {},
) {
  const phone = overrides.phone ?? uniquePhone();
  const password = overrides.password ?? 'Passw0rd2024';
  const companyName = overrides.companyName ?? `测试科技有限公司${phone.slice(-4)}`;
  const captcha = await server.api(authCalls.getVerifyCode, {});
  const sent = await server.api(authCalls.sendRegisterSms, {
    phone,
    captchaId: captcha.data.captchaId,
    captchaCode: CAPTCHA,
  });
  if (sent.code !== '200') throw new Error(`sendRegisterSms: ${sent.code} ${sent.message}`);
  const verifyCode = await server.smsCode(phone, 'register');
  const reg = await server.api(authCalls.register, {
    extAccountType: overrides.accountType ?? 1,
    companyName,
    companyAccount: phone,
    password,
    checkPassword: password,
    verifyCode,
    readMsg: true,
  });
  if (reg.code !== '200') throw new Error(`register: ${reg.code} ${reg.message}`);
  return { phone, password, companyName, token: reg.data.token } satisfies Company;
}

/** Orders one unit of a catalogue package by name (not paid yet); the answer as the API gives it. */
export async function orderPackage(server: TestServer, company: Company, name = '基础版·月付') {
  const catalogue = await server.api(packageCalls.list, {}, company.token);
  const pkg = catalogue.data.list.find((p) => p.name === name);
  if (!pkg) throw new Error(`no package named ${name}`);
  return server.api(
    orderCalls.buy,
    { packageId: pkg.id, quantity: 1, idempotencyKey: `e2e-${company.phone}-${pkg.id}` },
    company.token,
  );
}

/** Orders a package by name and pays it in the sandbox. */
export async function buyAndPay(server: TestServer, company: Company, name = '基础版·月付'): Promise<void> {
  const order = await orderPackage(server, company, name);
  if (order.code !== '200') throw new Error(`buy: ${order.code} ${order.message}`);
  const paid = await server.api(orderCalls.paySandbox, { orderNo: order.data.orderNo }, company.token);
  if (paid.code !== '200') throw new Error(`paySandbox: ${paid.code} ${paid.message}`);
}

/** A new company with a paid 基础版 and API access (its first sub-account holds every slot). */
export async function payingCompany(
  server: TestServer,
  overrides: Parameters<typeof seedCompany>[1] = {},
): Promise<Company> {
  const company = await seedCompany(server, overrides);
  await buyAndPay(server, company);
  const applied = await server.api(apiAccountCalls.applyApis, {}, company.token);
  if (applied.code !== '200') throw new Error(`applyApis: ${applied.code} ${applied.message}`);
  return company;
}

/** Logs a messaging account in through the simulator, as the phone page would (scan, confirm). */
export async function loginMessagingAccount(server: TestServer, company: Company) {
  const qr = await server.api(messagingCalls.getQrCode, {}, company.token);
  if (qr.code !== '200') throw new Error(`getQrCode: ${qr.code} ${qr.message}`);
  const { instanceId } = qr.data;
  await server.api(simCalls.scanAction, { instanceId, action: 'scan' });
  const confirmed = await server.api(simCalls.scanAction, { instanceId, action: 'confirm' });
  if (confirmed.data.state !== 'confirmed') throw new Error(`scan confirm: ${confirmed.data.state}`);
  const status = await server.api(messagingCalls.checkQrCode, { instanceId }, company.token);
  return status.data.account!;
}

/** Signs in through the API (captcha + login) and returns the token. */
export async function apiLogin(server: TestServer, account: string, password: string): Promise<string> {
  const captcha = await server.api(authCalls.getVerifyCode, {});
  const res = await server.api(authCalls.login, {
    companyAccount: account,
    password,
    captchaId: captcha.data.captchaId,
    captchaCode: CAPTCHA,
  });
  if (res.code !== '200') throw new Error(`login: ${res.code} ${res.message}`);
  return res.data.token;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The console's scripts run in V8's interpreter and baseline compiler only: a test's pages live
  // for seconds, so optimising compilers (TurboFan, Maglev) spend CPU on code that never runs long
  // enough to pay it back, and the browser tests are CPU-bound on CI's two cores. Two files (shell,
  // commerce) on two workers, runs alternating: 79-89 s (mean 83) with them, 69-80 s (mean 74)
  // without. What users get is measured by bench/console-load.mjs, in its own browser.
  '--js-flags=--no-opt --no-maglev',
  ...withoutOmniboxPopups(),
];

/**
 * Chromium's headless mode opens a browser window for each context, and Chromium 15x preloads that
 * window's omnibox popups as web pages (chrome://omnibox-popup.top-chrome/, its AI-mode twin): two
 * renderers that nobody sees, ~1.6 s of a CI core per context, as much as the console's own page
 * (3 contexts: renderers 10.5 -> 5.1 CPU s). Turned off here. Chromium reads only the last
 * --disable-features, so the list repeats playwright-core's own (read from its source, as the
 * installed version has it); if that list cannot be found, Playwright's stays and the popups too.
 */
function withoutOmniboxPopups(): string[] {
  const popups = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];
  try {
    const source = readFileSync(
      createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'),
      'utf8',
    );
    const list = /\bdisabledFeatures = \[([\s\S]*?)\]\.filter\(/.exec(source)?.[1];
    const playwrights = list ? [...list.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]!) : [];
    if (playwrights.length > 0) return [`--disable-features=${[...playwrights, ...popups].join(',')}`];
  } catch {
    // fall through
  }
  console.warn("e2e harness: playwright-core's disabled Chromium features not found; omnibox popups left on");
  return [];
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** A test file's service and browser (`useSuite`). */
export interface Suite {
  server: TestServer;
  browser: Browser;
}

/**
 * Starts the service and launches the browser side by side (each takes 1-5 s on a loaded CI machine,
 * mostly one process's start-up). If either fails, the other is stopped before the error is thrown.
 */
export async function startServerAndBrowser(
  start: () => Promise<TestServer>,
  launch: () => Promise<Browser> = launchBrowser,
): Promise<{ server: TestServer; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([start(), launch()]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled')
    return { server: server.value, browser: browser.value };
  if (browser.status === 'fulfilled') await browser.value.close();
  if (server.status === 'fulfilled') await server.value.stop();
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}

/**
 * One service (started with `env`) and one browser for the test file that calls it: started before
 * its tests (before any `beforeAll` it registers after this), stopped after them.
 */
export function useSuite(env: Record<string, string> = {}): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    Object.assign(suite, await startServerAndBrowser(() => startServer(env)));
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

export const DESKTOP = { width: 1440, height: 900 };
export const MOBILE = { width: 375, height: 812 };

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far (minus the allowed ones). */
  errors: string[];
  /** Allows console errors matching this pattern (e.g. the browser's note about an expected 401). */
  allow(pattern: RegExp): void;
  /** Fails when the page logged any error not allowed. */
  assertNoErrors(): void;
  close(): Promise<void>;
}

/**
 * A fresh browser context (own cookies and storage) with one page that records every console
 * error; tests end with `assertNoErrors()`. With `token`, the session cookie is set first, as
 * after a login.
 */
export async function openPage(
  browser: Browser,
  server: TestServer,
  options: { viewport?: { width: number; height: number }; token?: string } = {},
): Promise<TestPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    // antd then opens dialogs, menus and drawers without animating them (utils/theme.ts): on a
    // loaded machine a click on a dialog still zooming in could land on its mask and go nowhere.
    reducedMotion: 'reduce',
    baseURL: server.baseUrl,
    extraHTTPHeaders: { 'X-Forwarded-For': fakeClientIp() },
  });
  if (options.token) {
    await context.addCookies([{ name: TOKEN_COOKIE, value: options.token, url: server.baseUrl }]);
  }
  const page = await context.newPage();
  // Generous: two test files run at a time on two cores, so a step can take a while; a step that
  // never happens still fails, and the test's own limit (60 s) stays.
  page.setDefaultTimeout(20_000);
  const errors: string[] = [];
  const allowed: RegExp[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = `${msg.text()} @ ${msg.location().url}`;
    if (!allowed.some((re) => re.test(text))) errors.push(`console: ${text}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return {
    context,
    page,
    errors,
    allow: (re) => allowed.push(re),
    assertNoErrors() {
      if (errors.length) throw new Error(`Browser errors:\n${errors.join('\n')}`);
    },
    close: () => context.close(),
  };
}

/** Saves a PNG to e2e/artifacts/. `fullPage: false` for overlays that a resize would close. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/**
 * Lets a screen finish loading: no spinner or skeleton left, fonts in, then nothing moving (at most
 * `pauseMs`, see untilStill). (Not "network idle": some pages keep a live-update stream open.)
 */
export async function settle(page: Page, pauseMs = 350): Promise<void> {
  await page.waitForLoadState('load');
  await page
    .waitForFunction(
      // A section that waits to be scrolled near (.when-near, data-near="false") keeps its skeleton
      // for good: that is the page at rest, not loading.
      () =>
        !Array.from(
          document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active, .boot-spinner'),
        ).some((el) => !el.closest('.when-near[data-near="false"]')),
      null,
      { timeout: 5000 },
    )
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready);
  await untilStill(page, pauseMs);
}

/**
 * Waits until nothing on the page moves: no running CSS animation or transition (a drawer sliding, a
 * tab's ink bar, a fade) for three frames in a row, or `maxMs` at most (what a fixed pause waited
 * before, whatever the page did). Endless ones (a spinner's turn) never end, so they do not count.
 * The charts draw without animating (reduced motion), so this sees everything that moves.
 */
export async function untilStill(page: Page, maxMs = 350): Promise<void> {
  const started = Date.now();
  const still = await page
    .evaluate(
      (max) =>
        new Promise<boolean>((resolve) => {
          const until = performance.now() + max;
          let quiet = 0;
          const moving = () =>
            document.getAnimations().some((a) => {
              if (a.playState !== 'running') return false;
              const iterations = a.effect?.getComputedTiming().iterations;
              return iterations !== Number.POSITIVE_INFINITY;
            });
          const tick = () => {
            quiet = moving() ? 0 : quiet + 1;
            if (quiet >= 3) resolve(true);
            else if (performance.now() >= until) resolve(false);
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
          // Frames may stop coming (a page being replaced): the limit holds anyway.
          setTimeout(() => resolve(false), max);
        }),
      maxMs,
    )
    .catch(() => false);
  // Not seen still (or the page was replaced meanwhile): the whole pause, as before.
  if (!still) await page.waitForTimeout(Math.max(0, maxMs - (Date.now() - started))).catch(() => undefined);
}

/** The page's running animations (CSS animations and transitions), as "name on element's classes". */
export function runningAnimations(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === 'running')
      .map((a) => {
        const target = (a.effect as KeyframeEffect | null)?.target;
        const name = 'animationName' in a ? String(a.animationName) : 'transition';
        return `${name} on ${target instanceof Element ? target.className : '?'}`;
      }),
  );
}

/**
 * Opens `path` in the console already loaded in `page`, the way its own links and menu do: a
 * history entry the router follows, no page load. A sweep over many screens uses it: a full load
 * (page.goto) runs the whole bundle again, ~0.7 s of a CI core per screen. Deep links, reloads and
 * the first visit still take page.goto.
 */
export async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    // The router listens for popstate (as on back/forward) and renders the new location.
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

/** No horizontal scrolling of the page itself (tables scroll inside their own box). */
export async function noPageOverflow(page: Page, what = 'the page scrolls sideways'): Promise<void> {
  // Polled: right after a resize the layout may not have followed yet (its breakpoints are read by
  // a resize observer, then rendered); a page that keeps scrolling sideways still fails.
  await expect
    .poll(() => page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)), {
      message: `${what} (pixels beyond the window)`,
    })
    .toBe(0);
}

/** An embedded server's SQLite file, opened with the driver this Node.js can run (db/driver.ts). */
export function openSqliteFile(file: string, options: { readonly?: boolean } = {}): BetterSqlite3.Database {
  const Sqlite = loadSqliteDriver();
  return new Sqlite(file, { fileMustExist: true, readonly: options.readonly ?? false });
}

/**
 * Moves a phone's SMS codes `ms` into the past in an embedded (SQLite) server's database, as if that
 * time had passed: the 60 s resend rule is then behind it, without waiting a minute in the test.
 */
export function ageSmsCodes(server: TestServer, phone: string, ms: number): void {
  const db = openSqliteFile(path.join(server.dataDir, 'app.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE sms_codes SET created_at = created_at - ? WHERE phone = ?').run(ms, phone);
  } finally {
    db.close();
  }
}

/**
 * Waits until one of the locator's elements is visible. playwright-core has no `expect`. Visible
 * ones only: pages kept in hidden tabs (cached views) hold the same elements, not displayed.
 */
export async function see(locator: Locator, timeout?: number): Promise<void> {
  await locator
    .filter({ visible: true })
    .first()
    .waitFor({ state: 'visible', ...(timeout ? { timeout } : {}) });
}

/**
 * Opens the avatar menu and picks `item`. Waits until the menu has finished sliding in (a click while
 * it moves can land beside the item) and until it has closed again, which proves the item took the
 * click.
 */
export async function chooseFromAvatarMenu(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: '用户菜单' }).click();
  const menu = page.locator('.ant-dropdown').filter({ has: page.getByRole('menuitem', { name: item }) });
  await menu
    .and(page.locator(':not([class*="-appear"]):not([class*="-enter"])'))
    .waitFor({ state: 'visible' });
  await menu.getByRole('menuitem', { name: item }).click();
  await gone(menu.and(page.locator(':not(.ant-dropdown-hidden)')));
}

/**
 * Clicks `target` and waits for `effect` to show. A click that lands while a dialog is still
 * opening can go nowhere on a loaded machine; then the target is clicked again (at most `tries`
 * times), unless the effect has shown meanwhile.
 */
export async function clickFor(target: Locator, effect: Locator, tries = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (await effect.isVisible()) return;
    await target.click({ timeout: 10_000 });
    try {
      await see(effect, 5_000);
      return;
    } catch (err) {
      if (attempt >= tries) throw err;
    }
  }
}

/** Waits until no element matches (or all are hidden). */
export async function gone(locator: Locator, timeout?: number): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', ...(timeout ? { timeout } : {}) });
}

export const PRODUCT_TITLE = '微信 API 客户控制台';

/**
 * Waits until the shell shows the page with this route title: the document title is
 * `{title} - {product}` (spec §2) and its tab is the active one. Independent of the page's own
 * content, which later issues fill in.
 */
export async function onPage(page: Page, title: string): Promise<void> {
  const expected = `${title} - ${PRODUCT_TITLE}`;
  try {
    await page.waitForFunction((t) => document.title === t, expected);
  } catch (error) {
    throw new Error(`Expected the page "${expected}", found "${await page.title()}" at ${page.url()}`, {
      cause: error,
    });
  }
  await see(page.locator('.app-main > *'));
}

/** Client-side navigation in the open tab (the router follows popstate): no reload, tabs and cached views kept. */
export async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

export const pathname = (page: Page) => new URL(page.url()).pathname;

/** A button's accessible name as antd writes it: a space between two Chinese characters (确 定). */
export const btn = (text: string) => new RegExp(`^\\s*${[...text].join('\\s*')}\\s*$`);
