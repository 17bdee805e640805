/**
 * Browser journeys of issue 7 (实名认证, 运营): a customer submits both images and the badge shows
 * 审核中; an operator refuses with a reason; the customer sees it, replaces one image and submits;
 * the operator passes; the badge shows 已认证. A customer typing an operator URL sees 401.
 * Screenshots of the dialog and of every operator screen at 1440 and 375 px go to e2e/artifacts/.
 */
import * as orderCalls from '@wxc/contract/calls/orders';
import * as packageCalls from '@wxc/contract/calls/packages';
import * as realNameCalls from '@wxc/contract/calls/realname';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  apiLogin,
  DESKTOP,
  gone,
  MOBILE,
  onPage,
  openPage,
  screenshot,
  see,
  seedCompany,
  untilStill,
  useSuite,
  visit,
} from './harness';
import { documentPng } from './png';

const suite = useSuite({ RATE_LIMIT_PER_MINUTE: '100000' });
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server, ADMIN.account, ADMIN.password);
});

const SOCIAL = {
  name: '社保缴纳记录.png',
  mimeType: 'image/png',
  buffer: documentPng(320, 220, [24, 144, 255]),
};
const LICENCE = { name: '营业执照.png', mimeType: 'image/png', buffer: documentPng(300, 220, [207, 19, 34]) };
const LICENCE_V2 = {
  name: '营业执照-清晰版.png',
  mimeType: 'image/png',
  buffer: documentPng(300, 220, [82, 196, 26]),
};

const badge = (page: Page) => page.locator('.navbar button.realname-badge, button.realname-badge').first();
const dialog = (page: Page) => page.getByRole('dialog').filter({ hasText: '实名认证' });
const toast = (page: Page, text: string | RegExp) =>
  page.locator('.ant-message-notice').filter({ hasText: text });

async function badgeStatus(page: Page, status: number) {
  await page.waitForFunction(
    (s) =>
      Array.from(document.querySelectorAll('button.realname-badge')).some(
        (b) => b.getAttribute('data-status') === s,
      ),
    String(status),
  );
}

/** The status is re-read when the tab regains focus (the badge's live hook). */
async function refocus(page: Page) {
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
}

async function snap(page: Page, name: string, fullPage = true) {
  await untilStill(page, 500);
  await screenshot(page, name, fullPage);
}

describe('real-name verification and the operator area', () => {
  it('submit -> 审核中; refused with a reason; one image replaced; passed -> 已认证', async () => {
    const company = await seedCompany(suite.server, { companyName: '实名旅程科技有限公司' });
    const customer = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = customer;
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    await badgeStatus(page, 0);

    // the dialog: OK disabled until an image is chosen; bad files are warned about and not taken
    await badge(page).click();
    const d = dialog(page);
    await see(d.getByText('社保记录', { exact: true }));
    await see(d.getByText('营业执照', { exact: true }));
    const ok = d.getByRole('button', { name: /确\s*定/ });
    expect(await ok.isDisabled()).toBe(true);
    await snap(page, 'realname-dialog-empty-1440', false);
    await d.getByLabel('选择社保记录图片').setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(2 * 1024 * 1024 + 1, 1),
    });
    await see(toast(page, '上传文件最大为2M'));
    await d
      .getByLabel('选择社保记录图片')
      .setInputFiles({ name: 'a.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await see(toast(page, '只能上传 png、jpeg、jpg 格式的图片'));
    expect(await ok.isDisabled()).toBe(true);

    await d.getByLabel('选择社保记录图片').setInputFiles(SOCIAL);
    expect(await ok.isDisabled()).toBe(false);
    await d.getByLabel('选择营业执照图片').setInputFiles(LICENCE);
    await see(d.getByAltText('营业执照预览'));
    await snap(page, 'realname-dialog-chosen-1440', false);
    await ok.click();
    await see(toast(page, '已提交实名认证资料'));
    await gone(d);
    await badgeStatus(page, 2);
    expect(await badge(page).getAttribute('aria-label')).toBe('实名认证：审核中');

    // the operator refuses with a reason
    const operator = await openPage(suite.browser, suite.server, { token: adminToken });
    const op = operator.page;
    await op.goto('/operator/index?tab=review');
    await onPage(op, '运营管理');
    const card = op.getByRole('article', { name: '实名旅程科技有限公司 的实名资料' });
    await see(card);
    await see(card.getByRole('img', { name: '社保记录' }));
    await see(card.getByRole('img', { name: '营业执照' }));
    await snap(op, 'operator-review-1440');
    await card.getByRole('button', { name: /驳\s*回/ }).click();
    const refuseDialog = op.getByRole('dialog').filter({ hasText: '驳回原因会显示给客户' });
    const confirmRefuse = refuseDialog.getByRole('button', { name: /^驳\s*回$/ });
    expect(await confirmRefuse.isDisabled()).toBe(true);
    await refuseDialog.getByLabel('驳回原因').fill('营业执照照片不清晰，请重新拍摄上传');
    await snap(op, 'operator-refuse-1440', false);
    await confirmRefuse.click();
    await see(toast(op, '已驳回'));

    // the customer sees the reason and replaces only the licence
    await refocus(page);
    await badgeStatus(page, 3);
    await badge(page).click();
    await see(d.getByTestId('refuse-reason'));
    expect(await d.getByTestId('refuse-reason').textContent()).toContain(
      '营业执照照片不清晰，请重新拍摄上传',
    );
    await see(d.getByAltText('社保记录预览'));
    expect(await ok.isDisabled()).toBe(false); // both images are still there
    await snap(page, 'realname-dialog-refused-1440', false);
    const before = await suite.server.api(realNameCalls.getRealNameImgs, {}, company.token);
    await d.getByLabel('选择营业执照图片').setInputFiles(LICENCE_V2);
    await see(d.getByText('新选择'));
    await ok.click();
    await see(toast(page, '已提交实名认证资料'));
    await badgeStatus(page, 2);
    const after = await suite.server.api(realNameCalls.getRealNameImgs, {}, company.token);
    expect(after.data.images[0]!.id).toBe(before.data.images[0]!.id); // social record kept as it was
    expect(after.data.images[1]!.id).not.toBe(before.data.images[1]!.id);

    // the operator passes; the customer's badge follows
    await op.reload();
    const again = op.getByRole('article', { name: '实名旅程科技有限公司 的实名资料' });
    await see(again);
    await again.getByRole('button', { name: /通\s*过/ }).click();
    await see(toast(op, '已通过'));
    await refocus(page);
    await badgeStatus(page, 1);
    expect(await badge(page).getAttribute('aria-label')).toBe('实名认证：已认证');
    await badge(page).click();
    await see(d.getByText('已通过实名认证'));
    expect(await d.getByRole('button', { name: /确\s*定/ }).count()).toBe(0);

    // history keeps every decision
    await op.locator('.ant-segmented-item').filter({ hasText: '全部记录' }).click();
    await see(op.getByRole('article').filter({ hasText: '已驳回' }));
    await see(op.getByRole('article').filter({ hasText: '已通过' }));
    await snap(op, 'operator-review-history-1440');

    customer.assertNoErrors();
    operator.assertNoErrors();
    await customer.close();
    await operator.close();
  });

  it('a customer typing an operator URL sees 401, and operator calls are refused', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    for (const url of ['/operator/index', '/operator/index?tab=settings']) {
      await t.page.goto(url);
      await t.page.waitForURL('**/401');
      await see(t.page.getByRole('heading', { name: '无权访问' }));
    }
    const pass = await suite.server.api(realNameCalls.passRealNameAuth, { userId: 'anyone' }, company.token);
    expect(pass.code).toBe('40300');
    t.assertNoErrors();
    await t.close();
  });

  /** Some data to show (companies with packages, a pending review, an offline order), seeded once. */
  let shown:
    | Promise<{ pending: Awaited<ReturnType<typeof seedCompany>>; pkg: { id: string; name: string } }>
    | undefined;
  async function seedShown() {
    const pending = await seedCompany(suite.server, { companyName: '待审核示例有限公司' });
    const { data: catalogue } = await suite.server.api(packageCalls.list, {}, pending.token);
    const pkg = catalogue.list[0]!;
    for (const name of ['华东贸易有限公司', '星河网络科技']) {
      const c = await seedCompany(suite.server, { companyName: name });
      const order = await suite.server.api(
        orderCalls.buy,
        { packageId: pkg.id, quantity: 1, idempotencyKey: `e2e-rn-${c.phone}` },
        c.token,
      );
      if (name === '华东贸易有限公司')
        await suite.server.api(orderCalls.paySandbox, { orderNo: order.data.orderNo }, c.token);
    }
    const form = new FormData();
    form.append('imgs', new Blob([new Uint8Array(SOCIAL.buffer)], { type: 'image/png' }), SOCIAL.name);
    form.append('imgs', new Blob([new Uint8Array(LICENCE.buffer)], { type: 'image/png' }), LICENCE.name);
    const submitted = await fetch(`${suite.server.baseUrl}${realNameCalls.uploadRealNameSource.path}`, {
      method: 'POST',
      headers: { Authorization: pending.token },
      body: form,
    });
    expect(((await submitted.json()) as { code: string }).code).toBe('200');

    return { pending, pkg };
  }

  // One test per width: each is a long journey (ten operator pages, a drawer, the dialog).
  for (const [viewport, size] of [
    [DESKTOP, '1440'],
    [MOBILE, '375'],
  ] as const) {
    it(`screens at ${size} px: the dialog and every operator tab`, async () => {
      shown ??= seedShown();
      const { pending, pkg } = await shown;
      const operator = await openPage(suite.browser, suite.server, { token: adminToken, viewport });
      const { page } = operator;
      await page.goto('/operator/index?tab=review');
      for (const tab of ['review', 'companies', 'panel', 'visitors', 'settings']) {
        await visit(page, `/operator/index?tab=${tab}`);
        await onPage(page, '运营管理');
        await page.waitForLoadState('networkidle');
        if (tab === 'review') await see(page.getByRole('article').first());
        if (tab === 'companies') await see(page.getByText('待审核示例有限公司').first());
        if (tab === 'panel' || tab === 'visitors') await see(page.locator('canvas').first());
        if (tab === 'settings') await see(page.getByText('待确认的线下付款'));
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, `${tab} at ${size}`).toBeLessThanOrEqual(innerWidth);
        await snap(page, `operator-${tab}-${size}`);
      }
      // The sections' links are one page: one 运营管理 tab in the tags view, not one per section.
      expect(await page.locator('.tags-view .tag').filter({ hasText: '运营管理' }).count()).toBe(1);
      // a company's packages and sub-accounts (read-only drawer)
      await visit(page, '/operator/index?tab=companies');
      await see(page.getByText('华东贸易有限公司').first());
      const row = page.locator('tr, article').filter({ hasText: '华东贸易有限公司' }).first();
      await row.getByRole('button', { name: '套餐与子账号' }).click();
      await see(page.getByText('已购套餐'));
      await see(page.locator('.ant-drawer').getByText(pkg.name).first());
      await snap(page, `operator-company-detail-${size}`, false);
      operator.assertNoErrors();
      await operator.close();

      const customer = await openPage(suite.browser, suite.server, { token: pending.token, viewport });
      await customer.page.goto('/dashboard');
      await onPage(customer.page, '用户中心');
      await badge(customer.page).click();
      await see(dialog(customer.page).getByAltText('营业执照预览'));
      await snap(customer.page, `realname-dialog-review-${size}`, false);
      customer.assertNoErrors();
      await customer.close();
      // Ten pages with screenshots, a drawer and the dialog: 35–51 s on a CI machine running other
      // journeys beside it, too close to the default 60 s.
    }, 120_000);
  }
});
