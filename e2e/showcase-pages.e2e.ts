import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  btn,
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
  useSuite,
} from './harness';

/**
 * The showcase's real pages (issue 15, "The pages" 1 and 2): the permission pages (role switch, the
 * <Access> elements, role CRUD with the route tree, persisted) and the example pages (article list
 * with filters, create and edit with the rich-text editor and the markdown summary), as a customer;
 * screenshots at 1440 and 375 px.
 */
const suite = useSuite({ SHOWCASE: 'true' });

const sidebar = (page: Page) => page.locator('.sidebar');
/** The switcher and role of the permission page on screen (the other one may be kept hidden). */
const switcher = (page: Page) => page.locator('[data-testid="switch-roles"]:visible');
const currentRole = (page: Page) => switcher(page).getByTestId('current-role');

/** A customer is `editor` in the showcase: switch to admin on the directive page (any role opens it). */
async function becomeAdmin(page: Page): Promise<void> {
  await go(page, '/permission/directive');
  await onPage(page, '指令权限');
  await switcher(page).getByText('管理员 admin').click();
  await expect.poll(() => currentRole(page).textContent()).toBe('admin');
}

async function openRoles(page: Page): Promise<void> {
  await becomeAdmin(page);
  await go(page, '/permission/role');
  await onPage(page, '角色权限');
  await see(page.getByRole('table', { name: '角色列表' }).getByText('admin', { exact: true }));
}

const roleRow = (page: Page, name: string) =>
  page.getByRole('table', { name: '角色列表' }).locator('tr', { has: page.getByText(name, { exact: true }) });

async function checkRoute(page: Page, title: string): Promise<void> {
  await page
    .getByTestId('role-tree')
    .locator('.ant-tree-treenode', { has: page.getByText(title, { exact: true }) })
    .locator('.ant-tree-checkbox')
    .click();
}

describe('showcase pages: permission and example', () => {
  it('as a customer: switch roles (menu follows), <Access>, role CRUD persisted', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    await page.goto('/permission/directive');
    await onPage(page, '指令权限');
    const menu = sidebar(page);
    await see(menu.getByRole('menuitem', { name: '指令权限' }));
    expect(await currentRole(page).textContent()).toBe('editor');
    await see(page.getByTestId('access-editor'));
    expect(await page.getByTestId('access-admin').count()).toBe(0);
    expect(await menu.getByRole('menuitem', { name: '角色权限' }).count()).toBe(0);

    // Switching the role rebuilds the menu at once.
    await switcher(page).getByText('管理员 admin').click();
    await see(menu.getByRole('menuitem', { name: '角色权限' }));
    await see(menu.getByRole('menuitem', { name: '页面权限' }));
    await see(page.getByTestId('access-admin'));
    expect(await page.getByTestId('access-editor').count()).toBe(0);
    await settle(page, 200);
    await screenshot(page, 'showcase-permission-directive-1440');
    await go(page, '/permission/page');
    await onPage(page, '页面权限');
    await switcher(page).getByText('访客 visitor').click();
    await expect.poll(() => menu.getByRole('menuitem', { name: '权限测试页' }).count()).toBe(0);
    await switcher(page).getByText('编辑 editor').click();
    await see(menu.getByRole('menuitem', { name: '权限测试页' }));
    expect(await menu.getByRole('menuitem', { name: '页面权限' }).count()).toBe(0);
    await go(page, '/permission/role');
    await expect.poll(() => pathname(page)).toBe('/401');

    // Role CRUD: create with two routes checked.
    await openRoles(page);
    expect(
      await roleRow(page, 'admin')
        .getByRole('button', { name: btn('删除') })
        .isDisabled(),
    ).toBe(true);
    await page.getByRole('button', { name: /新建角色/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: btn('保存') }).click();
    await see(dialog.getByText('请输入角色名'));
    await dialog.getByLabel('角色名').fill('E2E 运营');
    await dialog.getByLabel('说明').fill('看文章列表和指令权限');
    await checkRoute(page, '指令权限');
    await checkRoute(page, 'Article List');
    await settle(page, 200);
    await screenshot(page, 'showcase-role-dialog-1440', false);
    await dialog.getByRole('button', { name: btn('保存') }).click();
    await see(roleRow(page, 'E2E 运营'));

    await page.reload();
    await openRoles(page);
    await roleRow(page, 'E2E 运营')
      .getByRole('button', { name: btn('编辑') })
      .click();
    const checked = await page
      .getByTestId('role-tree')
      .locator('.ant-tree-treenode-checkbox-checked .ant-tree-title')
      .allTextContents();
    expect(checked.sort()).toEqual(['Article List', '指令权限'].sort());
    await dialog.getByLabel('角色名').fill('E2E 运营二');
    await dialog.getByRole('button', { name: btn('保存') }).click();
    await see(roleRow(page, 'E2E 运营二'));

    await page.reload();
    await openRoles(page);
    await see(roleRow(page, 'E2E 运营二'));
    expect(await roleRow(page, 'E2E 运营').count()).toBe(0);
    await settle(page);
    await screenshot(page, 'showcase-role-1440');
    await roleRow(page, 'E2E 运营二')
      .getByRole('button', { name: btn('删除') })
      .click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: btn('删除') })
      .click();
    await expect.poll(() => roleRow(page, 'E2E 运营二').count()).toBe(0);
    await page.reload();
    await openRoles(page);
    expect(await roleRow(page, 'E2E 运营二').count()).toBe(0);
    t.assertNoErrors();
    await t.close();
  });

  it('as a customer: create an article with rich text, find it with filters, edit it; 375 px', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    const title = `E2E 文章 ${Date.now() % 100000}`;
    await page.goto('/example/create');
    await onPage(page, 'Create Article');
    const create = page.getByTestId('article-create');
    const editor = create.getByTestId('rich-text-editor');
    await see(editor);
    // Validation: the title is required; publishing needs the rich text.
    await create.getByRole('button', { name: btn('发布') }).click();
    await see(create.getByText('请输入标题'));
    await see(create.getByText('发布前请填写正文'));
    await create.getByLabel('标题', { exact: true }).fill(title);
    await create.getByLabel('作者', { exact: true }).fill('测试作者');
    await create.locator('.ant-rate-star').nth(2).click();
    await create.getByLabel('类型', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="日本"]').click();
    await create.getByLabel('摘要（Markdown）').fill('**要点**：第一条');
    await see(create.getByTestId('summary-preview').locator('strong', { hasText: '要点' }));
    await editor.click();
    await page.keyboard.type('正文第一段');
    await create.getByRole('button', { name: '加粗' }).click();
    await page.keyboard.type('粗体字');
    await see(editor.locator('strong', { hasText: '粗体字' }));
    await settle(page);
    await screenshot(page, 'showcase-article-create-1440');
    await create.getByRole('button', { name: btn('发布') }).click();

    await expect.poll(() => pathname(page)).toBe('/example/list');
    await onPage(page, 'Article List');
    expect(await create.getByLabel('标题', { exact: true }).inputValue()).toBe('');
    await page.getByRole('combobox', { name: '按类型筛选' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="日本"]').click();
    await page.getByRole('textbox', { name: '按标题筛选' }).fill(title);
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    const table = page.getByRole('table', { name: '文章列表' });
    const row = table.locator('tr', { has: page.getByRole('link', { name: title }) });
    await see(row);
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(1);
    await see(row.getByText('已发布'));
    expect(await row.locator('.ant-rate-star-full').count()).toBe(3);
    // A filter that excludes it.
    await page.getByRole('combobox', { name: '按重要性筛选' }).click();
    await page.locator('.ant-select-item-option[title="★（1）"]').click();
    await see(page.getByText('没有符合条件的文章'));
    await page.getByRole('combobox', { name: '按重要性筛选' }).click();
    await page.locator('.ant-select-item-option[title="★★★（3）"]').click();
    await see(row);
    await settle(page);
    await screenshot(page, 'showcase-article-list-1440');

    await row.getByRole('link', { name: title }).click();
    await onPage(page, 'Edit Article');
    const edit = page.getByTestId('article-edit');
    expect(pathname(page)).toMatch(/^\/example\/edit\/\d+$/);
    const editPath = pathname(page);
    await see(edit.getByTestId('rich-text-editor').locator('strong', { hasText: '粗体字' }));
    await edit.getByLabel('标题', { exact: true }).fill(`${title} 已改`);
    await edit.getByRole('button', { name: '保存草稿' }).click();
    await see(page.getByText(`文章「${title} 已改」已保存为草稿`));
    await settle(page);
    await screenshot(page, 'showcase-article-edit-1440');
    await page.reload();
    await onPage(page, 'Edit Article');
    await expect.poll(() => edit.getByLabel('标题', { exact: true }).inputValue()).toBe(`${title} 已改`);
    await see(edit.getByTestId('article-meta').getByText('草稿'));
    await go(page, '/example/edit/12x');
    await expect.poll(() => pathname(page)).toBe('/404');
    t.assertNoErrors();
    await t.close();

    // 375 px: the list, the editor and the role page.
    const m = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    const p = m.page;
    await p.goto('/example/list');
    await onPage(p, 'Article List');
    await see(p.getByRole('link', { name: `${title} 已改` }));
    await settle(p);
    await noPageOverflow(p, 'the article list scrolls sideways at 375 px');
    await screenshot(p, 'showcase-article-list-375');
    await go(p, editPath);
    await onPage(p, 'Edit Article');
    await see(p.getByTestId('article-edit').getByTestId('rich-text-editor'));
    await settle(p);
    await noPageOverflow(p, 'the article editor scrolls sideways at 375 px');
    await screenshot(p, 'showcase-article-edit-375');
    await becomeAdmin(p);
    await go(p, '/permission/role');
    await onPage(p, '角色权限');
    await see(p.getByTestId('role-card-admin'));
    await settle(p);
    await noPageOverflow(p, 'the role page scrolls sideways at 375 px');
    await screenshot(p, 'showcase-role-375');
    m.assertNoErrors();
    await m.close();
  });
});
