import * as authCalls from '@wxc/contract/calls/auth';
import { SMS_RESEND_SECONDS, TOKEN_COOKIE } from '@wxc/contract/constants';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  ageSmsCodes,
  apiLogin,
  CAPTCHA,
  type Company,
  chooseFromAvatarMenu,
  onPage,
  openPage,
  see,
  seedCompany,
  type TestPage,
  uniquePhone,
  useSuite,
} from './harness';

const suite = useSuite();

let forgotCompany: Company;
let forgotSeededAt = 0;

beforeAll(async () => {
  // Seeded first: its registration SMS must be 60 s old before the reset can send another.
  forgotCompany = await seedCompany(suite.server);
  forgotSeededAt = Date.now();
});

async function fillLogin(t: TestPage, account: string, password: string) {
  const { page } = t;
  await page.getByLabel('账号', { exact: true }).fill(account);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('图形验证码', { exact: true }).fill(CAPTCHA);
  await page.getByRole('button', { name: '登 录' }).click();
}

describe('sign-in screen', () => {
  it('registers with the SMS code from the outbox, lands on the dashboard, and a reload keeps the session', async () => {
    const t = await openPage(suite.browser, suite.server);
    const { page } = t;
    const phone = uniquePhone();
    await page.goto('/register');
    await expect.poll(() => page.title()).toBe('注册 - 微信 API 客户控制台');
    await page.getByText('本地部署').click();
    await page.getByLabel('公司名称').fill('示例网络科技有限公司');
    await page.getByLabel('手机号（登录账号）').fill(phone);
    await page.getByLabel('密码', { exact: true }).fill('Passw0rd2024');
    await page.getByLabel('确认密码').fill('Passw0rd2024');

    // Inline rules before any request: the SMS send needs the captcha, the submit the agreement.
    await page.getByRole('button', { name: '获取验证码' }).click();
    await see(page.getByText('请输入图形验证码'));
    await page.getByLabel('图形验证码', { exact: true }).fill(CAPTCHA);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => page.getByRole('button', { name: /秒后重发/ }).isDisabled()).toBe(true);
    const code = await suite.server.smsCode(phone, 'register');
    await page.getByLabel('短信验证码').fill(code);
    await page.getByRole('button', { name: '注册并登录' }).click();
    await see(page.getByText('请阅读并同意服务协议'));
    await page.getByLabel(/我已阅读并同意/).check();
    await page.getByRole('button', { name: '注册并登录' }).click();

    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.title()).toBe('用户中心 - 微信 API 客户控制台');
    await see(page.getByRole('button', { name: '用户菜单' }));
    const cookie = (await t.context.cookies()).find((c) => c.name === TOKEN_COOKIE);
    expect(cookie?.value).toBeTruthy();

    await page.reload();
    await see(page.getByRole('button', { name: '用户菜单' }));
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    t.assertNoErrors();
    await t.close();
  });

  it('sends a visitor to login with the redirect, refreshes the captcha after a failure, then lands on the target', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server);
    t.allow(/status of 400/); // the browser notes the wrong-password answer
    const { page } = t;
    await page.goto('/myAPI/index?tab=docs');
    await page.waitForURL('**/login?redirect=*');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/myAPI/index?tab=docs');

    const captcha = page.getByRole('img', { name: '图形验证码' });
    await see(captcha);
    const before = await captcha.getAttribute('src');
    await fillLogin(t, company.phone, 'WrongPass999');
    await see(page.getByRole('alert').filter({ hasText: '账号或密码错误' }));
    await expect.poll(() => captcha.getAttribute('src')).not.toBe(before);
    await expect.poll(() => page.getByLabel('图形验证码', { exact: true }).inputValue()).toBe('');

    await fillLogin(t, company.phone, company.password);
    await page.waitForURL('**/myAPI/index?tab=docs');
    await onPage(page, '我的API');
    await expect.poll(() => page.title()).toBe('我的API - 微信 API 客户控制台');
    t.assertNoErrors();
    await t.close();
  });

  it('a sign-in sent while the captcha is still on its way waits for it and goes through', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server);
    const { page } = t;
    // The captcha answers 1.5 s late: the form is filled and sent long before it arrives.
    await page.route(`**${authCalls.getVerifyCode.path}*`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto('/login');
    await page.locator('form[data-form-ready]').waitFor();
    expect(await page.locator('button.captcha').getAttribute('aria-busy')).toBe('true');
    await fillLogin(t, company.phone, company.password);
    await page.waitForURL('**/dashboard');
    await onPage(page, '用户中心');
    t.assertNoErrors();
    await t.close();
  });

  it('shows inline rules from the contract before submitting', async () => {
    const t = await openPage(suite.browser, suite.server);
    const { page } = t;
    await page.goto('/login');
    await page.getByRole('button', { name: '登 录' }).click();
    await see(page.getByText('请输入账号'));
    await see(page.getByText('请输入密码'));
    await page.getByRole('tab', { name: '注册账号' }).click();
    await page.waitForURL('**/register');
    await page.getByLabel('手机号（登录账号）').fill('12345');
    await page.getByLabel('公司名称').click();
    await see(page.getByText('请输入正确的 11 位手机号'));
    await page.getByLabel('密码', { exact: true }).fill('short');
    await page.getByLabel('确认密码').fill('other');
    await page.getByRole('button', { name: '注册并登录' }).click();
    await see(page.getByText('密码需为 8-32 位，且同时包含字母和数字'));
    await see(page.getByText('两次输入的密码不一致'));
    t.assertNoErrors();
    await t.close();
  });

  it('logs out: the server revokes the token, and cookie, tabs and session storage are cleared', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    // A page's calls still in flight when the token is revoked are refused; the browser notes it.
    t.allow(/status of 401/);
    const { page } = t;
    await page.goto('/accountList/index');
    await onPage(page, '子账号');
    await chooseFromAvatarMenu(page, '退出登录');
    await page.waitForURL('**/login');
    expect((await t.context.cookies()).find((c) => c.name === TOKEN_COOKIE)).toBeUndefined();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    const after = await suite.server.api(authCalls.refreshLoginInfo, {}, company.token);
    expect(after.code).toBe('403');
    // No re-login dialog for calls made with the token that was just given up.
    expect(await page.locator('.wxc-confirm').count()).toBe(0);
    // The console's guard sends a visitor on to the sign-in page (a page of its own) while it loads.
    await Promise.all([
      page.waitForURL('**/login?redirect=%2Fdashboard'),
      page.goto('/dashboard', { waitUntil: 'commit' }),
    ]);
    // Closed only once the sign-in page has loaded: closing a context mid-navigation can hang Chromium.
    await see(page.getByRole('button', { name: '登 录' }));
    t.assertNoErrors();
    await t.close();
  });

  it('lets the operator in with the admin role, who sees the operator group', async () => {
    const t = await openPage(suite.browser, suite.server);
    const { page } = t;
    await page.goto('/login?redirect=%2Foperator%2Findex');
    await fillLogin(t, ADMIN.account, ADMIN.password);
    await page.waitForURL('**/operator/index');
    await see(page.locator('.app-main > *'));
    await see(page.locator('.sidebar').getByText('运营', { exact: true }));
    t.assertNoErrors();
    await t.close();
  });

  // The service allows one SMS per number per 60 s, whatever the scene, and the company was just
  // registered with one: the screen shows that refusal as it comes; once the minute has passed
  // (moved in the database), the reset goes through.
  it('resets a forgotten password with an SMS code, then logs in with the new one', async () => {
    const company = forgotCompany;
    const t = await openPage(suite.browser, suite.server);
    t.allow(/status of 429/);
    const { page } = t;
    await page.goto('/login');
    await page.getByLabel('账号', { exact: true }).fill(company.phone);
    await page.getByRole('button', { name: '忘记密码？' }).click();
    await see(page.getByRole('heading', { name: '找回密码' }));
    await expect.poll(() => page.getByLabel('注册手机号').inputValue()).toBe(company.phone);
    const sendCode = async () => {
      // A fresh captcha first (the one shown after a send is used up until its successor arrives).
      await expect.poll(() => page.locator('button.captcha').getAttribute('aria-busy')).toBe('false');
      await page.getByLabel('图形验证码', { exact: true }).fill(CAPTCHA);
      await page.getByRole('button', { name: '获取验证码' }).click();
    };
    // Well inside the minute (a margin for a slow machine): the refusal shows.
    if (Date.now() - forgotSeededAt < (SMS_RESEND_SECONDS - 20) * 1000) {
      await sendCode();
      await see(page.getByRole('alert').filter({ hasText: '验证码发送过于频繁' }));
    }
    // The minute passes in the database rather than in the test.
    ageSmsCodes(suite.server, company.phone, SMS_RESEND_SECONDS * 1000);
    await sendCode();
    const code = await suite.server.smsCode(company.phone, 'resetPassword');
    await page.getByLabel('短信验证码').fill(code);
    await page.getByLabel('新密码', { exact: true }).fill('NewPassw0rd99');
    await page.getByLabel('确认新密码').fill('NewPassw0rd99');
    await page.getByRole('button', { name: '重置密码' }).click();
    await see(page.getByText('密码已重置，请使用新密码登录。'));
    await expect.poll(() => page.getByLabel('账号', { exact: true }).inputValue()).toBe(company.phone);
    await fillLogin(t, company.phone, 'NewPassw0rd99');
    await page.waitForURL('**/dashboard');
    t.assertNoErrors();
    await t.close();
  });

  it('sends a stale session to login with the service message, without the re-login dialog', async () => {
    const company = await seedCompany(suite.server);
    expect((await suite.server.api(authCalls.logout, {}, company.token)).code).toBe('200');
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    t.allow(/status of 401/);
    const { page } = t;
    await Promise.all([
      page.waitForURL('**/login?redirect=%2FwechatList%2Findex'),
      page.goto('/wechatList/index', { waitUntil: 'commit' }),
    ]);
    // The service's message travels to the sign-in page (session storage, not the URL).
    await see(page.getByRole('alert').getByText('登录已过期，请重新登录'));
    expect(await page.locator('.wxc-confirm').count()).toBe(0);
    expect((await t.context.cookies()).find((c) => c.name === TOKEN_COOKIE)).toBeUndefined();
    t.assertNoErrors();
    await t.close();
  });

  it('tells visitors when self-registration is closed', async () => {
    const adminToken = await apiLogin(suite.server, ADMIN.account, ADMIN.password);
    expect((await suite.server.api(authCalls.openAutoRegiste, { open: false }, adminToken)).code).toBe('200');
    try {
      const t = await openPage(suite.browser, suite.server);
      await t.page.goto('/register');
      await see(t.page.getByText('暂未开放自助注册，如需开通账号请联系客服。'));
      expect(await t.page.getByRole('button', { name: '注册并登录' }).count()).toBe(0);
      t.assertNoErrors();
      await t.close();
    } finally {
      await suite.server.api(authCalls.openAutoRegiste, { open: true }, adminToken);
    }
  });
});
