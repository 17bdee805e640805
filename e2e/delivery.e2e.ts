/**
 * How the console reaches the browser: compressed for clients that accept it and plain for those
 * that don't, hashed assets taken from the browser cache on a repeat visit, and a sign-in page whose
 * form is in the HTML itself (it paints before, and without, any script).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CAPTCHA, onPage, openPage, PRODUCT_TITLE, ROOT, see, seedCompany, useSuite } from './harness';

const suite = useSuite();

interface Seen {
  url: string;
  encoding: string | undefined;
  fromCache: boolean;
}

/** Every response of the page as Chromium saw it: its content encoding and whether it came from cache. */
async function watch(page: Page, acceptEncoding?: string): Promise<{ seen: Seen[]; cdp: CDPSession }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  if (acceptEncoding) {
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': acceptEncoding } });
  }
  const seen: Seen[] = [];
  const servedFromCache = new Set<string>();
  cdp.on('Network.requestServedFromCache', (e) => servedFromCache.add(e.requestId));
  cdp.on('Network.responseReceived', (e) => {
    const headers = e.response.headers as Record<string, string>;
    seen.push({
      url: e.response.url,
      encoding: headers['content-encoding'] ?? headers['Content-Encoding'],
      fromCache: Boolean(e.response.fromDiskCache || servedFromCache.has(e.requestId)),
    });
  });
  return { seen, cdp };
}

/** A console file's size as built. */
const builtSize = (url: string) => statSync(path.join(ROOT, 'apps/web/dist', new URL(url).pathname)).size;

const assets = (seen: Seen[]) => seen.filter((s) => new URL(s.url).pathname.startsWith('/assets/'));

async function signIn(page: Page, phone: string, password: string) {
  await page.goto('/login');
  await page.locator('form[data-form-ready]').waitFor();
  await page.getByLabel('账号', { exact: true }).fill(phone);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('图形验证码', { exact: true }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登 录' }).click();
  await page.waitForURL('**/dashboard');
  await onPage(page, '用户中心');
}

describe('console delivery', () => {
  for (const [kind, accept, expected] of [
    ['a brotli client', 'gzip, deflate, br', 'br'],
    ['a gzip-only client', 'gzip, deflate', 'gzip'],
    ['a client that takes no compression', 'identity', undefined],
  ] as const) {
    it(`${kind} signs in and gets a working console`, async () => {
      const company = await seedCompany(suite.server);
      const t = await openPage(suite.browser, suite.server);
      const { seen } = await watch(t.page, accept);
      await signIn(t.page, company.phone, company.password);
      await see(t.page.locator('.stat-card .stat-value').first());
      const scripts = assets(seen).filter((s) => s.url.endsWith('.js'));
      expect(scripts.length).toBeGreaterThan(3);
      // Under 1 KB a file goes as it is, compressed neither by the build nor on the fly: the
      // headers would cost more than compression saves.
      const large = scripts.filter((s) => builtSize(s.url) >= 1024);
      expect(large.length).toBeGreaterThan(3);
      for (const s of large) expect(s.encoding, s.url).toBe(expected);
      for (const s of scripts.filter((s) => builtSize(s.url) < 1024))
        expect(s.encoding, s.url).toBeUndefined();
      const pages = seen.filter((s) => new URL(s.url).pathname === '/login');
      expect(pages[0]?.encoding).toBe(expected);
      t.assertNoErrors();
      await t.close();
    });
  }

  it('a repeat visit takes every hashed asset from the browser cache', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    await t.page.goto('/dashboard');
    await see(t.page.locator('.stat-card .stat-value').first());
    // Everything the first visit loads is in the cache once the chart is drawn. (Not "network
    // idle": the dashboard keeps its live-event stream open.)
    await see(t.page.locator('.dash-card .month-chart svg').first());
    // And the showcase's route table, a chunk asked for once the site's settings say the showcase is
    // on (outside production): its menu group shows when it has loaded (CI once went on while it
    // was still on its way, and the repeat visit fetched it).
    await see(t.page.locator('.sidebar').getByText('模板示例'));
    const { seen } = await watch(t.page);
    await t.page.goto('/dashboard');
    await see(t.page.locator('.stat-card .stat-value').first());
    const again = assets(seen);
    expect(again.length).toBeGreaterThan(3);
    // Immutable for a year: not even revalidated.
    expect(again.filter((s) => !s.fromCache).map((s) => s.url)).toEqual([]);
    // The page itself is revalidated every time (no-cache with an ETag).
    const doc = seen.find((s) => new URL(s.url).pathname === '/dashboard');
    expect(doc?.fromCache).toBe(false);
    t.assertNoErrors();
    await t.close();
  });

  it('the sign-in form is in the HTML: it shows with scripts off, with the product title', async () => {
    const context = await suite.browser.newContext({
      javaScriptEnabled: false,
      baseURL: suite.server.baseUrl,
    });
    const page = await context.newPage();
    for (const [address, title, button] of [
      ['/login', '登录', '登 录'],
      ['/register', '注册', '注册并登录'],
    ] as const) {
      await page.goto(address);
      expect(await page.title()).toBe(`${title} - ${PRODUCT_TITLE}`);
      await see(page.getByRole('heading', { name: PRODUCT_TITLE }));
      await see(page.getByRole('button', { name: button, exact: true }));
      expect(await page.getByText(`© ${new Date().getFullYear()} ${PRODUCT_TITLE}`).count()).toBe(1);
      // No placeholder is left for a person to see.
      expect(await page.content()).not.toContain('__');
    }
    await context.close();
  });
});
