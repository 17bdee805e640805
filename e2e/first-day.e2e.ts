/**
 * Issue 11 §2, a new customer's first day, in the browser: the 开始使用 checklist ticking itself
 * through all six steps, each done from its own link; the dead ends of a fresh company (添加账号
 * with nothing to log in with, a 0-allocation sub-account) saying what to do next and linking
 * there; 新建子账号 defaulting to the free slots; sending from 微信管理 → 消息; callback texts that
 * say what is true; the tier rule in the catalogue and the API-opening dialog. Screenshots at 1440
 * and 375 px go to e2e/artifacts/first-day-*.png.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as authCalls from '@wxc/contract/calls/auth';
import * as realNameCalls from '@wxc/contract/calls/realname';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  apiLogin,
  buyAndPay,
  clickFor,
  gone,
  MOBILE,
  noPageOverflow,
  onPage,
  openPage,
  orderPackage,
  runningAnimations,
  screenshot,
  see,
  seedCompany,
  settle,
  startServer,
  startServerAndBrowser,
  type TestServer,
} from './harness';
import { documentPng } from './png';

let server: TestServer;
let browser: Browser;
let adminToken: string;
let sink: Server;

beforeAll(async () => {
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  ({ server, browser } = await startServerAndBrowser(() =>
    startServer({
      RATE_LIMIT_PER_MINUTE: '100000',
      SEND_INTERVAL_MS: '0',
      SIM_REPLY_DELAY_MS: '200',
      SIM_CHATTER_SECONDS: '0',
      // The callbacks go to a receiver on this machine.
      CALLBACK_ALLOW_PRIVATE: 'true',
    }),
  ));
  adminToken = await apiLogin(server, ADMIN.account, ADMIN.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => sink?.close(r));
});

const dialog = (page: Page, title: string) => page.getByRole('dialog').filter({ hasText: title });
const step = (page: Page, key: string) => page.getByTestId(`gs-step-${key}`);
const done = (page: Page, key: string) => step(page, key).getAttribute('data-done');
const count = (page: Page) => page.getByTestId('gs-count').textContent();

async function toDashboard(page: Page) {
  await page.locator('.sidebar').getByRole('menuitem', { name: '用户中心' }).click();
  await onPage(page, '用户中心');
}

async function inViewport(locator: Locator, page: Page): Promise<boolean> {
  const box = await locator.boundingBox();
  const height = page.viewportSize()!.height;
  return Boolean(box && box.y >= 0 && box.y < height);
}

describe('开始使用', () => {
  it('a new company’s first dashboard lists six steps with links, and each ticks itself when done', {
    timeout: 180_000,
  }, async () => {
    const company = await seedCompany(server, { companyName: '初来乍到科技有限公司' });
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    const gs = page.getByTestId('getting-started');
    await see(gs);
    await expect.poll(() => count(page)).toBe('已完成 0/6');
    expect(await step(page, 'package').getAttribute('class')).toContain('is-next');
    await settle(page);
    // At rest nothing moves: the sections waiting to be scrolled near show still skeletons (a
    // shimmering one kept the idle page repainting, a quarter of a core).
    await expect.poll(() => runningAnimations(page)).toEqual([]);
    await screenshot(page, 'first-day-checklist-1440', false);

    // 1. 购买套餐: the link opens the catalogue; buy and pay in the sandbox.
    await step(page, 'package')
      .getByRole('button', { name: /去购买/ })
      .click();
    await onPage(page, '套餐');
    await page
      .getByRole('article', { name: '基础版·月付' })
      .getByRole('button', { name: /立即购买/ })
      .click();
    await dialog(page, '确认订单').getByRole('button', { name: '提交订单' }).click();
    await dialog(page, '沙箱支付')
      .getByRole('button', { name: /确认支付/ })
      .click();
    await see(page.getByText('支付成功，套餐已生效'));
    await page.getByRole('button', { name: /完\s*成/ }).click();
    await toDashboard(page);
    await expect.poll(() => done(page, 'package')).toBe('true');
    await expect.poll(() => count(page)).toBe('已完成 1/6');

    // 2. 新建子账号: the dialog opens at once, with every free slot allocated and the allocation explained.
    await step(page, 'subAccount')
      .getByRole('button', { name: /去新建/ })
      .click();
    await onPage(page, '子账号');
    const open = dialog(page, '新建子账号');
    await see(open);
    expect(await open.getByLabel('分配账号额度').inputValue()).toBe('5');
    await see(
      open.getByTestId('allocation-help').getByText(/最多可同时登录的微信账号数.*可分配 5 个（默认全部）/),
    );
    await open.getByLabel('子账号名称').fill('客服系统');
    await open.getByRole('button', { name: /创\s*建/ }).click();
    // Not copied: it asks first.
    const confirm = page.locator('.ant-modal-confirm');
    await clickFor(dialog(page, '请保存密钥').getByRole('button', { name: '我已保存' }), confirm);
    await confirm.getByRole('button', { name: '确定关闭' }).click();
    await gone(page.getByRole('dialog'));
    await expect
      .poll(() =>
        page
          .locator('.ant-table-tbody tr.ant-table-row')
          .filter({ hasText: '客服系统' })
          .getByTestId('slots')
          .textContent(),
      )
      .toBe('0 / 5');
    await toDashboard(page);
    await expect.poll(() => done(page, 'subAccount')).toBe('true');

    // 3. 登录微信账号: 添加账号 opens with the sub-account chosen; the phone confirms.
    await step(page, 'login')
      .getByRole('button', { name: /去登录/ })
      .click();
    await onPage(page, '微信管理');
    const qr = dialog(page, '添加微信账号');
    await see(qr.getByRole('combobox', { name: '子账号' }));
    await see(qr.getByText('客服系统（在线 0 / 额度 5）'));
    await qr.getByRole('button', { name: /获取二维码/ }).click();
    await see(qr.getByRole('img', { name: '登录二维码' }));
    await qr.getByRole('button', { name: /本页模拟手机确认/ }).click();
    await see(qr.getByText('登录成功'));
    const nickname = (await qr.getByTestId('qr-nickname').textContent())!;
    await qr.getByRole('button', { name: /完\s*成/ }).click();
    await toDashboard(page);
    await expect.poll(() => done(page, 'login')).toBe('true');
    await expect.poll(() => count(page)).toBe('已完成 3/6');
    await settle(page);
    await screenshot(page, 'first-day-checklist-halfway-1440', false);

    // 4. 发送一条消息 — from 微信管理 → 消息, which now sends (and links to the same chat in 模拟演示).
    await page.locator('.sidebar').getByRole('menuitem', { name: '微信管理' }).click();
    await onPage(page, '微信管理');
    await page.getByRole('row').filter({ hasText: nickname }).getByRole('button', { name: '消息' }).click();
    const drawer = page.locator('.ant-drawer');
    const footer = drawer.getByTestId('messages-footer');
    await see(footer.getByRole('textbox', { name: '消息内容' }));
    const peerSelect = footer.locator('.messages-peer');
    await expect
      .poll(async () => (await peerSelect.textContent())?.trim() ?? '')
      .not.toMatch(/^$|选择联系人/);
    const peerName = (await peerSelect.textContent())!.trim().replace(/（群）$/, '');
    await footer.getByRole('textbox', { name: '消息内容' }).fill('第一条消息：测试');
    await footer.getByRole('textbox', { name: '消息内容' }).press('Enter');
    await see(drawer.getByTestId('conversation').getByText('第一条消息：测试'));
    await see(drawer.getByTestId('conversation').getByText('收到：第一条消息：测试'), 10_000);
    await settle(page);
    await screenshot(page, 'first-day-messages-drawer-1440', false);
    await footer.getByRole('link', { name: /在模拟演示中打开/ }).click();
    await onPage(page, '模拟演示');
    await expect.poll(() => page.getByTestId('chat-title').textContent()).toBe(peerName);
    await see(page.getByTestId('conversation').getByText('第一条消息：测试'));
    // No callback URL yet: 模拟演示's delivery log says where to set one, and links there.
    const setCallback = page.locator('.demo-side').getByRole('link', { name: '去设置回调地址' });
    await see(setCallback);
    expect(await setCallback.getAttribute('href')).toBe('/onlineTest/index#callbacks');
    await toDashboard(page);
    await expect.poll(() => done(page, 'message')).toBe('true');

    // 5. 设置回调地址: the link lands on 回调设置; its texts say what is true here.
    await step(page, 'callback')
      .getByRole('button', { name: /去设置/ })
      .click();
    await onPage(page, '在线测试');
    expect(page.url()).toContain('#callbacks');
    const card = page.locator('#callbacks');
    await expect.poll(() => inViewport(card, page)).toBe(true);
    // This service allows private addresses (CALLBACK_ALLOW_PRIVATE): the help says so.
    await see(card.getByTestId('callback-help').getByText(/允许回调到本机或内网地址/));
    expect(await card.getByTestId('callback-help').textContent()).not.toContain('不能指向');
    // The empty delivery log points up to the form on this page, not to this page by name.
    await see(card.getByText(/在上方填写回调地址/));
    expect(await card.textContent()).not.toContain('在线测试 → 回调设置');
    const url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/callback`;
    await card.getByLabel('回调地址').fill(url);
    await card.getByRole('button', { name: /保存并测试/ }).click();
    await see(card.getByText(/已保存：测试投递返回 HTTP 200/));
    await toDashboard(page);
    await expect.poll(() => done(page, 'callback')).toBe('true');

    // 6. 实名认证: the link opens the dialog; once an operator passes the review the step ticks live.
    await step(page, 'realName')
      .getByRole('button', { name: /去认证/ })
      .click();
    await see(dialog(page, '实名认证').getByText(/社保/).first());
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog'));
    const me = await server.api(authCalls.refreshLoginInfo, {}, company.token);
    const form = new FormData();
    form.append(
      'imgs',
      new Blob([new Uint8Array(documentPng(240, 240, [24, 144, 255]))], { type: 'image/png' }),
      '社保.png',
    );
    form.append(
      'imgs',
      new Blob([new Uint8Array(documentPng(240, 240, [207, 19, 34]))], { type: 'image/png' }),
      '执照.png',
    );
    const submitted = await fetch(`${server.baseUrl}${realNameCalls.uploadRealNameSource.path}`, {
      method: 'POST',
      headers: { Authorization: company.token },
      body: form,
    });
    expect(((await submitted.json()) as { code: string }).code).toBe('200');
    expect((await server.api(realNameCalls.passRealNameAuth, { userId: me.data.id }, adminToken)).code).toBe(
      '200',
    );
    await expect.poll(() => done(page, 'realName'), { timeout: 10_000 }).toBe('true');
    await expect.poll(() => count(page)).toBe('已完成 6/6');
    await see(page.getByTestId('gs-all-done'));
    expect(await page.getByTestId('getting-started').getByRole('button', { name: /^去/ }).count()).toBe(0);
    await settle(page);
    await screenshot(page, 'first-day-checklist-done-1440', false);

    // Put away; stays away on the next visit.
    await page.getByRole('button', { name: '收起开始使用' }).click();
    await gone(page.getByTestId('getting-started'));
    await page.reload();
    await onPage(page, '用户中心');
    await see(page.getByTestId('stat-getTotalCount'));
    expect(await page.getByTestId('getting-started').count()).toBe(0);
    t.assertNoErrors();
    await t.close();
  });

  it('fits 375 px', async () => {
    const company = await seedCompany(server);
    const t = await openPage(browser, server, { token: company.token, viewport: MOBILE });
    const { page } = t;
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    await see(page.getByTestId('getting-started'));
    await settle(page);
    await noPageOverflow(page, 'checklist at 375');
    await screenshot(page, 'first-day-checklist-375', false);
    t.assertNoErrors();
    await t.close();
  });
});

describe('no dead ends on the first day', () => {
  it('添加账号 says what is missing and links there: a package, a sub-account, an allocation', {
    timeout: 120_000,
  }, async () => {
    const company = await seedCompany(server);
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;

    // A fresh company: 用户中心 → 去添加账号 opens the dialog, which sends it to buy a package.
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    // 账号明细 is below the fold: it loads when scrolled to.
    await page.getByText('账号明细', { exact: true }).scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: '去添加账号' }).click();
    await onPage(page, '微信管理');
    let qr = dialog(page, '添加微信账号');
    let next = qr.getByTestId('qr-next-step');
    await see(next.getByText('还没有有效套餐'));
    expect(await qr.getByRole('button', { name: /获取二维码/ }).isDisabled()).toBe(true);
    await settle(page);
    await screenshot(page, 'first-day-qr-no-package-1440', false);
    await next.getByRole('button', { name: '去购买套餐' }).click();
    await onPage(page, '套餐');
    await gone(page.getByRole('dialog'));

    // With a package but no sub-account: 新建子账号, which opens its dialog.
    await buyAndPay(server, company, '基础版·月付');
    await page.goto('/wechatList/index?add=1');
    qr = dialog(page, '添加微信账号');
    next = qr.getByTestId('qr-next-step');
    await see(next.getByText('还没有子账号'));
    await next.getByRole('button', { name: '新建子账号' }).click();
    await onPage(page, '子账号');
    await see(dialog(page, '新建子账号'));
    await page.keyboard.press('Escape');

    // A sub-account with no allocation is listed, disabled, saying why; the dialog points to 分配额度.
    const opened = await server.api(
      apiAccountCalls.openApiAccount,
      { name: '零额度应用', availableNum: 0 },
      company.token,
    );
    expect(opened.code).toBe('200');
    await page.goto('/wechatList/index?add=1');
    qr = dialog(page, '添加微信账号');
    next = qr.getByTestId('qr-next-step');
    await see(next.getByText('子账号的额度都已用完'));
    await see(next.getByText(/还有 5 个额度未分配/));
    expect(await qr.getByRole('button', { name: /获取二维码/ }).isDisabled()).toBe(true);
    await qr.getByRole('combobox', { name: '子账号' }).click();
    const option = page.locator('.ant-select-item-option').filter({ hasText: '零额度应用' });
    await see(option.getByText('未分配额度，不能登录'));
    expect(await option.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    await settle(page);
    await screenshot(page, 'first-day-qr-no-allocation-1440', false);
    await next.getByRole('button', { name: '去分配额度' }).click();
    await onPage(page, '子账号');
    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '零额度应用' });
    await row.getByRole('button', { name: '分配额度' }).click();
    const slots = dialog(page, '分配额度');
    await slots.getByLabel('分配账号额度').fill('2');
    await slots.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => row.getByTestId('slots').textContent()).toBe('0 / 2');

    // Now it can: chosen by default, 获取二维码 enabled.
    await page.goto('/wechatList/index?add=1');
    qr = dialog(page, '添加微信账号');
    await see(qr.getByText('零额度应用（在线 0 / 额度 2）'));
    expect(await qr.getByTestId('qr-next-step').count()).toBe(0);
    expect(await qr.getByRole('button', { name: /获取二维码/ }).isDisabled()).toBe(false);
    t.assertNoErrors();
    await t.close();
  });

  it('at 375 px the next step fits the dialog', async () => {
    const company = await seedCompany(server);
    const t = await openPage(browser, server, { token: company.token, viewport: MOBILE });
    const { page } = t;
    await page.goto('/wechatList/index?add=1');
    const qr = dialog(page, '添加微信账号');
    await see(qr.getByTestId('qr-next-step').getByRole('button', { name: '去购买套餐' }));
    await settle(page);
    await noPageOverflow(page, 'QR dialog at 375');
    await screenshot(page, 'first-day-qr-no-package-375', false);
    t.assertNoErrors();
    await t.close();
  });

  it('the callback help says what this deployment allows', async () => {
    const company = await seedCompany(server);
    await buyAndPay(server, company, '基础版·月付');
    expect((await server.api(apiAccountCalls.applyApis, {}, company.token)).code).toBe('200');
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;
    // The same console on a deployment that keeps callbacks off private addresses (the default).
    await page.route('**/api/normal/siteInfo', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { data: Record<string, unknown> };
      body.data.callbackPrivateAllowed = false;
      await route.fulfill({ response: res, json: body });
    });
    await page.goto('/onlineTest/index#callbacks');
    await onPage(page, '在线测试');
    await see(page.getByTestId('callback-help').getByText(/不能指向本机或内网地址/));
    await page.goto('/accountList/index');
    await onPage(page, '子账号');
    await page.getByRole('button', { name: '编辑' }).first().click();
    await see(dialog(page, '编辑子账号').getByText(/不能指向本机或内网地址/));
    await page.keyboard.press('Escape');
    await page.unroute('**/api/normal/siteInfo');
    // Where private addresses are allowed, no dialog says otherwise.
    await page.reload();
    await onPage(page, '子账号');
    await page.getByRole('button', { name: '编辑' }).first().click();
    const edit = dialog(page, '编辑子账号');
    await see(edit.getByText(/允许回调到本机或内网地址/));
    expect(await edit.textContent()).not.toContain('不能指向本机或内网地址');
    await page.keyboard.press('Escape');
    t.assertNoErrors();
    await t.close();
  });
});

describe('package tier vs access mode', () => {
  it('a 本地部署 company sees which packages do not fit, cannot buy them, and the API-opening rule', {
    timeout: 120_000,
  }, async () => {
    const company = await seedCompany(server, { companyName: '本地部署示例有限公司', accountType: 2 });
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;
    await page.goto('/purchaseRecords/index');
    await onPage(page, '套餐');
    await see(page.getByTestId('catalogue-mode').getByText('本地部署'));
    const basic = page.getByRole('article', { name: '基础版·月付' });
    expect(await basic.getAttribute('data-fits')).toBe('false');
    await see(
      basic.getByTestId('package-unfit').getByText('不适用：「本地部署」接入方式需要商务版及以上套餐'),
    );
    expect(await basic.getByRole('button').isDisabled()).toBe(true);
    const business = page.getByRole('article', { name: '商务版·月付' });
    expect(await business.getAttribute('data-fits')).toBe('true');
    expect(await business.getByRole('button', { name: /立即购买/ }).isDisabled()).toBe(false);
    await settle(page);
    await screenshot(page, 'first-day-tier-catalogue-1440');
    // The service refuses it too, naming what is needed.
    const refused = await orderPackage(server, company, '基础版·月付');
    expect(refused.code).toBe('40025');
    expect(refused.message).toContain('商务版及以上');

    // The API-opening dialog states the rule for this company before anything is bought.
    await page.getByRole('button', { name: '开通说明' }).click();
    const rule = dialog(page, 'API 开通说明').getByTestId('tier-rule');
    await see(rule.getByText('贵公司的接入方式：本地部署'));
    await see(rule.getByText(/「本地部署」接入方式需要商务版及以上套餐/));
    // Nothing bought yet: 开通 API says so instead of failing.
    expect(await dialog(page, 'API 开通说明').getByTestId('apply-api').isDisabled()).toBe(true);
    await settle(page);
    await screenshot(page, 'first-day-tier-opening-1440', false);
    await page.keyboard.press('Escape');

    // A package that does not serve the mode (bought before the rule, say): 开通 API is disabled, saying why.
    await page.route('**/api/package/queryPackage', (route) =>
      route.fulfill({
        json: {
          code: '200',
          message: '成功',
          data: {
            list: [
              {
                id: 'sub1',
                packageId: 'p1',
                packageName: '基础版·月付',
                tier: 'basic',
                slots: 5,
                startsAt: Date.now() - 86_400_000,
                endsAt: Date.now() + 29 * 86_400_000,
                status: 'active',
                daysLeft: 29,
                expiringSoon: false,
              },
            ],
            totalSlots: 5,
            allocatedSlots: 0,
            freeSlots: 5,
          },
        },
      }),
    );
    await page.reload();
    await onPage(page, '套餐');
    await page.getByRole('button', { name: '开通说明' }).click();
    const opening = dialog(page, 'API 开通说明');
    await see(opening.getByTestId('tier-rule').getByText('当前套餐不支持贵公司的接入方式「本地部署」'));
    expect(await opening.getByTestId('apply-api').isDisabled()).toBe(true);
    await settle(page);
    await screenshot(page, 'first-day-tier-unfit-1440', false);
    await page.keyboard.press('Escape');
    await page.unroute('**/api/package/queryPackage');

    // Buying the business tier works, and then the rule is met.
    await buyAndPay(server, company, '商务版·月付');
    await page.goto('/myAPI/index');
    await onPage(page, '我的API');
    await see(page.getByTestId('tier-rule').getByText('当前套餐支持贵公司的接入方式「本地部署」'));
    expect(await page.getByTestId('apply-api').isDisabled()).toBe(false);
    await page.getByTestId('apply-api').click();
    await see(dialog(page, 'API 已开通'));
    t.assertNoErrors();
    await t.close();
  });

  it('the catalogue marks at 375 px', async () => {
    const company = await seedCompany(server, { accountType: 3 });
    const t = await openPage(browser, server, { token: company.token, viewport: MOBILE });
    const { page } = t;
    await page.goto('/purchaseRecords/index');
    await onPage(page, '套餐');
    const business = page.getByRole('article', { name: '商务版·月付' });
    await see(business.getByText('不适用：「托管」接入方式需要企业版套餐'));
    expect(await page.getByRole('article', { name: '企业版·月付' }).getAttribute('data-fits')).toBe('true');
    await settle(page);
    await noPageOverflow(page, 'catalogue at 375');
    await screenshot(page, 'first-day-tier-catalogue-375', false);
    t.assertNoErrors();
    await t.close();
  });
});
