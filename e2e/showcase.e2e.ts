import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  apiLogin,
  DESKTOP,
  go,
  MOBILE,
  noPageOverflow,
  onPage,
  openPage,
  pathname,
  screenshot,
  see,
  seedCompany,
  settle,
  startServer,
  type TestPage,
  useSuite,
} from './harness';

/**
 * The template showcase's frame and small pages (issue 15; spec "Template demo routes"): every route
 * as an operator (showcase role admin) and a customer (editor), the menu per role, /401 and /404,
 * cached views across tab switches, ?tab=, the i18n switch, icon search and copy, screenshots; and
 * with SHOWCASE=false none of it.
 */
const suite = useSuite({ SHOWCASE: 'true' });

const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const sidebar = (page: Page) => page.locator('.sidebar');
const tagPaths = (page: Page) =>
  page.locator('.tags-view .tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));

async function withClipboard(t: TestPage): Promise<void> {
  await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.baseUrl });
}

/** Every showcase page and its title (the tab, the breadcrumb and the document title use it). */
const PAGES: [string, string][] = [
  ['/documentation/index', '文档'],
  ['/guide/index', '引导页'],
  ['/permission/directive', '指令权限'],
  ['/icon/index', '图标'],
  ['/nested/menu1/menu1-1', '菜单 1-1'],
  ['/nested/menu1/menu1-2/menu1-2-1', '菜单 1-2-1'],
  ['/nested/menu1/menu1-2/menu1-2-2', '菜单 1-2-2'],
  ['/nested/menu1/menu1-3', '菜单 1-3'],
  ['/nested/menu2', '菜单 2'],
  ['/example/create', 'Create Article'],
  ['/example/list', 'Article List'],
  ['/example/edit/12', 'Edit Article'],
  ['/tab/index', '标签页'],
  ['/error/401', '401'],
  ['/error/404', '404'],
  ['/error-log/log', '错误日志'],
  ['/theme/index', '换肤'],
  ['/clipboard/index', '剪贴板'],
  ['/i18n/index', '国际化'],
];
const ADMIN_ONLY: [string, string][] = [
  ['/permission/page', '页面权限'],
  ['/permission/role', '角色权限'],
];

/**
 * Opens every page by its URL. /example/edit/12 asks the showcase backend for an article this new
 * company doesn't have: the browser logs that 404 answer, which the page itself shows.
 */
async function openEvery(t: TestPage, pages: [string, string][]): Promise<void> {
  const { page } = t;
  t.allow(/status of 404 .*\/vue-element-admin\/article\/detail/);
  for (const [path, title] of pages) {
    await go(page, path);
    await onPage(page, title);
    expect(pathname(page)).toBe(path);
  }
}

describe('template showcase', () => {
  it('as an operator (admin): the whole menu, every page, redirects, the external link', async () => {
    const token = await apiLogin(suite.server, ADMIN.account, ADMIN.password);
    const t = await openPage(suite.browser, suite.server, { token });
    const { page } = t;
    await page.goto('/documentation/index');
    await onPage(page, '文档');
    await see(page.getByTestId('documentation-page').locator('a[href="/docs"]'));
    // Pinned from the start (the template's meta.affix): after the product's own pinned tab, no close button.
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', '/documentation/index']);
    expect(await page.locator('.tag[data-path="/documentation/index"] .tag-close').count()).toBe(0);
    await expect
      .poll(() => page.locator('.app-breadcrumb').textContent())
      .toMatch(/首页\s*\/\s*模板示例\s*\/\s*文档/);

    const menu = sidebar(page);
    await see(menu.getByText('模板示例'));
    await menu.getByRole('menuitem', { name: '权限测试页' }).click();
    for (const name of ['页面权限', '指令权限', '角色权限']) await see(menu.getByRole('menuitem', { name }));
    const external = menu.locator('a[href="https://github.com/PanJiaChen/vue-element-admin"]');
    expect(await external.getAttribute('target')).toBe('_blank');
    expect(await external.getAttribute('rel')).toContain('noopener');
    // The hidden edit page is not in the menu.
    expect(await menu.getByText('Edit Article').count()).toBe(0);

    await openEvery(t, [...PAGES, ...ADMIN_ONLY]);

    // The guide: antd's Tour walks the shell, step by step.
    await go(page, '/guide/index');
    await onPage(page, '引导页');
    await page.getByRole('button', { name: /开始引导/ }).click();
    const tour = page.locator('.ant-tour');
    await see(tour.getByText('菜单开关'));
    await tour.getByRole('button', { name: /下一步/ }).click();
    await see(tour.getByText('面包屑'));
    await tour.getByRole('button', { name: /下一步/ }).click();
    await see(tour.getByText('标签页'));
    await page.keyboard.press('Escape');

    // Parents open their first page; a non-digit article id is no page; unknown paths go to /404.
    await go(page, '/example');
    await expect.poll(() => pathname(page)).toBe('/example/list');
    await go(page, '/nested');
    await expect.poll(() => pathname(page)).toBe('/nested/menu1/menu1-1');
    await go(page, '/example/edit/abc');
    await expect.poll(() => pathname(page)).toBe('/404');
    await go(page, '/no/such/page');
    await expect.poll(() => pathname(page)).toBe('/404');
    t.assertNoErrors();
    await t.close();
  });

  it('as a customer (editor): the menu without admin pages, /401 for them; cached views, ?tab=, i18n, icons, clipboard', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    await withClipboard(t);
    const { page } = t;
    await page.goto('/nested/menu1/menu1-1');
    await onPage(page, '菜单 1-1');

    const menu = sidebar(page);
    await see(menu.getByText('模板示例'));
    // /permission is always shown for editor, with only the page without a role limit.
    await menu.getByRole('menuitem', { name: '权限测试页' }).click();
    await see(menu.getByRole('menuitem', { name: '指令权限' }));
    expect(await menu.getByRole('menuitem', { name: '页面权限' }).count()).toBe(0);
    expect(await menu.getByRole('menuitem', { name: '角色权限' }).count()).toBe(0);
    // The nested page on screen has its sub-menus open.
    await see(menu.getByRole('menuitem', { name: '菜单 1-1' }));

    for (const [path] of ADMIN_ONLY) {
      await go(page, path);
      await expect.poll(() => pathname(page)).toBe('/401');
    }
    await openEvery(t, PAGES);

    // Cached views: what is typed in a nested page survives switching tabs; 刷新 drops it.
    await go(page, '/nested/menu1/menu1-1');
    await onPage(page, '菜单 1-1');
    const note11 = page.getByRole('textbox', { name: '菜单 1-1 的备注' });
    await note11.fill('一一的内容');
    await go(page, '/nested/menu2');
    await onPage(page, '菜单 2');
    await page.getByRole('textbox', { name: '菜单 2 的备注' }).fill('二的内容');
    await page.locator('.tags-view .tag[data-path="/nested/menu1/menu1-1"]').click();
    await onPage(page, '菜单 1-1');
    expect(await note11.inputValue()).toBe('一一的内容');
    // Exactly one page on screen; the other is kept hidden.
    expect(await page.locator('[data-testid="nested-page"]:visible').count()).toBe(1);
    expect(await page.locator('[data-testid="nested-page"]').count()).toBeGreaterThanOrEqual(2);
    await page.locator('.tags-view .tag[data-path="/nested/menu2"]').click();
    await onPage(page, '菜单 2');
    expect(await page.getByRole('textbox', { name: '菜单 2 的备注' }).inputValue()).toBe('二的内容');
    await page.locator('.tags-view .tag[data-path="/nested/menu2"]').click({ button: 'right' });
    await page.locator('.tags-contextmenu').getByRole('menuitem', { name: '刷新' }).click();
    await onPage(page, '菜单 2');
    await expect.poll(() => page.getByRole('textbox', { name: '菜单 2 的备注' }).inputValue()).toBe('');
    // The guide is not cached: no hidden copy stays behind.
    await go(page, '/guide/index');
    await onPage(page, '引导页');
    await go(page, '/nested/menu2');
    await onPage(page, '菜单 2');
    expect(await page.getByTestId('guide-page').count()).toBe(0);

    // Tab: the active tab is in the URL, panes keep their state, one tab in the tags view.
    await go(page, '/tab/index?tab=JP');
    await onPage(page, '标签页');
    await see(page.getByTestId('tab-pane-JP'));
    await page.getByRole('tab', { name: '美国' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=US');
    await page.getByRole('textbox', { name: '美国 备注' }).fill('USD');
    await page.getByRole('tab', { name: '日本' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=JP');
    await page.getByRole('tab', { name: '美国' }).click();
    expect(await page.getByRole('textbox', { name: '美国 备注' }).inputValue()).toBe('USD');
    expect((await tagPaths(page)).filter((p) => p?.startsWith('/tab/index'))).toEqual(['/tab/index?tab=US']);

    // i18n: the demo and antd's texts follow the language; the console stays Chinese.
    await go(page, '/i18n/index');
    await onPage(page, '国际化');
    const title = page.getByTestId('i18n-title');
    await expect.poll(() => title.textContent()).toBe('国际化示例');
    await page.getByText('English', { exact: true }).click();
    await expect.poll(() => title.textContent()).toBe('Internationalization demo');
    await see(page.getByTestId('i18n-page').getByText('/ page').first());
    await screenshot(page, 'showcase-i18n-en-1440');
    await page.getByText('日本語', { exact: true }).click();
    await expect.poll(() => title.textContent()).toBe('国際化デモ');
    await page.getByText('Español', { exact: true }).click();
    await expect.poll(() => title.textContent()).toBe('Demostración de internacionalización');
    await see(page.locator('.app-breadcrumb').getByText('国际化'));

    // Icons: search, a click copies the JSX.
    await go(page, '/icon/index');
    await onPage(page, '图标');
    await see(page.locator('.icon-tile').first());
    await page.getByRole('textbox', { name: '搜索图标' }).fill('wechat');
    await expect.poll(() => page.locator('.icon-tile:visible').count()).toBeLessThan(6);
    await page.locator('.icon-tile[data-icon="WechatOutlined"]').click();
    await expect.poll(() => readClipboard(page)).toBe('<WechatOutlined />');
    await screenshot(page, 'showcase-icons-1440');

    // Clipboard: by button and by the data-clipboard-text attribute.
    await go(page, '/clipboard/index');
    await onPage(page, '剪贴板');
    await page.getByRole('textbox', { name: '要复制的内容（按钮）' }).fill('按钮复制的文字');
    await page.getByRole('tabpanel').getByRole('button', { name: /复制$/ }).click();
    await expect.poll(() => readClipboard(page)).toBe('按钮复制的文字');
    await page.getByRole('tab', { name: '属性方式' }).click();
    await page.getByRole('button', { name: /data-clipboard-text/ }).click();
    await expect.poll(() => readClipboard(page)).toBe('微信 API 客户控制台');

    // Theme: a swatch recolours the console.
    await go(page, '/theme/index');
    await onPage(page, '换肤');
    await page.getByRole('button', { name: '换成 #11a983' }).click();
    await expect
      .poll(() =>
        page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--wxc-primary')),
      )
      .toBe('#11a983');
    await settle(page);
    await screenshot(page, 'showcase-theme-1440');
    await go(page, '/documentation/index');
    await onPage(page, '文档');
    await settle(page);
    await screenshot(page, 'showcase-documentation-1440');
    t.assertNoErrors();
    await t.close();
  });

  it('at 375 px: no sideways scrolling on the showcase pages', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    const { page } = t;
    await page.goto('/documentation/index');
    await onPage(page, '文档');
    for (const [path, title, shot] of [
      ['/documentation/index', '文档', 'documentation'],
      ['/tab/index', '标签页', 'tab'],
      ['/icon/index', '图标', 'icons'],
      ['/nested/menu1/menu1-2/menu1-2-1', '菜单 1-2-1', 'nested'],
    ] as const) {
      await go(page, path);
      await onPage(page, title);
      await settle(page);
      await noPageOverflow(page, `${path} scrolls sideways at 375 px`);
      // The gallery is long: its first screen only.
      if (shot !== 'nested') await screenshot(page, `showcase-${shot}-375`, shot !== 'icons');
    }
    expect(page.viewportSize()).toEqual(MOBILE);
    t.assertNoErrors();
    await t.close();
  });

  it('with SHOWCASE=false: no menu entries, its URLs answer /404, none of its code is fetched', async () => {
    const off = await startServer({ SHOWCASE: 'false' });
    try {
      const company = await seedCompany(off);
      const t = await openPage(suite.browser, off, { token: company.token, viewport: DESKTOP });
      const { page } = t;
      // The showcase's route table, menu icons and pages are chunks of their own (showcase-*.js).
      const fetched: string[] = [];
      page.on('request', (r) => {
        if (/\/assets\/showcase-/.test(new URL(r.url()).pathname)) fetched.push(r.url());
      });
      await page.goto('/dashboard');
      await onPage(page, '用户中心');
      await see(sidebar(page).getByText('测试 & 模拟'));
      expect(await sidebar(page).getByText('模板示例').count()).toBe(0);
      expect(await sidebar(page).getByText('文档').count()).toBe(0);
      expect(await tagPaths(page)).toEqual(['/dashboard']);
      await page.goto('/documentation/index');
      await expect.poll(() => pathname(page)).toBe('/404');
      await go(page, '/nested/menu2');
      await expect.poll(() => pathname(page)).toBe('/404');
      expect(fetched).toEqual([]);
      t.assertNoErrors();
      await t.close();
    } finally {
      await off.stop();
    }
  });
});
