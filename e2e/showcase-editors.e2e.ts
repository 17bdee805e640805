import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  go,
  MOBILE,
  noPageOverflow,
  onPage,
  openPage,
  screenshot,
  see,
  seedCompany,
  settle,
  useSuite,
} from './harness';
import { png } from './png';

/**
 * The showcase's editor pages (issue 16, "Components"): the full rich-text editor (bold text in its
 * HTML output, an image uploaded through its button), markdown with live preview and its HTML, the
 * JSON editor (a parse error in text mode, a rule broken, tree mode) and nested split panes (mouse
 * and keyboard); each page at 375 px without sideways scroll. Screenshots at 1440 and 375 px.
 */
const suite = useSuite({ SHOWCASE: 'true' });

const visible = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true });
const percent = async (page: Page, testId: string) =>
  Number.parseInt((await visible(page, `${testId}-size`).textContent()) ?? '', 10);
const IMAGE = png(24, 16, (x, y) => [x * 10, y * 15, 200]);

describe('showcase editor pages', () => {
  it('as a customer at 1440 px: rich text with an uploaded image, markdown, JSON, split panes', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;

    // Rich text: bold text reaches the HTML output; an image goes up through the image button.
    await page.goto('/components/tinymce');
    await onPage(page, '富文本编辑器');
    const editor = page.getByTestId('full-rich-text-editor');
    await see(editor.locator('h2', { hasText: '富文本编辑器' }));
    // At the end of the document (the last list item), a new item, and out of the list.
    await editor.locator('li').last().click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: '加粗' }).click();
    await page.keyboard.type('粗体输出');
    await see(page.getByTestId('tinymce-rendered').locator('strong', { hasText: '粗体输出' }));
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: '插入图片' }).click(),
    ]);
    await chooser.setFiles({ name: '示例.png', mimeType: 'image/png', buffer: IMAGE });
    await see(editor.locator('img[src^="/showcase-file/"]'));
    await expect
      .poll(() => editor.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(24);
    await see(page.getByTestId('tinymce-rendered').locator('img[alt="示例.png"]'));
    await page.getByRole('tab', { name: 'HTML 源码' }).click();
    await see(page.getByTestId('tinymce-source').getByText('<strong>粗体输出</strong>', { exact: false }));
    await settle(page);
    await screenshot(page, 'showcase-tinymce-1440');

    // Markdown: a heading in the preview and in the HTML tab; the toolbar bolds the selection.
    await go(page, '/components/markdown');
    await onPage(page, 'Markdown');
    const source = page.getByRole('textbox', { name: 'Markdown 内容' });
    await source.fill('# 标题\n\n正文');
    await see(visible(page, 'markdown-preview').locator('h1', { hasText: '标题' }));
    await source.evaluate((el: HTMLTextAreaElement) => {
      el.focus();
      el.setSelectionRange(el.value.length - 2, el.value.length);
    });
    await page.getByRole('button', { name: '加粗' }).filter({ visible: true }).click();
    await see(visible(page, 'markdown-preview').locator('strong', { hasText: '正文' }));
    await page.getByRole('tab', { name: 'HTML' }).click();
    await see(visible(page, 'markdown-html').getByText('<h1>标题</h1>', { exact: false }));
    await settle(page);
    await screenshot(page, 'showcase-markdown-1440');

    // JSON: valid sample; a parse error in text mode; a broken rule; then tree mode.
    await go(page, '/components/json-editor');
    await onPage(page, 'JSON 编辑器');
    const status = visible(page, 'json-editor-status');
    await see(status.getByText('JSON 有效，且符合示例规则'));
    await page.locator('.jse-group-button', { hasText: '文本' }).click();
    const code = page.locator('.jse-text-mode .cm-content');
    await code.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('{"name": "测试", "version": }');
    await see(status.getByText(/JSON 格式错误/));
    await settle(page);
    await screenshot(page, 'showcase-json-editor-error-1440');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('{"name": "测试", "version": 0}');
    await see(status.getByText('有 1 处不符合示例规则'));
    await see(status.getByText('version 须是不小于 1 的整数'));
    await page.locator('.jse-group-button', { hasText: '树形' }).click();
    await see(page.locator('.jse-tree-mode').getByText('version', { exact: true }));
    await see(status.getByText('有 1 处不符合示例规则'));
    await settle(page);
    await screenshot(page, 'showcase-json-editor-1440');

    // Split panes: drag the outer handle, then resize the inner one with the keyboard.
    await go(page, '/components/split-pane');
    await onPage(page, 'Splitpane');
    await expect.poll(() => percent(page, 'pane-left')).toBe(30);
    const handle = visible(page, 'split-handle-outer');
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 200, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => percent(page, 'pane-left')).toBeGreaterThan(40);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBeGreaterThan(40);
    await expect.poll(() => percent(page, 'pane-top')).toBe(50);
    await visible(page, 'split-handle-inner').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => percent(page, 'pane-top')).toBeGreaterThan(50);
    await settle(page);
    await screenshot(page, 'showcase-split-pane-1440');
    await page.getByRole('button', { name: /恢复默认/ }).click();
    await expect.poll(() => percent(page, 'pane-left')).toBe(30);

    // Cached views: back on the editors' tabs, what was typed is still there.
    await go(page, '/components/tinymce');
    await onPage(page, '富文本编辑器');
    await see(visible(page, 'full-rich-text-editor').locator('strong', { hasText: '粗体输出' }));
    await see(visible(page, 'full-rich-text-editor').locator('img[src^="/showcase-file/"]'));
    await go(page, '/components/json-editor');
    await onPage(page, 'JSON 编辑器');
    await see(page.locator('.jse-tree-mode').getByText('测试', { exact: true }));
    await see(visible(page, 'json-editor-status').getByText('有 1 处不符合示例规则'));
    t.assertNoErrors();
    await t.close();
  });

  it('as a customer at 375 px: every editor page fits the width', async () => {
    const company = await seedCompany(suite.server);
    const m = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    const { page } = m;
    const pages = [
      ['/components/tinymce', '富文本编辑器', 'tinymce-page', 'showcase-tinymce-375'],
      ['/components/markdown', 'Markdown', 'markdown-page', 'showcase-markdown-375'],
      ['/components/json-editor', 'JSON 编辑器', 'json-editor-page', 'showcase-json-editor-375'],
      ['/components/split-pane', 'Splitpane', 'split-pane-page', 'showcase-split-pane-375'],
    ] as const;
    await page.goto(pages[0][0]);
    for (const [path, title, testId, shot] of pages) {
      await go(page, path);
      await onPage(page, title);
      await see(page.getByTestId(testId));
      await settle(page);
      await noPageOverflow(page, `${path} scrolls sideways at 375 px`);
      await screenshot(page, shot);
    }
    // Stacked on a phone: the outer handle resizes heights.
    const handle = visible(page, 'split-handle-outer');
    expect(await handle.getAttribute('aria-orientation')).toBe('horizontal');
    m.assertNoErrors();
    await m.close();
  });
});
