/**
 * Screenshots of every console screen at 1440 px and 375 px, saved to e2e/artifacts/ (gitignored)
 * for people to look at. Each screen also must not scroll sideways at 375 px and must log no error,
 * and every page of the shell (the operator's too) opens with the same page header.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  apiLogin,
  chooseFromAvatarMenu,
  DESKTOP,
  MOBILE,
  noPageOverflow,
  onPage,
  openPage,
  screenshot,
  see,
  seedCompany,
  settle,
  untilStill,
  useSuite,
  visit,
} from './harness';

const suite = useSuite();
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(suite.server, ADMIN.account, ADMIN.password);
});

/**
 * The shell's page header: one, the first thing of the page, holding the page's only h1 (the route
 * title). Returns its look (background, corners, title font), which every page shares.
 */
async function pageHeader(page: Page, path: string, title: string): Promise<string> {
  const main = page.locator('.app-main');
  const header = main.locator('.page-header');
  await see(header);
  expect(await header.count(), path).toBe(1);
  expect(await main.locator('h1').allInnerTexts(), path).toEqual([title]);
  expect(await header.evaluate((el) => el === el.parentElement?.firstElementChild), path).toBe(true);
  return header.evaluate((el) => {
    const h = getComputedStyle(el);
    const h1 = getComputedStyle(el.querySelector('h1')!);
    return `${h.backgroundColor} ${h.borderRadius} ${h1.fontSize} ${h1.fontWeight}`;
  });
}

const VIEWPORTS = [
  ['1440', DESKTOP],
  ['375', MOBILE],
] as const;

const PUBLIC_SCREENS = [
  ['login', '/login', '登录'],
  ['register', '/register', '注册'],
  ['agreement', '/agreement', '服务协议'],
] as const;

const SHELL_SCREENS = [
  ['dashboard', '/dashboard', '用户中心'],
  ['purchase-records', '/purchaseRecords/index', '套餐'],
  ['my-api', '/myAPI/index', '我的API'],
  ['account-list', '/accountList/index', '子账号'],
  ['wechat-list', '/wechatList/index', '微信管理'],
  ['online-test', '/onlineTest/index', '在线测试'],
  ['moniyanshi', '/moniyanshi/index', '模拟演示'],
  ['user-info', '/userInfo/index', '控制台'],
  ['reset-pass', '/userInfo/resetPass', '修改密码'],
  ['reset-phone', '/userInfo/resetPhone', '修改手机号'],
] as const;

describe('screenshots', () => {
  for (const [label, viewport] of VIEWPORTS) {
    it(`captures every screen at ${label} px`, { timeout: 120_000 }, async () => {
      const visitor = await openPage(suite.browser, suite.server, { viewport });
      for (const [name, path, title] of PUBLIC_SCREENS) {
        await visitor.page.goto(path);
        await visitor.page.waitForFunction((t) => document.title.startsWith(t), title);
        await settle(visitor.page);
        await noPageOverflow(visitor.page, `${name} scrolls sideways at ${viewport.width}px`);
        await screenshot(visitor.page, `${name}-${label}`);
      }
      await visitor.page.goto('/login');
      await visitor.page.getByRole('button', { name: '忘记密码？' }).click();
      await settle(visitor.page);
      await screenshot(visitor.page, `forgot-${label}`);
      await visitor.page.getByRole('button', { name: '返回登录' }).click();
      await visitor.page.getByRole('button', { name: '登 录' }).click();
      await screenshot(visitor.page, `login-errors-${label}`);
      visitor.assertNoErrors();
      await visitor.close();

      const company = await seedCompany(suite.server);
      const t = await openPage(suite.browser, suite.server, { viewport, token: company.token });
      const { page } = t;
      const headers = new Set<string>();
      await page.goto('/dashboard');
      for (const [name, path, title] of SHELL_SCREENS) {
        await visit(page, path);
        await onPage(page, title);
        headers.add(await pageHeader(page, path, title));
        await settle(page);
        await noPageOverflow(page, `${name} scrolls sideways at ${viewport.width}px`);
        await screenshot(page, `${name}-${label}`);
      }
      for (const [name, path] of [
        ['404', '/no/such/page'],
        ['401', '/operator/index'],
      ] as const) {
        await visit(page, path);
        await page.waitForURL(`**/${name}`);
        await settle(page);
        await noPageOverflow(page, `${name} scrolls sideways at ${viewport.width}px`);
        await screenshot(page, `${name}-${label}`);
      }

      // Overlays of the shell.
      await visit(page, '/dashboard');
      await onPage(page, '用户中心');
      // Phones open the settings from the avatar menu (no edge tab over the content).
      if (viewport.width < 992) {
        await chooseFromAvatarMenu(page, '布局设置');
      } else {
        await page.getByRole('button', { name: '系统布局设置' }).click();
      }
      await see(page.locator('.settings-drawer'));
      await settle(page);
      await screenshot(page, `settings-${label}`);
      await page.keyboard.press('Escape');
      await untilStill(page, 400);
      if (viewport.width < 992) {
        await page.getByRole('button', { name: '展开菜单' }).click();
        await settle(page);
        await screenshot(page, `sidebar-open-${label}`);
        await page.getByRole('button', { name: '关闭菜单' }).click({ position: { x: 350, y: 400 } });
        await untilStill(page, 400);
        await page.getByRole('button', { name: '用户菜单' }).click();
        await settle(page);
        await screenshot(page, `avatar-menu-${label}`);
        await page.keyboard.press('Escape');
      } else {
        await page.getByRole('menuitem', { name: '我的API' }).click();
        await page.waitForURL('**/myAPI/index');
        await page.locator('.tags-view .tag[data-path="/myAPI/index"]').click({ button: 'right' });
        await see(page.locator('.tags-contextmenu'));
        await screenshot(page, `tags-menu-${label}`, false);
        await page.mouse.click(700, 700);
        await page.getByRole('button', { name: 'API 信息' }).click();
        await settle(page);
        await screenshot(page, `api-info-${label}`);
        await page.getByRole('button', { name: '知道了' }).click();
        await page.getByRole('button', { name: '开通说明' }).click();
        await settle(page);
        await screenshot(page, `api-opening-${label}`);
        await page.getByRole('button', { name: '知道了' }).click();
        await page.getByRole('button', { name: '联系客服' }).click();
        await settle(page);
        await screenshot(page, `support-${label}`);
      }
      await page.locator('.realname-badge').click();
      await settle(page);
      await screenshot(page, `realname-${label}`);
      t.assertNoErrors();
      await t.close();

      // The operator's pages open with the same header.
      const operator = await openPage(suite.browser, suite.server, { viewport, token: adminToken });
      await operator.page.goto('/operator/index');
      await onPage(operator.page, '运营管理');
      headers.add(await pageHeader(operator.page, '/operator/index', '运营管理'));
      await settle(operator.page);
      await screenshot(operator.page, `operator-index-${label}`);
      operator.assertNoErrors();
      await operator.close();
      expect([...headers], 'the page headers look alike').toHaveLength(1);
    });
  }
});
