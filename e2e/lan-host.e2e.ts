/**
 * The console opened by a LAN name over plain http (`http://console.test:<port>/login`), the way an
 * on-premise customer opens it from another machine. Chromium resolves `console.test` to 127.0.0.1
 * (host-resolver rule), so the traffic stays on loopback. Over http the service must not ask the
 * browser to upgrade to https (CSP upgrade-insecure-requests, HSTS): there is no https there, and
 * every asset would fail, leaving a blank page.
 */
import { type Browser, chromium, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  openPage,
  see,
  startServer,
  startServerAndBrowser,
  type TestServer,
} from './harness';

const LAN_HOST = 'console.test';

let server: TestServer;
let browser: Browser;
let lanUrl: string;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser(
    () => startServer(),
    () =>
      chromium.launch({
        executablePath: CHROMIUM,
        args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`],
        headless: true,
      }),
  ));
  lanUrl = `http://${LAN_HOST}:${new URL(server.baseUrl).port}`;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page opened by the LAN name, with every request it makes and every one that failed. */
async function openOnLan() {
  const t = await openPage(browser, { ...server, baseUrl: lanUrl });
  const { page } = t;
  // Chromium notes that it ignores Cross-Origin-Opener-Policy on a plain-http origin other than
  // localhost; the header stays for 127.0.0.1 and https, where it takes effect.
  t.allow(/Cross-Origin-Opener-Policy header has been ignored/);
  const requests: string[] = [];
  const failed: string[] = [];
  page.on('request', (req: Request) => {
    requests.push(req.url());
  });
  page.on('requestfailed', (req: Request) => {
    const reason = req.failure()?.errorText ?? '';
    // A request the page itself cancels (a superseded fetch) is not a transport failure.
    if (reason !== 'net::ERR_ABORTED') failed.push(`${req.url()} ${reason}`);
  });
  return { t, page, requests, failed };
}

describe('console over plain http on a LAN name', () => {
  it('renders the login form, and no request goes to https or leaves the LAN name', async () => {
    const { t, page, requests, failed } = await openOnLan();

    const response = await page.goto('/login');
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBeUndefined();

    await see(page.getByLabel('账号', { exact: true }));
    await see(page.getByLabel('密码', { exact: true }));
    await see(page.getByRole('button', { name: '登 录' }));
    expect(page.url()).toBe(`${lanUrl}/login`);

    // The page loaded its scripts, styles and API calls from where it came from, over http.
    expect(requests.length).toBeGreaterThan(1);
    for (const url of requests) {
      if (url.startsWith('data:') || url.startsWith('blob:')) continue;
      expect(url, url).toMatch(new RegExp(`^${lanUrl.replace(/[.]/g, '\\.')}/`));
    }
    expect(requests.filter((url) => url.startsWith('https:'))).toEqual([]);
    expect(failed).toEqual([]);
    t.assertNoErrors();
    await t.close();
  });

  it('the API reference page (/docs) loads its scripts over http and lists the calls', async () => {
    const { t, page, requests, failed } = await openOnLan();

    const response = await page.goto('/docs');
    expect(response?.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
    await see(page.getByRole('heading', { name: /微信 API 客户控制台 API/ }));
    await see(page.locator('.opblock-summary-path[data-path="/api/normal/siteInfo"]'));

    expect(requests.filter((url) => url.startsWith('https:'))).toEqual([]);
    expect(failed).toEqual([]);
    t.assertNoErrors();
    await t.close();
  });
});
