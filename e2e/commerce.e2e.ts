/**
 * Browser journeys of issue 4 (套餐, 我的API, 子账号) against the built service on a fresh database:
 * buy through the sandbox, see the package in records and in 我的套餐, open a sub-account and copy
 * its secret, allocate slots, be refused beyond the free ones, reclaim; open API access from 我的API;
 * a customer cannot reach operator screens or calls. Screenshots of each page at 1440 and 375 px go
 * to e2e/artifacts/.
 */

import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as orderCalls from '@wxc/contract/calls/orders';
import * as packageCalls from '@wxc/contract/calls/packages';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type Company,
  DESKTOP,
  gone,
  MOBILE,
  noPageOverflow,
  openPage,
  screenshot,
  see,
  seedCompany,
  type TestPage,
  untilStill,
  useSuite,
  visit,
} from './harness';

// Every browser here comes from 127.0.0.1 and loads ~40 assets per page; the service's per-IP
// limit (600/min by default, static files included) would answer 429 within a minute.
const suite = useSuite({ RATE_LIMIT_PER_MINUTE: '100000' });

const dialog = (page: Page, title: string) => page.getByRole('dialog').filter({ hasText: title });
const toast = (page: Page, text: string | RegExp) =>
  page.locator('.ant-message-notice').filter({ hasText: text });

async function openWithClipboard(token: string, viewport = DESKTOP): Promise<TestPage> {
  const t = await openPage(suite.browser, suite.server, { token, viewport });
  await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.baseUrl });
  return t;
}

const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Buys and pays a package through the API, as a program would (for tests that start after it). */
async function buyThroughApi(company: Company, packageName = '基础版·月付') {
  const catalogue = await suite.server.api(packageCalls.list, {}, company.token);
  const pkg = catalogue.data.list.find((p) => p.name === packageName)!;
  const order = await suite.server.api(
    orderCalls.buy,
    { packageId: pkg.id, quantity: 1, idempotencyKey: `e2e-${company.phone}-${pkg.id}` },
    company.token,
  );
  const paid = await suite.server.api(orderCalls.paySandbox, { orderNo: order.data.orderNo }, company.token);
  expect(paid.data.state).toBe('paid');
  return pkg;
}

/** Lets tab ink bars and fades finish (400 ms at most), then saves a full-page screenshot. */
async function snap(page: Page, name: string) {
  await untilStill(page, 400);
  await screenshot(page, name);
}

describe('commerce: packages, orders, sub-accounts', () => {
  it('buys a package through the sandbox, sees it in 我的套餐 and the records, manages a sub-account', async () => {
    const company = await seedCompany(suite.server);
    const t = await openWithClipboard(company.token);
    // The browser notes each refused call (the over-allocation below) as a failed resource load.
    t.allow(/status of 400/);
    const { page } = t;

    // ---- 套餐: the catalogue by tier
    await page.goto('/purchaseRecords/index');
    await see(page.getByRole('heading', { name: '套餐' }));
    await expect.poll(() => page.title()).toBe('套餐 - 微信 API 客户控制台');
    for (const tier of ['基础版', '商务版', '企业版']) {
      await see(page.getByRole('region', { name: tier }));
    }
    const card = page.getByRole('article', { name: '基础版·月付' });
    expect(await card.textContent()).toContain('¥299.00');
    expect(await card.textContent()).toContain('5 个微信账号额度');
    expect(await page.getByRole('article', { name: '企业版·月付' }).textContent()).toMatch(/托管.*私有化/);
    await snap(page, 'commerce-packages-1440');

    // Confirm with 2 periods: the total follows; a double click on submit makes one order.
    await card.getByRole('button', { name: /立即购买/ }).click();
    const confirm = dialog(page, '确认订单');
    await see(confirm);
    await confirm.getByLabel('购买周期数').fill('2');
    await confirm.getByLabel('购买周期数').blur();
    await expect.poll(() => confirm.getByTestId('order-total').textContent()).toBe('¥598.00');
    await confirm.getByRole('button', { name: '提交订单' }).dblclick();

    const pay = dialog(page, '沙箱支付');
    await see(pay.getByText('沙箱支付（测试环境）'));
    const orderNo = (await pay.getByTestId('order-no').textContent())!;
    expect(orderNo).toMatch(/^WX\d{14}\d{6}$/);
    const orders = await suite.server.api(orderCalls.queryOrders, {}, company.token);
    expect(orders.data.total).toBe(1);
    expect(orders.data.list[0]).toMatchObject({ orderNo, state: 'pending', amountFen: 59_800, quantity: 2 });

    await pay.getByRole('button', { name: /确认支付/ }).click();
    await see(page.getByText('支付成功，套餐已生效'));
    await expect
      .poll(() => page.getByTestId('paid-summary').textContent())
      .toMatch(/有效期至 .*账号额度 5 个/);
    await page.getByRole('button', { name: '查看我的套餐' }).click();

    // ---- 我的套餐: active, 60 days, quota 5
    const sub = page.getByRole('article', { name: '基础版·月付' }).filter({ hasText: '到期时间' });
    await see(sub.getByText('生效中'));
    expect(await sub.getByTestId('days-left').textContent()).toBe('剩余 60 天');
    expect(await page.getByTestId('quota-total').first().textContent()).toBe('5');
    await snap(page, 'commerce-my-packages-1440');

    // ---- 购买记录: paid; a second order left pending, then cancelled from the table
    await page.getByRole('tab', { name: '购买套餐' }).click();
    await page
      .getByRole('article', { name: '商务版·月付' })
      .getByRole('button', { name: /立即购买/ })
      .click();
    await dialog(page, '确认订单').getByRole('button', { name: '提交订单' }).click();
    await dialog(page, '沙箱支付').getByRole('button', { name: '稍后支付' }).click();
    await gone(page.getByRole('dialog'));
    await page.getByRole('tab', { name: '购买记录' }).click();
    const rows = page.locator('.orders .ant-table-tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(2);
    const paidRow = rows.filter({ hasText: orderNo });
    expect(await paidRow.textContent()).toMatch(/已支付.*沙箱支付/);
    const pendingRow = rows.filter({ hasText: '待支付' });
    await see(pendingRow.getByRole('button', { name: '去支付' }));
    await snap(page, 'commerce-orders-1440');
    await pendingRow.getByRole('button', { name: /取\s*消/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '取消订单' }).click();
    await see(toast(page, '订单已取消'));
    await see(rows.filter({ hasText: '已取消' }));

    // State filter: only the paid order.
    await page.getByLabel('订单状态').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '已支付' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(orderNo);

    // ---- 子账号: open one, copy its secret (shown once)
    await page.goto('/accountList/index');
    await see(page.getByRole('heading', { name: '子账号' }));
    await see(page.getByText('还没有子账号'));
    await page.getByRole('button', { name: '新建子账号' }).first().click();
    const open = dialog(page, '新建子账号');
    await open.getByLabel('子账号名称').fill('客服系统');
    await open.getByLabel('分配账号额度').fill('2');
    await open.getByRole('button', { name: /创\s*建/ }).click();
    const secretDialog = dialog(page, '请保存密钥');
    await see(secretDialog.getByText('AppSecret 只显示这一次'));
    const appKey = (await secretDialog.getByTestId('secret-app-key').textContent())!;
    const appSecret = (await secretDialog.getByTestId('secret-app-secret').textContent())!;
    expect(appKey).toMatch(/^ak_[0-9a-f]{20}$/);
    expect(appSecret).toMatch(/^sk_/);
    await secretDialog.getByRole('button', { name: '复制AppSecret' }).click();
    await see(toast(page, 'AppSecret已复制'));
    expect(await readClipboard(page)).toBe(appSecret);
    await secretDialog.getByRole('button', { name: '我已保存' }).click();
    await gone(page.getByRole('dialog'));
    // The secret is gone from the page and the list never shows it.
    await expect.poll(() => page.content()).not.toContain(appSecret);

    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '客服系统' });
    expect(await row.getByTestId('slots').textContent()).toBe('0 / 2');
    expect(await row.textContent()).toContain(appKey);
    await row.getByRole('button', { name: '复制AppKey' }).click();
    expect(await readClipboard(page)).toBe(appKey);

    // Allocate: 2 → 4 of 5.
    await row.getByRole('button', { name: '分配额度' }).click();
    let slots = dialog(page, '分配额度');
    await see(slots.getByText('最多 5 个'));
    await slots.getByLabel('分配账号额度').fill('4');
    await slots.getByRole('button', { name: /保\s*存/ }).click();
    await see(toast(page, '额度调整为 4 个'));
    await expect.poll(() => row.getByTestId('slots').textContent()).toBe('0 / 4');
    expect(await page.getByTestId('quota-free').textContent()).toBe('1');

    // Beyond the free slots: the dialog allows 5, but another program takes the last free slot
    // meanwhile; the server refuses with its message, and nothing changes.
    await row.getByRole('button', { name: '分配额度' }).click();
    slots = dialog(page, '分配额度');
    await see(slots.getByText('最多 5 个'));
    const other = await suite.server.api(
      apiAccountCalls.openApiAccount,
      { name: '另一个应用', availableNum: 1 },
      company.token,
    );
    expect(other.code).toBe('200');
    await slots.getByLabel('分配账号额度').fill('5');
    await slots.getByRole('button', { name: /保\s*存/ }).click();
    await see(toast(page, '可分配额度不足：套餐共 5 个，其他子账号已分配 1 个，最多还能分配 4 个'));
    await slots.getByRole('button', { name: /取\s*消/ }).click();
    await expect.poll(() => row.getByTestId('slots').textContent()).toBe('0 / 4');
    await expect.poll(() => page.getByTestId('quota-free').textContent()).toBe('0');
    await snap(page, 'commerce-sub-accounts-1440');

    // Edit: a callback URL into a private network is refused by the server's SSRF rule; a public one
    // is saved and listed.
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const edit = dialog(page, '编辑子账号');
    await edit.getByLabel('回调地址').fill('not a url');
    await edit.getByRole('button', { name: /保\s*存/ }).click();
    await see(edit.getByText('请输入以 http:// 或 https:// 开头的完整地址'));
    await edit.getByLabel('回调地址').fill('http://192.168.1.10/callback');
    await edit.getByRole('button', { name: /保\s*存/ }).click();
    await see(toast(page, '回调地址不能指向本机、内网或链路本地地址'));
    await edit.getByLabel('子账号名称').fill('客服系统（生产）');
    await edit.getByLabel('回调地址').fill('https://203.0.113.10/wechat/callback');
    await edit.getByRole('button', { name: /保\s*存/ }).click();
    await see(toast(page, '子账号已更新'));
    await see(row.getByText('https://203.0.113.10/wechat/callback'));
    expect(await row.textContent()).toContain('客服系统（生产）');

    // Reclaim: the confirm explains; the slots return.
    await row.getByRole('button', { name: /回\s*收/ }).click();
    const reclaim = page
      .locator('.ant-modal-confirm')
      .filter({ hasText: '回收子账号「客服系统（生产）」？' });
    await see(reclaim.getByText('立即失效'));
    expect(await reclaim.textContent()).toContain('已分配的 4 个账号额度退回公司');
    await reclaim.getByRole('button', { name: '确认回收' }).click();
    await see(toast(page, '4 个额度已退回'));
    await gone(row);
    await expect.poll(() => page.getByTestId('quota-free').textContent()).toBe('4');
    const after = await suite.server.api(
      apiAccountCalls.queryApiAccount,
      { includeRecovered: true },
      company.token,
    );
    expect(after.data.list.find((a) => a.appKey === appKey)).toMatchObject({ status: 'recovered' });
    await page.getByLabel('显示已回收').click();
    await see(
      page.locator('.ant-table-tbody tr').filter({ hasText: '客服系统（生产）' }).getByText('已回收'),
    );

    // ---- 我的API: service address, my access mode highlighted, curl with my own key
    const remaining = after.data.list.find((a) => a.status === 'active')!;
    await page.goto('/myAPI/index');
    await see(page.getByRole('heading', { name: '我的API' }));
    expect(await page.getByTestId('service-address').textContent()).toMatch(/^https?:\/\//);
    await see(page.getByRole('region', { name: 'SaaS' }).getByText('当前接入方式'));
    expect(await page.getByRole('region', { name: '本地部署' }).textContent()).toContain('商务版及以上');
    const curl = (await page.getByTestId('curl-example').textContent())!;
    expect(curl).toContain(`x-app-key: ${remaining.appKey}`);
    expect(curl).toContain('<您的 AppSecret>');
    await page.getByRole('button', { name: '复制命令' }).click();
    expect(await readClipboard(page)).toBe(curl);
    const docs = page.getByRole('link', { name: 'API 参考文档' });
    expect(await docs.getAttribute('href')).toBe('/docs');
    expect(await docs.getAttribute('target')).toBe('_blank');
    await snap(page, 'commerce-my-api-1440');

    t.assertNoErrors();
    await t.close();
  });

  it('opens API access from 我的API once, with the secret shown once', async () => {
    const company = await seedCompany(suite.server);
    const t = await openWithClipboard(company.token);
    const { page } = t;

    // Without a package: calls to action instead of controls that would fail.
    await page.goto('/myAPI/index');
    await see(page.getByText('购买套餐后即可开通 API'));
    await see(page.getByText('暂无有效套餐').first());
    await page.goto('/accountList/index');
    await see(page.getByText('购买套餐后即可创建子账号'));
    await page.getByRole('button', { name: '去购买' }).first().click();
    await page.waitForURL('**/purchaseRecords/index');
    await page.getByRole('tab', { name: '我的套餐' }).click();
    await see(page.getByText('还没有购买套餐'));
    await page.getByRole('tab', { name: '购买记录' }).click();
    await see(page.getByText('暂无购买记录'));

    await buyThroughApi(company);
    await page.goto('/myAPI/index');
    await page.getByRole('button', { name: /开通 API/ }).click();
    const secretDialog = dialog(page, 'API 已开通');
    await see(secretDialog.getByText('AppSecret 只显示这一次'));
    await see(toast(page, '申请成功'));
    const appKey = (await secretDialog.getByTestId('secret-app-key').textContent())!;
    const appSecret = (await secretDialog.getByTestId('secret-app-secret').textContent())!;
    // Closing before copying asks first.
    await secretDialog.getByRole('button', { name: '我已保存' }).click();
    const ask = page.locator('.ant-modal-confirm').filter({ hasText: '还没有复制 AppSecret' });
    await see(ask);
    await ask.getByRole('button', { name: '返回复制' }).click();
    await secretDialog.getByRole('button', { name: '全部复制' }).click();
    expect(await readClipboard(page)).toMatch(new RegExp(`^AppKey: ${appKey}\\nAppSecret: sk_`));
    await secretDialog.getByRole('button', { name: '我已保存' }).click();
    await gone(page.getByRole('dialog'));

    // The first sub-account holds every free slot; the example uses its key.
    await see(page.getByText('共 1 个子账号'));
    expect(await page.getByTestId('quota-allocated').textContent()).toBe('5');
    expect(await page.getByTestId('curl-example').textContent()).toContain(appKey);
    // The example works as printed, once the placeholder is replaced by the secret saved above.
    const curl = (await page.getByTestId('curl-example').textContent())!;
    const headers = Object.fromEntries(
      [...curl.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [
        m[1]!,
        m[2]!.replace('<您的 AppSecret>', appSecret),
      ]),
    );
    const url = /curl -X POST '([^']+)'/.exec(curl)![1]!;
    const called = (await (await fetch(url, { method: 'POST', headers, body: '{}' })).json()) as {
      code: string;
    };
    expect(called.code).toBe('200');
    const wrong = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'x-app-secret': 'sk_wrong' },
      body: '{}',
    });
    expect(wrong.status).toBe(401);
    const again = await suite.server.api(apiAccountCalls.applyApis, {}, company.token);
    expect(again.data).toEqual({ created: false, credentials: null });

    t.assertNoErrors();
    await t.close();
  });

  it('keeps a customer out of operator screens and calls', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    await page.goto('/operator/index');
    await page.waitForURL('**/401');
    await see(page.getByRole('heading', { name: '无权访问' }));
    expect(await page.getByRole('heading', { name: '运营管理' }).count()).toBe(0);
    const orders = await suite.server.api(orderCalls.adminQueryOrders, {}, company.token);
    expect(orders.code).toBe('40300');
    const save = await suite.server.api(
      packageCalls.adminSavePackage,
      { name: '白送版', tier: 'enterprise', slots: 999, durationDays: 3650, priceFen: 0, onSale: true },
      company.token,
    );
    expect(save.code).toBe('40300');
    t.assertNoErrors();
    await t.close();
  });

  it('screens at 1440 and 375 px: every page fits, tables scroll inside', async () => {
    const company = await seedCompany(suite.server);
    await buyThroughApi(company);
    await buyThroughApi(company, '企业版·年付');
    for (const input of [
      { name: '营销助手', availableNum: 3, callbackUrl: 'https://203.0.113.10/wechat/callback' },
      { name: '客服系统', availableNum: 2 },
    ]) {
      const opened = await suite.server.api(apiAccountCalls.openApiAccount, input, company.token);
      expect(opened.code, opened.message).toBe('200');
    }
    for (const [label, viewport] of [
      ['1440', DESKTOP],
      ['375', MOBILE],
    ] as const) {
      const t = await openPage(suite.browser, suite.server, { token: company.token, viewport });
      const { page } = t;
      await page.goto('/purchaseRecords/index');
      await see(page.getByRole('article', { name: '基础版·月付' }));
      await noPageOverflow(page);
      await snap(page, `purchase-records-${label}`);
      await page.getByRole('tab', { name: '我的套餐' }).click();
      await see(page.getByTestId('subscription'));
      await noPageOverflow(page);
      await snap(page, `purchase-records-mine-${label}`);
      await page.getByRole('tab', { name: '购买记录' }).click();
      // Phones get cards instead of a table.
      await see(
        viewport === MOBILE ? page.getByTestId('order-card') : page.locator('.orders .ant-table-row'),
      );
      await noPageOverflow(page);
      await snap(page, `purchase-records-orders-${label}`);

      await visit(page, '/myAPI/index');
      await see(page.getByTestId('curl-example'));
      await noPageOverflow(page);
      await snap(page, `my-api-${label}`);

      await visit(page, '/accountList/index');
      await see(
        (viewport === MOBILE ? page.getByTestId('account-card') : page.locator('.ant-table-row')).filter({
          hasText: '营销助手',
        }),
      );
      await noPageOverflow(page);
      await snap(page, `account-list-${label}`);
      await page.getByRole('button', { name: '公司 API 设置' }).click();
      await see(page.getByLabel('IP 白名单'));
      await page.getByLabel('IP 白名单').fill('203.0.113.5\n203.0.113.0/24');
      await snap(page, `account-list-settings-${label}`);
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast(page, 'API 设置已保存'));
      t.assertNoErrors();
      await t.close();
    }
    const config = await suite.server.api(apiAccountCalls.getConfigCompanyInfo, {}, company.token);
    expect(config.data.ipAllowlist).toEqual(['203.0.113.5', '203.0.113.0/24']);
  });
});
