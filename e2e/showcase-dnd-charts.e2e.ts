import type { Locator, Page } from 'playwright-core';
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

/**
 * The showcase's drag-and-drop and chart pages (issue 16): drag-select (tags reordered by pointer
 * and keyboard), dnd-list (an article moved between the lists), drag-kanban (a card moved, added
 * and deleted, kept across a reload), the three charts (drawn, resized with the sidebar); every
 * page at 375 px without sideways scroll. As a customer.
 */
const suite = useSuite({ SHOWCASE: 'true' });

/**
 * A pointer drag as dnd-kit needs it: press, move past its 5 px threshold in steps, then release once
 * the page shows where the item will land (`landed`), as a user waits for the gap to open. Released
 * on a timer instead, a busy machine could drop before dnd-kit had seen the last move (no change).
 */
async function drag(
  page: Page,
  from: Locator,
  to: { x: number; y: number },
  landed: () => Promise<unknown>,
  during?: () => Promise<unknown>,
): Promise<void> {
  const box = (await from.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 8, box.y + box.height / 2 + 8, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await landed();
  await during?.();
  await page.mouse.up();
}

/** A sortable item dnd-kit has shifted aside to make room for the one dragged. */
const shifted = (item: Locator) =>
  expect.poll(() => item.evaluate((el) => el.style.transform)).toMatch(/translate3d\((?!0px, 0px)/);

async function centre(locator: Locator, dy = 0): Promise<{ x: number; y: number }> {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 + dy };
}

/** Keyboard drag: focus, Space to lift, the keys, Space to drop (dnd-kit listens a tick later). */
async function keyboardMove(page: Page, item: Locator, keys: string[]): Promise<void> {
  await item.focus();
  await page.keyboard.press('Space');
  await page.waitForTimeout(100);
  for (const key of keys) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
  }
  await page.keyboard.press('Space');
  await page.waitForTimeout(250);
}

const visible = (page: Page, selector: string) => page.locator(`${selector}:visible`);
const ids = (lane: Locator) => lane.locator('.dnd-item').evaluateAll((els) => els.map((e) => e.dataset.id));
const kanbanSaved = (page: Page) =>
  page.waitForResponse(
    (r) => r.url().includes('/vue-element-admin/kanban') && r.request().method() === 'PUT',
  );

describe('showcase: drag and drop, kanban, charts', () => {
  it('as a customer: drag-select, dnd-list, drag-kanban (persisted), charts resize with the sidebar', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;

    // drag-select: three chosen, the last tag dragged before the first, then one moved by keyboard.
    await page.goto('/components/drag-select');
    await onPage(page, '拖拽 Select');
    const order = visible(page, '[data-testid="drag-order"]');
    await page.getByRole('combobox', { name: '选择水果' }).click();
    for (const fruit of ['苹果', '香蕉', '橙子']) {
      await page.locator('.ant-select-item-option', { hasText: fruit }).click();
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => order.textContent()).toBe('当前顺序：苹果 → 香蕉 → 橙子');
    const tag = (v: string) => page.locator(`.drag-tag[data-value="${v}"]`);
    const first = (await tag('苹果').boundingBox())!;
    await drag(page, tag('橙子'), { x: first.x + 4, y: first.y + first.height / 2 }, () =>
      shifted(tag('苹果')),
    );
    await expect.poll(() => order.textContent()).toBe('当前顺序：橙子 → 苹果 → 香蕉');
    await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
    await keyboardMove(page, tag('苹果'), ['ArrowRight']);
    await expect.poll(() => order.textContent()).toBe('当前顺序：橙子 → 香蕉 → 苹果');
    expect(await page.locator('.ant-select-dropdown:visible').count()).toBe(0);
    await settle(page, 200);
    await screenshot(page, 'showcase-drag-select-1440');

    // dnd-list: the first article of list A dragged into list B, then B's first moved down by keyboard.
    await go(page, '/components/dnd-list');
    await onPage(page, '列表拖拽');
    const laneA = visible(page, '[data-testid="lane-a"]');
    const laneB = visible(page, '[data-testid="lane-b"]');
    await see(laneA.locator('.dnd-item'));
    const [moved] = await ids(laneA);
    const before = await ids(laneB);
    expect(before.length).toBeGreaterThan(1);
    await drag(
      page,
      laneA.locator('.dnd-item').first(),
      await centre(laneB.locator('.dnd-item').first(), 6),
      // Across lanes the item moves while it is dragged: the gap in B is the item itself.
      () => expect.poll(() => ids(laneB)).toContain(moved),
    );
    // Dropped: the lanes shown are the page's again, not the drag's draft (which had it in B too).
    await expect.poll(() => page.locator('.dnd-overlay').count()).toBe(0);
    await expect.poll(() => ids(laneB)).toContain(moved);
    expect(await ids(laneA)).not.toContain(moved);
    const orderB = laneB.getByTestId('order-b');
    expect(await orderB.textContent()).toContain(`#${moved!.replace('article-', '')}`);
    const inB = await ids(laneB);
    await keyboardMove(page, laneB.locator('.dnd-item').first(), ['ArrowDown']);
    await expect.poll(() => ids(laneB)).toEqual([inB[1], inB[0], ...inB.slice(2)]);
    await settle(page, 200);
    await screenshot(page, 'showcase-dnd-list-1440');

    // drag-kanban: a card from 待办 to 已完成, a card added to 进行中; both kept across a reload.
    await go(page, '/components/drag-kanban');
    await onPage(page, '可拖拽看板');
    const lane = (key: string) => visible(page, `[data-testid="lane-${key}"]`);
    await see(lane('todo').locator('.dnd-item'));
    const [card] = await ids(lane('todo'));
    let saved = kanbanSaved(page);
    await drag(
      page,
      lane('todo').locator(`[data-id="${card}"]`),
      await centre(lane('done').locator('ul'), 20),
      () => expect.poll(() => ids(lane('done'))).toContain(card),
      () => screenshot(page, 'showcase-drag-kanban-dragging-1440', false),
    );
    expect((await saved).ok()).toBe(true);
    expect(await ids(lane('done'))).toContain(card);
    saved = kanbanSaved(page);
    await lane('doing').getByRole('textbox').fill('E2E 新卡片');
    await lane('doing').getByRole('textbox').press('Enter');
    expect((await saved).ok()).toBe(true);
    await see(lane('doing').getByText('E2E 新卡片'));
    await see(page.getByTestId('kanban-status').getByText('已保存'));
    await settle(page, 200);
    await screenshot(page, 'showcase-drag-kanban-1440');

    await page.reload();
    await onPage(page, '可拖拽看板');
    await see(lane('done').locator(`[data-id="${card}"]`));
    expect(await ids(lane('todo'))).not.toContain(card);
    await see(lane('doing').getByText('E2E 新卡片'));
    saved = kanbanSaved(page);
    await lane('doing').getByRole('button', { name: '删除「E2E 新卡片」' }).click();
    expect((await saved).ok()).toBe(true);
    expect(await lane('doing').getByText('E2E 新卡片').count()).toBe(0);

    // Charts: a canvas with a size, wider when the sidebar folds, back when it opens.
    for (const [path, title, shot] of [
      ['/charts/keyboard', '键盘图表', 'keyboard'],
      ['/charts/line', '折线图', 'line'],
      ['/charts/mixchart', '混合图表', 'mixchart'],
    ] as const) {
      await go(page, path);
      await onPage(page, title);
      const canvas = visible(page, '[data-testid="showcase-chart"] canvas').first();
      await canvas.waitFor();
      const width = async () => (await canvas.boundingBox())?.width ?? 0;
      const open = await width();
      expect(open, `${title} is drawn`).toBeGreaterThan(300);
      expect((await canvas.boundingBox())!.height).toBeGreaterThan(300);
      await settle(page, 900);
      await screenshot(page, `showcase-chart-${shot}-1440`);
      await page.locator('.hamburger').click();
      await expect
        .poll(width, { message: `${title} grows when the sidebar folds` })
        .toBeGreaterThan(open + 50);
      await page.locator('.hamburger').click();
      await expect.poll(width, { message: `${title} shrinks back` }).toBeCloseTo(open, 0);
    }
    t.assertNoErrors();
  });

  it('every page at 375 px: no sideways scroll', async () => {
    const company = await seedCompany(suite.server);
    const m = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    const { page } = m;
    await page.goto('/components/drag-select');
    for (const [path, title, shot, ready] of [
      ['/components/drag-select', '拖拽 Select', 'drag-select', '[data-testid="drag-order"]'],
      ['/components/dnd-list', '列表拖拽', 'dnd-list', '.dnd-item'],
      ['/components/drag-kanban', '可拖拽看板', 'drag-kanban', '.dnd-item'],
      ['/charts/keyboard', '键盘图表', 'chart-keyboard', '[data-testid="showcase-chart"] canvas'],
      ['/charts/line', '折线图', 'chart-line', '[data-testid="showcase-chart"] canvas'],
      ['/charts/mixchart', '混合图表', 'chart-mixchart', '[data-testid="showcase-chart"] canvas'],
    ] as const) {
      await go(page, path);
      await onPage(page, title);
      await see(page.locator(ready));
      if (shot === 'drag-select') {
        // Enough tags to wrap onto a second line.
        await page.getByRole('combobox', { name: '选择水果' }).click();
        for (const fruit of ['西瓜', '草莓', '芒果', '菠萝', '樱桃', '柠檬']) {
          await page.locator('.ant-select-item-option', { hasText: fruit }).click();
        }
        await page.keyboard.press('Escape');
      }
      await settle(page, 600);
      await noPageOverflow(page, `${path} scrolls sideways at 375 px`);
      await screenshot(page, `showcase-${shot}-375`);
    }
    m.assertNoErrors();
  });
});
