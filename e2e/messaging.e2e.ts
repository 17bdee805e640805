/**
 * Browser journeys of issue 6 (用户中心, 微信管理, 在线测试, 模拟演示) against the built service on a fresh
 * database, with the simulator replying fast: log an account in by opening the QR link in a second
 * page (the phone) and confirming; the dashboard's online figure follows live; a message sent in the
 * demo gets its reply; the online tester sends sendMsgText and shows the answer; another customer
 * sees none of these accounts. Screenshots of each page (and the QR dialog) at 1440 and 375 px go to
 * e2e/artifacts/. The console is served from a private copy of apps/web/dist (WEB_DIST_DIR).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as callbackCalls from '@wxc/contract/calls/callbacks';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as recordCalls from '@wxc/contract/calls/records';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Company,
  loginMessagingAccount,
  MOBILE,
  noPageOverflow,
  onPage,
  openPage,
  payingCompany,
  ROOT,
  screenshot,
  see,
  startServer,
  startServerAndBrowser,
  type TestServer,
  untilStill,
} from './harness';

let server: TestServer;
let browser: Browser;
let webDist: string;
let sink: Server;
let sinkHits = 0;

beforeAll(async () => {
  // Others may rebuild apps/web/dist while this runs: serve a copy.
  webDist = mkdtempSync(path.join(os.tmpdir(), 'wxc-web-'));
  cpSync(path.join(ROOT, 'apps/web/dist'), webDist, { recursive: true });
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      sinkHits += 1;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  ({ server, browser } = await startServerAndBrowser(() =>
    startServer({
      WEB_DIST_DIR: webDist,
      SEND_INTERVAL_MS: '0',
      SIM_REPLY_DELAY_MS: '200',
      SIM_CHATTER_SECONDS: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
      // The demo's callbacks go to a receiver on this machine.
      CALLBACK_ALLOW_PRIVATE: 'true',
    }),
  ));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => sink?.close(r));
  if (webDist) rmSync(webDist, { recursive: true, force: true });
});

const loginThroughApi = async (company: Company) => (await loginMessagingAccount(server, company)).wxid;

async function snap(page: Page, name: string, fullPage = true) {
  await untilStill(page, 500);
  await screenshot(page, name, fullPage);
}

const statValue = (page: Page, name: string) => page.getByTestId(`stat-${name}`).getByTestId('stat-value');

describe('messaging screens', () => {
  it('logs an account in by opening the QR link on a "phone"; the dashboard follows live', async () => {
    const company = await payingCompany(server);
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;

    // 用户中心 first: nobody online.
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    await expect.poll(() => statValue(page, 'getOnlineCountNow').textContent()).toBe('0');
    await see(page.locator('[data-testid="live-badge"][data-status="open"]'));

    // 微信管理 → 添加账号 → QR code.
    await page.goto('/wechatList/index');
    await onPage(page, '微信管理');
    await see(page.getByText('还没有登录过微信账号'));
    await snap(page, 'messaging-wechat-list-empty-1440');
    await page.getByRole('button', { name: '添加账号' }).first().click();
    const dialog = page.getByRole('dialog').filter({ hasText: '添加微信账号' });
    await see(dialog.getByRole('combobox', { name: '子账号' }));
    await dialog.getByRole('button', { name: /获取二维码/ }).click();
    await see(dialog.getByRole('img', { name: '登录二维码' }));
    expect(await dialog.getByTestId('qr-state').textContent()).toBe('等待扫码');
    await snap(page, 'messaging-qr-dialog-1440', false);
    const link = (await dialog.getByTestId('qr-link').getAttribute('href'))!;
    expect(link).toMatch(/\/sim\/scan\/[\w-]+$/);

    // The phone: its own browser; opening the page scans, then it confirms.
    const phone = await openPage(browser, server, { viewport: MOBILE });
    await phone.page.goto(link);
    await see(phone.page.getByRole('button', { name: '确认登录' }));
    // The console hears the scan (with the scanner's nickname).
    await expect.poll(() => dialog.getByTestId('qr-state').textContent()).toBe('已扫码，等待确认');
    // A second claim of the same code from this page is refused: the code was taken (秒没).
    t.allow(/status of 409/);
    await dialog.getByRole('button', { name: /本页模拟手机确认/ }).click();
    await see(dialog.getByTestId('qr-phone-error').getByText(/抢先扫描（秒没）/));
    await phone.page.getByRole('button', { name: '确认登录' }).click();
    await see(phone.page.getByText('已登录，可以关闭此页面'));
    await see(dialog.getByText('登录成功'));
    const nickname = (await dialog.getByTestId('qr-nickname').textContent())!;
    await dialog.getByRole('button', { name: /完\s*成/ }).click();

    // The table shows it online.
    const row = page.getByRole('row').filter({ hasText: nickname });
    await see(row.getByText('在线'));
    await snap(page, 'messaging-wechat-list-1440');

    // Dashboard: 1 online; a second login through the API shows up live, without a reload.
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    await expect.poll(() => statValue(page, 'getOnlineCountNow').textContent()).toBe('1');
    await see(page.locator('[data-testid="live-badge"][data-status="open"]'));
    await loginThroughApi(company);
    await expect
      .poll(() => statValue(page, 'getOnlineCountNow').textContent(), { timeout: 10_000 })
      .toBe('2');
    await expect.poll(() => statValue(page, 'getTotalCount').textContent()).toBe('2');
    await see(page.getByRole('img', { name: '月度每日统计图' }).locator('svg'));
    await snap(page, 'messaging-dashboard-1440');

    phone.assertNoErrors();
    await phone.close();
    t.assertNoErrors();
    await t.close();
  });

  it('sends a message in the demo and sees the reply arrive live', async () => {
    const company = await payingCompany(server);
    const subs = await server.api(apiAccountCalls.queryApiAccount, {}, company.token);
    const callbackUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/callback`;
    const set = await server.api(
      callbackCalls.resetCallbackUrl,
      { subAccountId: subs.data.list[0]!.id, callbackUrl },
      company.token,
    );
    expect(set.code).toBe('200');
    await loginThroughApi(company);
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;
    await page.goto('/moniyanshi/index');
    await onPage(page, '模拟演示');
    await see(page.getByTestId('contact'));
    await page.getByTestId('contact').first().click();
    const chatTitle = (await page.getByTestId('chat-title').textContent())!;
    expect(chatTitle.length).toBeGreaterThan(0);
    const box = page.getByRole('textbox', { name: '消息内容' });
    await box.fill('你好，模拟演示');
    await box.press('Enter');
    const conversation = page.getByTestId('conversation');
    await see(conversation.locator('[data-direction="out"]').filter({ hasText: '你好，模拟演示' }));
    // The virtual contact answers (echo plus a greeting) within the reply delay.
    await see(conversation.locator('[data-direction="in"]'), 10_000);
    // ... and the account's callback deliveries are listed beside the chat.
    await see(page.locator('.demo-layout').getByTestId('delivery'), 10_000);
    expect(sinkHits).toBeGreaterThan(0);
    await snap(page, 'messaging-demo-1440');

    await page.setViewportSize(MOBILE);
    await see(page.getByTestId('conversation'));
    await noPageOverflow(page);
    await snap(page, 'messaging-demo-375');
    await page.getByRole('button', { name: '返回联系人' }).click();
    await see(page.getByTestId('contact'));
    await noPageOverflow(page);
    t.assertNoErrors();
    await t.close();
  });

  it('online test sends sendMsgText with the console session and shows the answer', async () => {
    const company = await payingCompany(server);
    const wxid = await loginThroughApi(company);
    const contacts = await server.api(messagingCalls.getAddressList, { wxid }, company.token);
    const friend = contacts.data.list.find((c) => c.kind === 'friend')!;
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;
    await page.goto('/onlineTest/index');
    await onPage(page, '在线测试');
    await see(page.getByText('/api/msg/sendMsgText'));
    // The online account is chosen for wxid; the example text is filled in.
    await see(page.locator('.param-form').getByText(wxid));
    await page.getByRole('textbox', { name: 'toWxid' }).fill(friend.wxid);
    expect(await page.getByRole('textbox', { name: 'content' }).inputValue()).not.toBe('');
    expect(await page.getByTestId('request-json').textContent()).toContain(friend.wxid);
    await page.getByRole('button', { name: /发送请求/ }).click();
    await see(page.getByTestId('response-meta').getByText('code 200'));
    const response = JSON.parse((await page.getByTestId('response-json').textContent())!) as {
      code: string;
      data: { msgId: string; status: string };
    };
    expect(response.code).toBe('200');
    expect(typeof response.data.msgId).toBe('string');
    expect(await page.getByTestId('response-meta').textContent()).toMatch(/\d+ ms/);
    await snap(page, 'messaging-online-test-1440');
    // The message really went out.
    const history = await server.api(
      messagingCalls.showMsgConsole,
      { wxid, peer: friend.wxid },
      company.token,
    );
    expect(history.data.list.some((m) => m.msgId === response.data.msgId)).toBe(true);

    await page.setViewportSize(MOBILE);
    await untilStill(page, 300);
    await noPageOverflow(page);
    await snap(page, 'messaging-online-test-375');
    t.assertNoErrors();
    await t.close();
  });

  it('a customer sees only their own accounts; narrow screens of every page', async () => {
    const owner = await payingCompany(server);
    const ownerWxid = await loginThroughApi(owner);
    const other = await payingCompany(server);
    const theirs = await server.api(recordCalls.queryHistoryWx, {}, other.token);
    expect(theirs.data.total).toBe(0);
    const refused = await server.api(messagingCalls.getAuth, { wxid: ownerWxid }, other.token);
    expect(refused.code).not.toBe('200');

    const t = await openPage(browser, server, { token: other.token, viewport: MOBILE });
    t.allow(/status of 404/);
    const { page } = t;
    await page.goto('/wechatList/index');
    await onPage(page, '微信管理');
    await see(page.getByText('还没有登录过微信账号'));
    expect(await page.getByText(ownerWxid).count()).toBe(0);
    await noPageOverflow(page);
    await page.goto('/moniyanshi/index');
    await onPage(page, '模拟演示');
    await see(page.getByText(/还没有在线的账号/));
    await noPageOverflow(page);
    t.assertNoErrors();
    await t.close();

    // The owner's pages at 375 px.
    const o = await openPage(browser, server, { token: owner.token, viewport: MOBILE });
    for (const [url, title, name] of [
      ['/dashboard', '用户中心', 'dashboard'],
      ['/wechatList/index', '微信管理', 'wechat-list'],
    ] as const) {
      await o.page.goto(url);
      await onPage(o.page, title);
      // The dashboard's sections below the fold load when scrolled to.
      if (name === 'dashboard') await o.page.getByText('账号明细', { exact: true }).scrollIntoViewIfNeeded();
      await see(o.page.locator('.ant-table, .card-list, .list-card').first());
      await noPageOverflow(o.page);
      await snap(o.page, `messaging-${name}-375`);
    }
    await see(o.page.getByTestId('wx-card'));
    await o.page.getByRole('button', { name: '添加账号' }).first().click();
    const dialog = o.page.getByRole('dialog').filter({ hasText: '添加微信账号' });
    await dialog.getByRole('button', { name: /获取二维码/ }).click();
    await see(dialog.getByRole('img', { name: '登录二维码' }));
    await snap(o.page, 'messaging-qr-dialog-375', false);
    // Claim the code from the dialog: scanned and confirmed in this page.
    await dialog.getByRole('button', { name: /本页模拟手机确认/ }).click();
    await see(dialog.getByText('登录成功'));
    o.assertNoErrors();
    await o.close();
  });
});
