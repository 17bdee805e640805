/**
 * /auth-redirect finishes a sign-in handed over by another window or page: a popup takes the token
 * from its opener (postMessage, same origin and the opener window only), or a page takes it from the
 * URL fragment `#token=` (never a query parameter). The token is checked with refreshLoginInfo,
 * stored like a login, then the popup closes itself, or the page goes on to `redirect` (paths of
 * this site only). Opened on its own, the page explains itself and links to the login.
 */
import { TOKEN_COOKIE } from '@wxc/contract/constants';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MOBILE, onPage, openPage, screenshot, see, seedCompany, useSuite } from './harness';

const suite = useSuite({ RATE_LIMIT_PER_MINUTE: '100000' });

/** A token of the right shape that no session has. */
const UNKNOWN_TOKEN = 'Zm9yZ2VkLXRva2VuLXRoYXQtbm8tc2Vzc2lvbi1oYXM';

async function tokenCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === TOKEN_COOKIE)?.value;
}

describe('/auth-redirect', () => {
  it('opened on its own explains what it is for and links to the login, without forwarding', async () => {
    for (const viewport of [undefined, MOBILE]) {
      const t = await openPage(suite.browser, suite.server, viewport ? { viewport } : {});
      const { page } = t;
      await page.goto('/auth-redirect?redirect=%2FmyAPI%2Findex');
      const card = page.getByTestId('auth-redirect');
      await expect.poll(() => card.getAttribute('data-state')).toBe('idle');
      await see(page.getByRole('heading', { name: '这是登录交接页' }));
      await page.waitForTimeout(800);
      expect(new URL(page.url()).pathname).toBe('/auth-redirect');
      const login = page.getByRole('link', { name: '前往登录' });
      expect(await login.getAttribute('href')).toBe('/login?redirect=%2FmyAPI%2Findex');
      await screenshot(page, `auth-redirect-idle-${viewport ? '375' : '1440'}`);
      await login.click();
      await page.waitForURL('**/login?redirect=%2FmyAPI%2Findex');
      t.assertNoErrors();
      await t.close();
    }
  });

  it('takes the token from its opener in a popup, stores it, tells the opener and closes itself', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server);
    const { page, context } = t;
    await page.goto('/agreement');
    await page.waitForFunction(() => document.title.startsWith('服务协议'));

    // The opener: a page of this site that has a token to hand over (as after a third-party sign-in).
    const popupPromise = context.waitForEvent('page');
    await page.evaluate((token) => {
      const log: string[] = [];
      (window as unknown as { handoffLog: string[] }).handoffLog = log;
      const popup = window.open('/auth-redirect', 'wxc-signin', 'width=480,height=640');
      window.addEventListener('message', (event) => {
        if (event.origin !== location.origin || event.source !== popup) return;
        log.push(String((event.data as { type?: string }).type));
        if ((event.data as { type?: string }).type === 'wxc:auth-ready') {
          popup?.postMessage({ type: 'wxc:auth-token', token }, location.origin);
        }
      });
    }, company.token);
    const popup = await popupPromise;
    await popup.waitForEvent('close', { timeout: 10_000 });

    await expect
      .poll(() => page.evaluate(() => (window as unknown as { handoffLog: string[] }).handoffLog))
      .toEqual(['wxc:auth-ready', 'wxc:auth-done']);
    expect(await tokenCookie(context)).toBe(company.token);
    // The opener is signed in now.
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    t.assertNoErrors();
    await t.close();
  });

  it('a popup opened by another origin takes no token from it', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server);
    const { page, context } = t;
    // localhost and 127.0.0.1 are different origins of the same service.
    const otherOrigin = suite.server.baseUrl.replace('127.0.0.1', 'localhost');
    await page.goto(`${otherOrigin}/agreement`);
    const popupPromise = context.waitForEvent('page');
    await page.evaluate(
      ({ token, target }) => {
        const popup = window.open(`${target}/auth-redirect`, 'wxc-signin', 'width=480,height=640');
        setInterval(() => popup?.postMessage({ type: 'wxc:auth-token', token }, '*'), 100);
      },
      { token: company.token, target: suite.server.baseUrl },
    );
    const popup = await popupPromise;
    await popup.waitForURL('**/auth-redirect');
    const card = popup.getByTestId('auth-redirect');
    await see(card);
    await popup.waitForTimeout(1500);
    // Cut off from a cross-origin opener (the service's Cross-Origin-Opener-Policy), or ignoring its
    // messages: either way it explains itself or waits, and signs nobody in.
    expect(['idle', 'waiting']).toContain(await card.getAttribute('data-state'));
    expect(popup.isClosed()).toBe(false);
    expect(await tokenCookie(context)).toBeUndefined();
    await screenshot(popup, 'auth-redirect-cross-origin-popup');
    t.assertNoErrors();
    await t.close();
  });

  it('takes a token from the fragment, drops it from the address, and goes on to the redirect', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: 'stale-token-from-an-old-session' });
    t.allow(/status of 401/);
    const { page, context } = t;
    await page.goto(`/auth-redirect?redirect=%2FmyAPI%2Findex#token=${company.token}`);
    await page.waitForURL('**/myAPI/index');
    await onPage(page, '我的API');
    expect(page.url()).not.toContain(company.token);
    expect(await tokenCookie(context)).toBe(company.token);
    // The token never went to the server in a URL.
    expect(suite.server.log.join('\n')).not.toContain(company.token);
    t.assertNoErrors();
    await t.close();
  });

  it('goes home instead of to another site, and ignores a token in the query', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server);
    const { page, context } = t;
    await page.goto(
      `/auth-redirect?redirect=${encodeURIComponent('//evil.example/x')}#token=${company.token}`,
    );
    await page.waitForURL('**/dashboard');
    await onPage(page, '用户中心');
    expect(await tokenCookie(context)).toBe(company.token);
    t.assertNoErrors();
    await t.close();

    const q = await openPage(suite.browser, suite.server);
    await q.page.goto(`/auth-redirect?token=${company.token}`);
    await expect.poll(() => q.page.getByTestId('auth-redirect').getAttribute('data-state')).toBe('idle');
    expect(await tokenCookie(q.context)).toBeUndefined();
    q.assertNoErrors();
    await q.close();
  });

  it('shows a clear error for an invalid token in the fragment', async () => {
    for (const viewport of [undefined, MOBILE]) {
      const t = await openPage(suite.browser, suite.server, viewport ? { viewport } : {});
      t.allow(/status of 401/); // the browser notes the refused check
      const { page, context } = t;
      await page.goto(`/auth-redirect?redirect=%2FmyAPI%2Findex#token=${UNKNOWN_TOKEN}`);
      await see(page.getByRole('heading', { name: '登录未完成' }));
      expect(await page.getByRole('alert').innerText()).toBe('登录凭证无效或已过期，请重新登录。');
      expect(page.url()).not.toContain('#token');
      expect(await tokenCookie(context)).toBeUndefined();
      expect(await page.getByRole('link', { name: '重新登录' }).getAttribute('href')).toBe(
        '/login?redirect=%2FmyAPI%2Findex',
      );
      await screenshot(page, `auth-redirect-error-${viewport ? '375' : '1440'}`);
      // A malformed token is refused before it is sent anywhere.
      await page.goto('/auth-redirect#token=%3Cscript%3E');
      await see(page.getByRole('heading', { name: '登录未完成' }));
      t.assertNoErrors();
      await t.close();
    }
  });
});
