/**
 * Issue 11 §1, the operator's console, in the browser: an operator signing in lands on the operator
 * area with a top bar for operators (no customer items, no error toasts); on a customer page an
 * operator picks a company (by name or phone) and reads that company's console read-only under a
 * 正在查看 banner — its figures, lists and records, no button that changes anything, every read
 * sent for that company and written to the audit log, writes refused by the service — switches
 * company and leaves; and uploads the support QR and text customers then see under 联系客服.
 * Screenshots at 1440 and 375 px go to e2e/artifacts/operator-*.png.
 */

import path from 'node:path';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as authCalls from '@wxc/contract/calls/auth';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import { SUPPORT_VIEW_HEADER } from '@wxc/contract/constants';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  apiLogin,
  CAPTCHA,
  type Company,
  DESKTOP,
  gone,
  loginMessagingAccount,
  MOBILE,
  noPageOverflow,
  onPage,
  openPage,
  openSqliteFile,
  payingCompany,
  screenshot,
  see,
  seedCompany,
  settle,
  type TestPage,
  untilStill,
  useSuite,
} from './harness';
import { qrLikePng } from './png';

const suite = useSuite({
  RATE_LIMIT_PER_MINUTE: '100000',
  SEND_INTERVAL_MS: '0',
  SIM_REPLY_DELAY_MS: '200',
  SIM_CHATTER_SECONDS: '0',
});
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server, ADMIN.account, ADMIN.password);
});

const errorToasts = (page: Page) => page.locator('.ant-message-notice .ant-message-error');

/** A company with a paid package, API access, one messaging account online and one message sent. */
async function busyCompany(
  companyName: string,
): Promise<Company & { id: string; nickname: string; text: string }> {
  const company = await payingCompany(suite.server, { companyName });
  const account = await loginMessagingAccount(suite.server, company);
  const contacts = await suite.server.api(
    messagingCalls.getAddressList,
    { wxid: account.wxid },
    company.token,
  );
  const friend = contacts.data.list.find((c) => c.kind === 'friend')!;
  const text = `运营可见的消息 ${company.phone.slice(-4)}`;
  const sent = await suite.server.api(
    messagingCalls.sendMsgText,
    { wxid: account.wxid, toWxid: friend.wxid, content: text },
    company.token,
  );
  expect(sent.code).toBe('200');
  const me = await suite.server.api(authCalls.refreshLoginInfo, {}, company.token);
  return { ...company, id: me.data.id, nickname: account.nickname, text };
}

/** Records every API call the page makes: path, the support-view header, and the answer's code. */
function recordApi(t: TestPage) {
  const calls: Array<{ path: string; viewed: string | undefined; code: string }> = [];
  t.page.on('response', async (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/api/') || url.pathname === '/api/events') return;
    const viewed = (await res.request().allHeaders())[SUPPORT_VIEW_HEADER];
    const code = await res
      .json()
      .then((b: { code?: unknown }) => String(b.code))
      .catch(() => '');
    calls.push({ path: url.pathname, viewed, code });
  });
  return calls;
}

function auditedReads(companyId: string): string[] {
  const db = openSqliteFile(path.join(suite.server.dataDir, 'app.sqlite'), { readonly: true });
  try {
    const rows = db.prepare(`SELECT detail FROM audit_log WHERE action = 'support.view'`).all() as Array<{
      detail: string;
    }>;
    return rows
      .map((r) => JSON.parse(r.detail) as { companyId: string; call: string })
      .filter((d) => d.companyId === companyId)
      .map((d) => d.call);
  } finally {
    db.close();
  }
}

describe('the operator lands on the operator area', () => {
  it('signing in as the operator opens 运营管理 with an operator’s top bar and no error toasts', async () => {
    const t = await openPage(suite.browser, suite.server);
    const { page } = t;
    await page.goto('/login');
    await page.getByLabel('账号', { exact: true }).fill(ADMIN.account);
    await page.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('图形验证码', { exact: true }).fill(CAPTCHA);
    await page.getByRole('button', { name: '登 录' }).click();
    await page.waitForURL('**/operator/index');
    await onPage(page, '运营管理');
    await settle(page);
    // 1150 ms without a toast, as long as when settle ended with a fixed 350 ms pause.
    await page.waitForTimeout(1150);
    expect(await page.locator('.ant-message-notice').count()).toBe(0);

    const bar = page.locator('.navbar');
    // What fits an operator: 运营管理 and the company switcher …
    await see(bar.getByTestId('nav-operator'));
    await see(bar.getByRole('button', { name: '查看客户控制台' }));
    // … and none of the customer's items.
    expect(await bar.locator('.realname-badge').count()).toBe(0);
    expect(await bar.getByRole('button', { name: '开通说明' }).count()).toBe(0);
    expect(await bar.getByRole('button', { name: 'API 信息' }).count()).toBe(0);
    expect(await bar.getByRole('button', { name: '联系客服' }).count()).toBe(0);
    expect(await bar.getByRole('link', { name: /购买/ }).count()).toBe(0);
    expect(await bar.getByTestId('wx-count').count()).toBe(0);
    await screenshot(page, 'operator-landing-1440', false);

    // The customer home without a company chosen sends the operator back here.
    for (const path of ['/', '/dashboard']) {
      await page.goto(path);
      await page.waitForURL('**/operator/index');
    }
    expect(await errorToasts(page).count()).toBe(0);
    t.assertNoErrors();
    await t.close();
  });

  it('at 375 px: the compact switcher and 运营管理 in the avatar menu, nothing of the customer’s', async () => {
    const t = await openPage(suite.browser, suite.server, { token: adminToken, viewport: MOBILE });
    const { page } = t;
    await page.goto('/');
    await page.waitForURL('**/operator/index');
    await onPage(page, '运营管理');
    await settle(page);
    await see(page.getByRole('button', { name: '查看客户控制台' }));
    expect(await page.locator('.navbar .realname-badge').count()).toBe(0);
    await page.getByRole('button', { name: '用户菜单' }).click();
    await see(page.getByRole('menuitem', { name: '运营管理' }));
    for (const name of ['API 信息', 'API 开通说明', '购买套餐'])
      expect(await page.getByRole('menuitem', { name }).count(), name).toBe(0);
    await untilStill(page, 400);
    await screenshot(page, 'operator-landing-avatar-375', false);
    await page.keyboard.press('Escape');
    await noPageOverflow(page, 'operator area at 375');
    // The switcher's dialog fits a phone.
    await page.getByRole('button', { name: '查看客户控制台' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '查看客户控制台（只读）' });
    await see(dialog.getByLabel('搜索公司'));
    await settle(page);
    await screenshot(page, 'operator-switcher-375', false);
    await page.keyboard.press('Escape');
    t.assertNoErrors();
    await t.close();
  });
});

describe('support view', () => {
  it('picks a company by phone on a customer page and reads its console read-only; every read is for that company and audited', {
    timeout: 180_000,
  }, async () => {
    const acme = await busyCompany('星河只读科技有限公司');
    const other = await seedCompany(suite.server, { companyName: '东岭贸易有限公司' });
    const t = await openPage(suite.browser, suite.server, { token: adminToken });
    const { page } = t;
    const calls = recordApi(t);

    // A customer page with no company chosen: a chooser instead of 40300 toasts.
    await page.goto('/wechatList/index');
    await onPage(page, '微信管理');
    const chooser = page.getByTestId('support-chooser');
    await see(chooser);
    await chooser.getByLabel('搜索公司').fill(acme.phone);
    await expect.poll(() => chooser.getByTestId('company-pick').count()).toBe(1);
    await see(chooser.getByTestId('company-pick').getByText(acme.companyName));
    await settle(page);
    await screenshot(page, 'operator-chooser-1440');
    await chooser.getByTestId('company-pick').click();

    // The banner, and the company's own records.
    const banner = page.getByTestId('support-banner');
    await see(banner.getByText(`正在查看：${acme.companyName}`));
    await see(banner.getByText(/已记录查看/));
    await see(page.getByRole('row').filter({ hasText: acme.nickname }).getByText('在线'));
    const main = page.locator('.app-main');
    for (const name of ['添加账号', '下线', '到期时间', '重新登录'])
      expect(await main.getByRole('button', { name }).count(), name).toBe(0);
    expect(await main.locator('.ant-typography-edit').count()).toBe(0);
    await see(page.getByTestId('live-badge').getByText(/只读查看/));
    await page
      .getByRole('row')
      .filter({ hasText: acme.nickname })
      .getByRole('button', { name: '消息' })
      .click();
    const drawer = page.locator('.ant-drawer');
    await see(drawer.getByText(acme.text));
    await see(drawer.getByText('只读查看：不能代客户发送消息。'));
    expect(await drawer.getByRole('textbox', { name: '消息内容' }).count()).toBe(0);
    await settle(page);
    await screenshot(page, 'operator-support-messages-1440', false);
    await page.keyboard.press('Escape');
    await gone(drawer);

    // 用户中心: the figures and the checklist as the customer sees them, without links.
    await page.locator('.sidebar').getByRole('menuitem', { name: '用户中心' }).click();
    await onPage(page, '用户中心');
    await expect
      .poll(() => page.getByTestId('stat-getTotalCount').getByTestId('stat-value').textContent())
      .toBe('1');
    const gs = page.getByTestId('getting-started');
    await see(gs);
    for (const [key, done] of [
      ['package', 'true'],
      ['subAccount', 'true'],
      ['login', 'true'],
      ['message', 'true'],
      ['callback', 'false'],
      ['realName', 'false'],
    ] as const)
      await expect
        .poll(() => gs.getByTestId(`gs-step-${key}`).getAttribute('data-done'), { message: key })
        .toBe(done);
    expect(await gs.getByRole('button').count()).toBe(0);
    // 已开通服务 is below the fold: it loads when scrolled to.
    await page.getByText('已开通服务', { exact: true }).scrollIntoViewIfNeeded();
    await see(page.getByText('基础版·月付').first());
    await settle(page);
    await screenshot(page, 'operator-support-dashboard-1440');

    // 套餐: catalogue, packages and orders, with nothing to buy, renew, pay or cancel.
    await page.locator('.sidebar').getByRole('menuitem', { name: '套餐' }).click();
    await onPage(page, '套餐');
    await see(page.getByTestId('package-card').first());
    expect(await main.getByRole('button', { name: /立即购买|不适用/ }).count()).toBe(0);
    await settle(page);
    await screenshot(page, 'operator-support-packages-1440', false);
    await page.getByRole('tab', { name: '我的套餐' }).click();
    await see(page.getByTestId('subscription'));
    expect(await main.getByRole('button', { name: '续费' }).count()).toBe(0);
    await page.getByRole('tab', { name: '购买记录' }).click();
    await see(page.getByRole('cell', { name: '已支付' }));
    expect(await main.getByRole('button', { name: /去支付|取消/ }).count()).toBe(0);

    // 我的API and 子账号: credentials and sub-accounts, no opening, no changes.
    await page.locator('.sidebar').getByRole('menuitem', { name: '我的API' }).click();
    await onPage(page, '我的API');
    await see(page.getByTestId('quota-summary'));
    expect(await main.getByRole('button', { name: '开通 API' }).count()).toBe(0);
    await page.locator('.sidebar').getByRole('menuitem', { name: '子账号' }).click();
    await onPage(page, '子账号');
    await see(page.getByTestId('slots').first());
    for (const name of ['新建子账号', '分配额度', '编辑', '重置密钥', '回收'])
      expect(await main.getByRole('button', { name }).count(), name).toBe(0);
    await main.getByRole('button', { name: '公司 API 设置' }).click();
    await see(page.locator('.ant-drawer').getByText('公司 API 设置（只读）'));
    expect(await page.locator('.ant-drawer').getByRole('button', { name: '保存' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // 在线测试 and 模拟演示: readable, nothing sent on the company's behalf.
    await page.locator('.sidebar').getByRole('menuitem', { name: '在线测试' }).click();
    await onPage(page, '在线测试');
    await see(page.getByText('只读查看：不能代客户调用接口'));
    expect(await main.getByRole('button', { name: '发送请求' }).count()).toBe(0);
    expect(await main.getByRole('button', { name: /保存并测试|发送测试事件|选择文件上传/ }).count()).toBe(0);
    await settle(page);
    await screenshot(page, 'operator-support-online-test-1440', false);
    await page.locator('.sidebar').getByRole('menuitem', { name: '模拟演示' }).click();
    await onPage(page, '模拟演示');
    await see(page.getByTestId('contact').first());
    await page.getByTestId('contact').first().click();
    await see(page.getByText('只读查看：不能代客户发送消息。'));
    expect(await main.getByRole('textbox', { name: '消息内容' }).count()).toBe(0);
    expect(await main.getByRole('button', { name: /扫码登录|^登录$/ }).count()).toBe(0);

    // Every customer call named the company; none was refused; no error toast on the way.
    expect(await errorToasts(page).count()).toBe(0);
    const customerCalls = calls.filter((c) => c.viewed !== undefined);
    expect(customerCalls.length).toBeGreaterThan(15);
    expect(new Set(customerCalls.map((c) => c.viewed))).toEqual(new Set([acme.id]));
    // (An empty code is an answer the page no longer read: a query cancelled by leaving the page.)
    expect(calls.filter((c) => c.code !== '200' && c.code !== '')).toEqual([]);
    // … and each one is in the audit log, as a support-view read of that company.
    const audited = auditedReads(acme.id);
    expect(audited.length).toBeGreaterThanOrEqual(customerCalls.length);
    for (const id of [
      'home.gettingStarted',
      'accountManager.queryHistoryWx',
      'msg.showMsgConsole',
      'package.list',
    ])
      expect(audited, id).toContain(id);

    // Not a client trick: the service refuses a write in the support view (the browser logs the 403).
    t.allow(/status of 403 .*\/api\/accountManager\/openApiAccount/);
    const refused = await page.evaluate(
      async ({ header, companyId }) => {
        const token = decodeURIComponent(document.cookie.match(/Admin-Token=([^;]+)/)?.[1] ?? '');
        const res = await fetch('/api/accountManager/openApiAccount', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: token, [header]: companyId },
          body: JSON.stringify({ name: '运营代开', availableNum: 0 }),
        });
        return ((await res.json()) as { code: string }).code;
      },
      { header: SUPPORT_VIEW_HEADER, companyId: acme.id },
    );
    expect(refused).toBe('40300');
    expect((await suite.server.api(apiAccountCalls.queryApiAccount, {}, acme.token)).data.list).toHaveLength(
      1,
    );

    // Switch company from the top bar: the other company's (empty) console, nothing of the first.
    await page.getByTestId('company-switcher').click();
    const dialog = page.getByRole('dialog').filter({ hasText: '查看客户控制台（只读）' });
    await dialog.getByLabel('搜索公司').fill('东岭');
    await expect.poll(() => dialog.getByTestId('company-pick').count()).toBe(1);
    await dialog.getByTestId('company-pick').click();
    await see(banner.getByText(`正在查看：${other.companyName}`));
    await onPage(page, '模拟演示');
    await see(page.getByText('该公司此刻没有在线的账号'));
    await page.locator('.sidebar').getByRole('menuitem', { name: '用户中心' }).click();
    await onPage(page, '用户中心');
    await expect
      .poll(() => page.getByTestId('stat-getTotalCount').getByTestId('stat-value').textContent())
      .toBe('0');
    await expect.poll(() => page.getByTestId('gs-step-package').getAttribute('data-done')).toBe('false');
    expect(await page.getByText(acme.nickname).count()).toBe(0);

    // Leave: back to the company list; the customer home sends the operator to the operator area again.
    await banner.getByRole('button', { name: '退出查看' }).click();
    await page.waitForURL('**/operator/index?tab=companies');
    await onPage(page, '运营管理');
    expect(await page.getByTestId('support-banner').count()).toBe(0);
    await page.goto('/dashboard');
    await page.waitForURL('**/operator/index');
    expect(await errorToasts(page).count()).toBe(0);
    t.assertNoErrors();
    await t.close();
  });

  it('starts from 注册公司 → 查看控制台, survives a reload, and fits 375 px', {
    timeout: 120_000,
  }, async () => {
    const acme = await busyCompany('南山只读网络有限公司');
    for (const [label, viewport] of [
      ['1440', DESKTOP],
      ['375', MOBILE],
    ] as const) {
      const t = await openPage(suite.browser, suite.server, { token: adminToken, viewport });
      const { page } = t;
      await page.goto('/operator/index?tab=companies');
      await onPage(page, '运营管理');
      const row = page.locator('tr, article').filter({ hasText: acme.companyName }).first();
      await see(row);
      await row.getByRole('button', { name: `查看控制台：${acme.companyName}` }).click();
      await page.waitForURL('**/dashboard');
      await onPage(page, '用户中心');
      const banner = page.getByTestId('support-banner');
      await see(banner.getByText(`正在查看：${acme.companyName}`));
      await expect
        .poll(() => page.getByTestId('stat-getTotalCount').getByTestId('stat-value').textContent())
        .toBe('1');
      // A reload keeps the company (this tab only).
      await page.reload();
      await onPage(page, '用户中心');
      await see(banner.getByText(`正在查看：${acme.companyName}`));
      await see(page.getByTestId('getting-started'));
      await settle(page);
      await noPageOverflow(page, `support dashboard at ${label}`);
      await screenshot(page, `operator-support-dashboard-from-companies-${label}`, false);
      if (label === '375') {
        await page.goto('/wechatList/index');
        await onPage(page, '微信管理');
        await see(page.getByTestId('wx-card').first());
        await settle(page);
        await noPageOverflow(page, 'support wechat list at 375');
        await screenshot(page, 'operator-support-wechat-375');
      }
      expect(await errorToasts(page).count()).toBe(0);
      t.assertNoErrors();
      await t.close();
    }
  });
});

describe('support contact', () => {
  it('the operator uploads the QR image and text in 设置; customers see them under 联系客服', async () => {
    const t = await openPage(suite.browser, suite.server, { token: adminToken });
    const { page } = t;
    await page.goto('/operator/index?tab=settings');
    await onPage(page, '运营管理');
    const card = page.getByTestId('support-contact');
    await see(card.getByRole('img', { name: '暂未配置客服二维码' }));
    await card.getByTestId('support-qr-input').setInputFiles({
      name: '客服二维码.png',
      mimeType: 'image/png',
      buffer: qrLikePng(),
    });
    await see(page.getByText('客服二维码已更新'));
    const preview = card.getByTestId('support-qr-preview');
    await see(preview);
    expect(await preview.getAttribute('src')).toMatch(/^\/support-qr\//);
    await card.getByLabel('客服说明').fill('工作日 9:00-21:00，扫码添加专属客服');
    await card.getByRole('button', { name: '保存说明' }).click();
    await see(page.getByText('客服说明已保存'));
    await settle(page);
    await screenshot(page, 'operator-support-contact-1440');

    const company = await seedCompany(suite.server);
    const c = await openPage(suite.browser, suite.server, { token: company.token });
    await c.page.goto('/dashboard');
    await onPage(c.page, '用户中心');
    await c.page.getByRole('button', { name: '联系客服' }).click();
    const popover = c.page.locator('.support-popover');
    await see(popover.getByRole('img', { name: '客服二维码' }));
    expect(await popover.getByRole('img', { name: '客服二维码' }).getAttribute('src')).toMatch(
      /^\/support-qr\//,
    );
    // Visible is not loaded: wait for the image's bytes, then check they decoded.
    await expect
      .poll(() =>
        popover
          .getByRole('img', { name: '客服二维码' })
          .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1)),
      )
      .toBeGreaterThan(0);
    await see(popover.getByText('工作日 9:00-21:00，扫码添加专属客服'));
    await settle(c.page);
    await screenshot(c.page, 'operator-support-contact-customer-1440', false);
    c.assertNoErrors();
    await c.close();

    // Removing the upload falls back to the default (none configured here): the placeholder again.
    await card.getByRole('button', { name: '移除' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /移\s*除/ })
      .click();
    await see(card.getByRole('img', { name: '暂未配置客服二维码' }));
    t.assertNoErrors();
    await t.close();
  });
});
