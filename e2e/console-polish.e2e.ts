/**
 * What a new user saw walking through the console at 1440 and 375 px, each checked in the browser:
 * tab 刷新 through /redirect/* without false error toasts, the 正式版 label kept whole, the settings
 * tab never covering content (and reachable by keyboard), a Chinese date-range picker on 购买记录,
 * readable trend lines, the theme colour on every accent, company avatars, the live 在线微信 count
 * and Chinese settings labels (the one page header on every page: screenshots.e2e.ts, which visits
 * them all anyway). The service runs with
 * SERVER_FLAG=formal (production's default). Screenshots go to e2e/artifacts/polish-*.png.
 */

import { SIDEBAR_WIDTH_PX } from '@wxc/contract/constants';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriesColors } from '../apps/web/src/pages/operator/trend-option';
import { palette, parseHex } from '../apps/web/src/utils/theme';
import {
  ADMIN,
  apiLogin,
  chooseFromAvatarMenu,
  DESKTOP,
  gone,
  loginMessagingAccount,
  MOBILE,
  onPage,
  openPage,
  payingCompany,
  screenshot,
  see,
  seedCompany,
  settle,
  untilStill,
  useSuite,
} from './harness';

const suite = useSuite({ SERVER_FLAG: 'formal', RATE_LIMIT_PER_MINUTE: '100000' });
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server, ADMIN.account, ADMIN.password);
});

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box');
  return found;
}

const rgb = (hex: string) => `rgb(${parseHex(hex).join(', ')})`;

describe('tab 刷新 through /redirect/*', () => {
  it('re-opens another tab without false error toasts, keeps the query, and leaves no /redirect in history', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    const sidebar = page.locator('.sidebar');
    const toasts = page.locator('.ant-message-notice');
    await page.goto('/dashboard');
    await onPage(page, '用户中心');

    for (let attempt = 1; attempt <= 3; attempt++) {
      await sidebar.getByRole('menuitem', { name: '微信管理' }).click();
      await onPage(page, '微信管理');
      await sidebar.getByRole('menuitem', { name: '用户中心' }).click();
      await onPage(page, '用户中心');
      // 刷新 on the tab that is not the current page, while the dashboard is still loading.
      await page.locator('.tags-view .tag[data-path="/wechatList/index"]').click({ button: 'right' });
      await page.getByRole('menuitem', { name: '刷新' }).click();
      await page.waitForURL('**/wechatList/index');
      await onPage(page, '微信管理');
      await settle(page);
      // 950 ms without a toast, as long as when settle ended with a fixed 350 ms pause.
      await page.waitForTimeout(950);
      expect(await toasts.allInnerTexts(), `attempt ${attempt}`).toEqual([]);
    }
    // Back goes to the page before, not to the helper route.
    await page.goBack();
    await page.waitForURL('**/dashboard');

    // 刷新 on the page on screen mounts it afresh, in place (no second history entry).
    await sidebar.getByRole('menuitem', { name: '子账号' }).click();
    await onPage(page, '子账号');
    await page.locator('.app-main > .page').evaluate((el) => el.setAttribute('data-old', '1'));
    await page.locator('.tags-view .tag[data-path="/accountList/index"]').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '刷新' }).click();
    await expect.poll(() => page.locator('.app-main > .page').getAttribute('data-old')).toBeNull();
    await onPage(page, '子账号');
    await page.goBack();
    await page.waitForURL('**/dashboard');

    // The helper route on its own: replaced at once by its target, query kept, no tab of its own.
    await page.goto('/redirect/wechatList/index?from=redirect');
    await page.waitForURL('**/wechatList/index?from=redirect');
    await onPage(page, '微信管理');
    const paths = await page
      .locator('.tags-view .tag')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
    expect(paths.filter((p) => p.startsWith('/redirect'))).toEqual([]);
    expect(await toasts.count()).toBe(0);
    t.assertNoErrors();
    await t.close();
  });
});

describe('sidebar logo with the 正式版 label', () => {
  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['375', MOBILE],
  ] as const) {
    it(`keeps the label whole inside the sidebar at ${label} px, expanded and collapsed`, async () => {
      const company = await seedCompany(suite.server);
      const t = await openPage(suite.browser, suite.server, { token: company.token, viewport });
      const { page } = t;
      await page.goto('/dashboard');
      await onPage(page, '用户中心');
      if (viewport === MOBILE) await page.getByRole('button', { name: '展开菜单' }).click();
      const sidebar = page.locator('.sidebar');
      const flag = page.getByTestId('formal-flag');
      await see(flag);
      await expect.poll(async () => (await box(sidebar)).x).toBe(0);

      const check = async (width: number) => {
        const side = await box(sidebar);
        expect(Math.round(side.width)).toBe(width);
        const f = await box(flag);
        expect(f.x).toBeGreaterThanOrEqual(side.x);
        expect(f.x + f.width).toBeLessThanOrEqual(side.x + side.width - 4);
        // Not clipped: the label's text fits its box.
        expect(await flag.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        expect(await flag.innerText()).toBe('正式版');
      };
      await check(SIDEBAR_WIDTH_PX);
      // The title gives way with an ellipsis, before the label.
      const title = page.locator('.sidebar-title');
      expect(await title.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
      expect((await box(title)).x + (await box(title)).width).toBeLessThanOrEqual((await box(flag)).x);
      await screenshot(page, `polish-sidebar-formal-${label}`, false);

      if (viewport === DESKTOP) {
        await page.getByRole('button', { name: '收起菜单' }).click();
        await expect.poll(async () => Math.round((await box(sidebar)).width)).toBe(54);
        await untilStill(page, 300);
        await check(54);
        await screenshot(page, `polish-sidebar-formal-collapsed-${label}`, false);
      }
      t.assertNoErrors();
      await t.close();
    });
  }
});

describe('settings entry', () => {
  it('at 1440 px is a slim edge tab that covers no content, slides out on keyboard focus and opens with Enter', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    const tab = page.getByRole('button', { name: '系统布局设置' });

    const assertCoversNothing = async (what: string) => {
      const tabBox = await box(tab);
      expect(Math.round(tabBox.y)).toBe(250);
      const targets = page.locator(
        '.app-main button:visible, .app-main a:visible, .app-main input:visible, .app-main .ant-card:visible, .app-main .ant-segmented:visible, .app-main .page-header:visible',
      );
      const boxes = await targets.evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return {
            x: r.x,
            y: r.y,
            width: r.width,
            height: r.height,
            text: (el.textContent ?? '').trim().slice(0, 20),
          };
        }),
      );
      expect(boxes.length).toBeGreaterThan(3);
      for (const b of boxes) expect(overlaps(tabBox, b), `${what}: ${b.text}`).toBe(false);
    };

    await page.goto('/wechatList/index');
    await onPage(page, '微信管理');
    await settle(page);
    await see(page.getByRole('button', { name: '刷新' }));
    await assertCoversNothing('微信管理');
    await screenshot(page, 'polish-settings-tab-wechat-1440', false);

    // Keyboard: Tab from the page's last control reaches it; it slides fully into view.
    await page.evaluate(() => {
      const all = Array.from(
        document.querySelectorAll<HTMLElement>(
          '.main-container a[href], .main-container button, .main-container input, .main-container [tabindex="0"]',
        ),
      ).filter((el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null);
      all.at(-1)?.focus();
    });
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('系统布局设置');
    await expect
      .poll(async () => {
        const b = await box(tab);
        return b.x + b.width <= DESKTOP.width + 0.5 && b.x >= DESKTOP.width - 60;
      })
      .toBe(true);
    await screenshot(page, 'polish-settings-tab-focus-1440', false);
    await page.keyboard.press('Enter');
    const drawer = page.locator('.settings-drawer');
    await see(drawer);
    // Chinese labels, like the rest of the console.
    expect(await drawer.locator('.settings-row > span:first-child').allInnerTexts()).toEqual([
      '主题色',
      '显示标签页',
      '固定页头',
      '侧栏标志',
      '组件尺寸',
    ]);
    for (const name of ['显示标签页', '固定页头', '侧栏标志'])
      await see(drawer.getByRole('switch', { name }));
    expect(await drawer.innerText()).not.toMatch(/Tags-View|Header|Logo/);
    await settle(page);
    await screenshot(page, 'polish-settings-drawer-1440', false);
    await page.keyboard.press('Escape');
    await gone(drawer);
    t.assertNoErrors();
    await t.close();

    // The operator's 运营总览: the 90 天 control is not covered either.
    const op = await openPage(suite.browser, suite.server, { token: adminToken });
    await op.page.goto('/operator/index?tab=panel');
    await onPage(op.page, '运营管理');
    await see(op.page.getByText('90 天'));
    await settle(op.page);
    const opTab = await box(op.page.getByRole('button', { name: '系统布局设置' }));
    expect(overlaps(opTab, await box(op.page.locator('.ant-segmented')))).toBe(false);
    expect(overlaps(opTab, await box(op.page.locator('.ops-chart-card')))).toBe(false);
    op.assertNoErrors();
    await op.close();
  });

  it('at 375 px leaves the edge free and opens from 布局设置 in the avatar menu', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    const { page } = t;
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    await settle(page);
    expect(await page.getByRole('button', { name: '系统布局设置' }).count()).toBe(0);
    await screenshot(page, 'polish-dashboard-375', false);
    await chooseFromAvatarMenu(page, '布局设置');
    const drawer = page.locator('.settings-drawer');
    await see(drawer);
    await see(drawer.getByRole('switch', { name: '显示标签页' }));
    await settle(page);
    await screenshot(page, 'polish-settings-drawer-375', false);
    t.assertNoErrors();
    await t.close();
  });
});

describe('购买记录 date filter', () => {
  it('uses antd RangePicker in Chinese and sends the same from/to as before', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    const sent: Array<Record<string, unknown>> = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/order/queryOrders')) sent.push(JSON.parse(req.postData() ?? '{}'));
    });
    await page.goto('/purchaseRecords/index');
    await onPage(page, '套餐');
    await page.getByRole('tab', { name: '购买记录' }).click();
    expect(await page.locator('input[type="date"]').count()).toBe(0);
    const start = page.getByPlaceholder('下单开始日期');
    await see(start);
    await see(page.getByPlaceholder('下单结束日期'));
    await start.click();
    const popup = page.locator('.orders-range-popup');
    await see(popup);
    // zh-cn: weekdays 一…日 starting on Monday, Chinese month names, antd's Chinese buttons.
    const weekdays = await popup.locator('.ant-picker-panel').first().locator('thead th').allInnerTexts();
    expect(weekdays).toEqual(['一', '二', '三', '四', '五', '六', '日']);
    await see(popup.locator('.ant-picker-header-view').first().getByText(/\d+月/));
    await settle(page);
    await screenshot(page, 'polish-orders-range-1440', false);

    // Pick the 3rd and the 12th of the month on show.
    const month = await popup.locator('.ant-picker-cell-in-view').first().getAttribute('title');
    const ym = month!.slice(0, 7);
    sent.length = 0;
    await popup.locator(`.ant-picker-cell-in-view[title="${ym}-03"]`).first().click();
    await popup.locator(`.ant-picker-cell-in-view[title="${ym}-12"]`).first().click();
    await expect.poll(() => sent.length).toBeGreaterThan(0);
    const from = new Date(`${ym}-03T00:00:00+08:00`).getTime();
    const to = new Date(`${ym}-13T00:00:00+08:00`).getTime() - 1;
    expect(sent.at(-1)).toMatchObject({ page: 1, from, to });
    expect(await start.inputValue()).toBe(`${ym}-03`);
    await see(page.getByText('没有符合条件的订单'));

    // 重置 clears the range and the parameters: the unfiltered list is back.
    await page.getByRole('button', { name: /重\s*置/ }).click();
    await expect.poll(() => start.inputValue()).toBe('');
    await see(page.getByText('暂无购买记录'));
    t.assertNoErrors();
    await t.close();

    // At 375 px the two months stack and stay on screen.
    const m = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    await m.page.goto('/purchaseRecords/index');
    await onPage(m.page, '套餐');
    await m.page.getByRole('tab', { name: '购买记录' }).click();
    await m.page.getByPlaceholder('下单开始日期').click();
    const mobilePopup = m.page.locator('.orders-range-popup .ant-picker-panel-container');
    await see(mobilePopup);
    await settle(m.page);
    const p = await box(mobilePopup);
    expect(p.x).toBeGreaterThanOrEqual(0);
    expect(p.x + p.width).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(m.page, 'polish-orders-range-375', false);
    m.assertNoErrors();
    await m.close();
  });
});

/** 30 days of a busy month: a few dozen registrations a day, a handful of paid orders, revenue in yuan. */
function realisticPanel(days: number) {
  const trend = Array.from({ length: days }, (_, i) => {
    const date = new Date(Date.now() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    const paidOrders = i % 5 === 0 ? 0 : 1 + (i % 4);
    return {
      date,
      registered: 12 + ((i * 7) % 23),
      paidOrders,
      revenueFen: (paidOrders * 999 + (i % 3) * 299) * 100,
    };
  });
  return {
    companies: 1280,
    verified: 860,
    reviewing: 6,
    paying: 312,
    onlineAccounts: 2045,
    revenueMonthFen: 45_678_00,
    trend,
  };
}

/** Pixels of the chart's canvas close to `hex`, inside / below the plot area. */
async function linePixels(page: Page, hex: string) {
  const chart = page.locator('.trend-chart');
  await expect.poll(() => chart.getAttribute('data-plot')).toBeTruthy();
  const plot = (await chart.getAttribute('data-plot'))!.split(',').map(Number);
  return chart.evaluate(
    (el, { color, plot: [left, top, right, bottom] }) => {
      const canvas = el.querySelector('canvas')!;
      const ratio = canvas.width / canvas.clientWidth;
      const ctx = canvas.getContext('2d')!;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let inside = 0;
      let below = 0;
      for (let y = 0; y < canvas.height; y++) {
        for (let x = 0; x < canvas.width; x++) {
          const i = (y * canvas.width + x) * 4;
          const d =
            Math.abs(data[i]! - color[0]!) +
            Math.abs(data[i + 1]! - color[1]!) +
            Math.abs(data[i + 2]! - color[2]!);
          if (d > 60) continue;
          const cx = x / ratio;
          const cy = y / ratio;
          if (cx >= left! - 4 && cx <= right! + 4 && cy >= top! - 4 && cy <= bottom! + 4) inside++;
          else if (cy > bottom! + 4) below++;
        }
      }
      return { inside, below };
    },
    { color: parseHex(hex), plot },
  );
}

describe('运营总览 trend chart', () => {
  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['375', MOBILE],
  ] as const) {
    it(`shows both count lines inside the plot, with realistic data, at ${label} px`, async () => {
      const t = await openPage(suite.browser, suite.server, { token: adminToken, viewport });
      const { page } = t;
      await page.route('**/api/home/agentPanel', async (route) => {
        const days = (JSON.parse(route.request().postData() ?? '{}') as { days?: number }).days ?? 30;
        await route.fulfill({ json: { code: '200', message: '成功', data: realisticPanel(days) } });
      });
      await page.goto('/operator/index?tab=panel');
      await onPage(page, '运营管理');
      await see(page.locator('.trend-chart canvas'));
      await settle(page);
      const [registrations, paidOrders] = seriesColors('#1890ff', 3);
      const reg = await linePixels(page, registrations!);
      const paid = await linePixels(page, paidOrders!);
      // Both lines are drawn (a few hundred pixels each) and stay in the plot.
      expect(reg.inside).toBeGreaterThan(150);
      expect(paid.inside).toBeGreaterThan(150);
      expect(reg.below).toBe(0);
      expect(paid.below).toBe(0);
      // Legend with every series.
      expect(await page.locator('.trend-chart').getAttribute('data-series')).toBe(
        '注册公司,支付订单,收入（元）',
      );
      await screenshot(page, `polish-ops-trend-${label}`);
      t.assertNoErrors();
      await t.close();
    });
  }
});

describe('theme colour', () => {
  it('a non-default colour reaches the sidebar active item, stat cards, buttons, tabs and links', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    await page.goto('/dashboard');
    await onPage(page, '用户中心');
    await page.getByRole('button', { name: '系统布局设置' }).click();
    const drawer = page.locator('.settings-drawer');
    await drawer.getByRole('button', { name: '主题色 #f5222d' }).click();
    await page.keyboard.press('Escape');
    await gone(drawer);
    const red = palette('#f5222d');

    const active = page.locator('.sidebar .ant-menu-item-selected');
    await expect.poll(() => active.evaluate((el) => getComputedStyle(el).color)).toBe(rgb(red.onDark));
    expect(await active.evaluate((el) => getComputedStyle(el).boxShadow)).toContain(rgb(red.onDark));

    const first = page.locator('.stat-card').first();
    const gradient = await first.evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(gradient).toContain(rgb(red.primary));
    expect(gradient).toContain(rgb(red.light));
    expect(gradient).not.toContain('rgb(54, 207, 201)'); // the old fixed teal
    await settle(page);
    await screenshot(page, 'polish-theme-red-dashboard-1440', false);

    expect(
      await page.locator('.tags-view .tag-active').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe(rgb(red.primary));
    await page.locator('.sidebar').getByRole('menuitem', { name: '微信管理' }).click();
    await onPage(page, '微信管理');
    expect(
      await page
        .getByRole('button', { name: '添加账号' })
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe(rgb(red.primary));
    expect(
      await page
        .locator('.ant-tabs-tab-active .ant-tabs-tab-btn')
        .evaluate((el) => getComputedStyle(el).color),
    ).toBe(rgb(red.primary));
    await page.goto('/userInfo/index');
    await onPage(page, '控制台');
    const link = page.getByTestId('company-name').locator('..').getByRole('button', { name: '修改' });
    expect(await link.evaluate((el) => getComputedStyle(el).color)).toBe(rgb(red.primary));
    await settle(page);
    await screenshot(page, 'polish-theme-red-userinfo-1440', false);
    t.assertNoErrors();
    await t.close();
  });
});

describe('who is signed in', () => {
  it('a new company sees its company name and initial, an introduction and a live 在线微信 count', async () => {
    const company = await payingCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    await page.goto('/dashboard');
    await onPage(page, '用户中心');

    const avatarButton = page.getByRole('button', { name: '用户菜单' });
    await expect.poll(() => avatarButton.locator('.avatar-name').innerText()).toBe(company.companyName);
    expect(await avatarButton.innerText()).not.toContain(company.phone);
    const src = await avatarButton.locator('img').getAttribute('src');
    expect(src).toMatch(/^data:image\/svg\+xml/);
    expect(decodeURIComponent(src!)).toContain(`>${company.companyName.slice(0, 1)}</text>`);

    const count = page.getByTestId('wx-count');
    await expect.poll(() => count.innerText()).toMatch(/在线微信\s*0/);
    await avatarButton.click();
    const profile = page.getByTestId('avatar-profile');
    await see(profile);
    expect(await profile.innerText()).toContain(company.companyName);
    expect(await profile.innerText()).toContain('接入方式 SaaS');
    await see(page.getByRole('menuitem', { name: '在线微信 0' }));
    await settle(page);
    await screenshot(page, 'polish-avatar-menu-1440', false);
    await page.keyboard.press('Escape');

    // An account logs in elsewhere: the count follows without a reload.
    await loginMessagingAccount(suite.server, company);
    await expect.poll(() => count.innerText(), { timeout: 10_000 }).toMatch(/在线微信\s*1/);
    await count.click();
    await onPage(page, '微信管理');
    t.assertNoErrors();
    await t.close();

    // At 375 px the count sits in the avatar menu.
    const m = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    await m.page.goto('/dashboard');
    await onPage(m.page, '用户中心');
    await m.page.getByRole('button', { name: '用户菜单' }).click();
    await see(m.page.getByRole('menuitem', { name: '在线微信 1' }));
    await see(m.page.getByTestId('avatar-profile').getByText(company.companyName));
    await settle(m.page);
    await screenshot(m.page, 'polish-avatar-menu-375', false);
    m.assertNoErrors();
    await m.close();
  });

  it("an operator sees the operator's own name, 运营管理员 and no messaging count", async () => {
    const t = await openPage(suite.browser, suite.server, { token: adminToken });
    const { page } = t;
    await page.goto('/operator/index');
    await onPage(page, '运营管理');
    const avatarButton = page.getByRole('button', { name: '用户菜单' });
    await expect.poll(() => avatarButton.locator('.avatar-name').innerText()).toBe('运营');
    expect(decodeURIComponent((await avatarButton.locator('img').getAttribute('src'))!)).toContain(
      '>运</text>',
    );
    expect(await page.getByTestId('wx-count').count()).toBe(0);
    await avatarButton.click();
    await see(page.getByTestId('avatar-profile').getByText('运营管理员'));
    t.assertNoErrors();
    await t.close();
  });
});
