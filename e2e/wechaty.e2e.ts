/**
 * The console over a real messaging network (issue 18): the built service started the way an operator
 * would (MESSAGING_PROVIDER=wechaty, wechaty-puppet-service, an endpoint and a token) against a
 * PuppetServer on loopback serving a wechaty-puppet-mock network, which this test drives as the phone.
 * The QR dialog shows the network's code and asks for a real phone (no simulator page), and the
 * account it logs in is online in 微信管理.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import { PuppetServer } from 'wechaty-puppet-service';
import {
  freePort,
  onPage,
  openPage,
  payingCompany,
  screenshot,
  see,
  startServer,
  startServerAndBrowser,
  type TestServer,
  untilStill,
} from './harness';

// wechaty-puppet's ScanStatus values (the e2e tree does not import the server's modules).
const WAITING = 2;
const SCANNED = 3;

let server: TestServer;
let browser: Browser;
let network: PuppetServer;
let mocker: mock.Mocker;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'wxc-wechaty-home-'));
  mocker = new mock.Mocker();
  mocker.use((m) => {
    m.scan('https://login.weixin.example/qr/e2e', WAITING);
    return () => undefined;
  });
  const port = await freePort();
  const token = `insecure_${randomUUID()}`;
  network = new PuppetServer({ endpoint: `127.0.0.1:${port}`, puppet: new PuppetMock({ mocker }), token });
  await network.start();
  ({ server, browser } = await startServerAndBrowser(() =>
    startServer({
      MESSAGING_PROVIDER: 'wechaty',
      WECHATY_PUPPET_ENDPOINT: `127.0.0.1:${port}`,
      WECHATY_PUPPET_TOKEN: token,
      // puppet-service keeps its payload cache under ~/.wechaty
      HOME: home,
    }),
  ));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await network?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('a real messaging network', () => {
  it('logs an account in with the network QR code scanned on a real phone', async () => {
    const company = await payingCompany(server);
    const t = await openPage(browser, server, { token: company.token });
    const { page } = t;
    await page.goto('/wechatList/index');
    await onPage(page, '微信管理');
    await page.getByRole('button', { name: '添加账号' }).first().click();
    const dialog = page.getByRole('dialog').filter({ hasText: '添加微信账号' });
    await dialog.getByRole('button', { name: /获取二维码/ }).click();
    await see(dialog.getByRole('img', { name: '登录二维码' }));
    expect(await dialog.getByTestId('qr-state').textContent()).toBe('等待扫码');
    // A real phone scans it: no simulator page, no "confirm on this page".
    await see(dialog.getByText(/打开微信「扫一扫」/));
    expect(await dialog.getByTestId('qr-link').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /本页模拟手机确认/ }).count()).toBe(0);
    await untilStill(page, 300);
    await screenshot(page, 'wechaty-qr-dialog-1440', false);

    // The phone (the mock network) scans, then confirms.
    const me = mocker.createContact({ name: '真实网络账号' });
    mocker.createContacts(2);
    mocker.scan('https://login.weixin.example/qr/e2e', SCANNED);
    await expect.poll(() => dialog.getByTestId('qr-state').textContent()).toBe('已扫码，等待确认');
    mocker.login(me);
    await see(dialog.getByText('登录成功'));
    expect(await dialog.getByTestId('qr-nickname').textContent()).toBe('真实网络账号');
    await dialog.getByRole('button', { name: /完\s*成/ }).click();
    await see(page.getByRole('row').filter({ hasText: '真实网络账号' }).getByText('在线'));
    await screenshot(page, 'wechaty-wechat-list-1440');
    t.assertNoErrors();
    await t.close();
  });
});
