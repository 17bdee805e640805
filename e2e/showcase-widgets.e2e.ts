import { describe, expect, it } from 'vitest';
import {
  btn,
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
 * The showcase's upload and widget pages (issue 16, "Components"): avatar upload with crop (kept
 * after a reload), dropzone (checks before sending, a server refusal, the stored file's link), sticky,
 * count-to, mixin form validation, back-to-top and the draggable dialog, as a customer; then every
 * page at 375 px without sideways scrolling.
 */
const suite = useSuite({ SHOWCASE: 'true' });

const PHOTO = png(300, 200, (x, y) => [x % 256, (y * 2) % 256, 160]);
const MB = 1024 * 1024;

describe('showcase widgets', () => {
  it('as a customer: avatar, dropzone, sticky, count-to, mixin, back-to-top, drag dialog', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    // The dropzone's file with a false name is refused by the service (400), on purpose.
    t.allow(/Failed to load resource: the server responded with a status of 400/);

    // Avatar: choose, crop, upload; the navbar shows it at once; kept after a reload.
    await page.goto('/components/avatar-upload');
    await onPage(page, '头像上传');
    const avatarPage = page.getByTestId('avatar-upload-page');
    await see(avatarPage.getByTestId('avatar-empty'));
    await avatarPage
      .getByTestId('avatar-file')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PHOTO });
    const dialog = page.getByRole('dialog', { name: '裁剪头像' });
    await see(dialog.getByTestId('avatar-crop').locator('img'));
    // Zoom in and move the crop: the saved square is a part of the photo.
    await dialog.getByRole('slider').focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    const area = await dialog.getByTestId('avatar-crop').boundingBox();
    if (!area) throw new Error('no crop area');
    await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    await page.mouse.down();
    await page.mouse.move(area.x + area.width / 2 + 30, area.y + area.height / 2 + 10, { steps: 5 });
    await page.mouse.up();
    await settle(page, 200);
    await screenshot(page, 'showcase-avatar-crop-1440', false);
    await dialog.getByRole('button', { name: btn('上传') }).click();
    await see(page.getByText('头像已更新'));
    const current = avatarPage.getByTestId('avatar-current');
    await see(current);
    const shown = await current.getAttribute('src');
    expect(shown).toMatch(/\/showcase-file\//);
    await expect.poll(() => page.getByTestId('avatar-image').locator('img').getAttribute('src')).toBe(shown);
    const natural = () =>
      current.evaluate(async (img: HTMLImageElement) => {
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      });
    const [w, h] = await natural();
    expect(w).toBe(h);
    expect(w).toBeGreaterThan(50);
    await settle(page);
    await screenshot(page, 'showcase-avatar-upload-1440');
    await page.reload();
    await onPage(page, '头像上传');
    await see(current);
    expect((await natural())[0]).toBe(w);

    // Dropzone: the checks before sending, a refusal of the service, a stored file with its link.
    await go(page, '/components/dropzone');
    await onPage(page, 'Dropzone');
    const zone = page.getByTestId('dropzone-page');
    let uploads = 0;
    page.on('request', (r) => {
      if (r.url().includes('/vue-element-admin/upload')) uploads++;
    });
    await zone.getByTestId('dropzone-input').setInputFiles([
      { name: 'good.png', mimeType: 'image/png', buffer: PHOTO },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('不是图片') },
      { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([PHOTO, Buffer.alloc(6 * MB)]) },
    ]);
    const link = zone.getByRole('link', { name: 'good.png' });
    await see(link);
    const item = (name: string) => zone.getByTestId('dropzone-item').filter({ hasText: name });
    await see(
      item('notes.txt').getByText('未上传：不支持的文件类型：仅支持 PNG、JPEG、GIF、WebP 图片或 PDF'),
    );
    await see(item('huge.png').getByText(/^未上传：文件过大（6(\.\d)? MB），不能超过 5 MB$/));
    await see(item('good.png').locator('img'));
    const href = await link.getAttribute('href');
    if (!href) throw new Error('no link');
    const fetched = await page.request.get(href);
    expect(fetched.status()).toBe(200);
    expect(Buffer.from(await fetched.body()).equals(PHOTO)).toBe(true);
    expect(uploads).toBe(1);
    // A name that says PNG on bytes that are not: the service looks at the bytes.
    await zone.getByTestId('dropzone-input').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('这其实是一段文字'),
    });
    await see(item('fake.png').getByText(/^服务器拒绝：/));
    expect(uploads).toBe(2);
    await settle(page);
    await screenshot(page, 'showcase-dropzone-1440');

    // Sticky: the bar sticks to the top once scrolled past, and lets go when scrolled back.
    await go(page, '/components/sticky');
    await onPage(page, 'Sticky');
    const bar = page.getByTestId('sticky-bar');
    await see(bar);
    expect(await bar.getAttribute('data-stuck')).toBe('false');
    await page.evaluate(() => scrollTo(0, 800));
    await expect.poll(() => bar.getAttribute('data-stuck')).toBe('true');
    await see(bar.getByText('已吸顶'));
    expect((await bar.boundingBox())?.y).toBe(0);
    await settle(page, 300);
    await screenshot(page, 'showcase-sticky-stuck-1440', false);
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(() => bar.getAttribute('data-stuck')).toBe('false');

    // Count to: the settings, start, pause and resume, the final formatted number.
    await go(page, '/components/count-to');
    await onPage(page, 'Count To');
    const value = page.getByTestId('count-to-value');
    await see(value);
    expect(await value.textContent()).toBe('¥ 0 元');
    await page.getByLabel('结束值').fill('1234567.891');
    await page.getByLabel('小数位数').fill('2');
    await page.getByLabel('时长（毫秒）').fill('1500');
    await page.getByLabel('后缀').fill(' rmb');
    await page.getByRole('button', { name: btn('开始') }).click();
    await page.getByRole('button', { name: btn('暂停') }).click();
    const paused = await value.textContent();
    expect(paused).not.toBe('¥ 1,234,567.89 rmb');
    await page.waitForTimeout(300);
    expect(await value.textContent()).toBe(paused);
    await page.getByRole('button', { name: btn('继续') }).click();
    await expect
      .poll(async () => `${await value.textContent()} ${await value.getAttribute('data-phase')}`, {
        timeout: 5000,
      })
      .toBe('¥ 1,234,567.89 rmb done');
    await settle(page);
    await screenshot(page, 'showcase-count-to-1440');
    await page.getByRole('button', { name: btn('重置') }).click();
    expect(await value.textContent()).toBe('¥ 0.00 rmb');

    // Mixin: submitting empty shows the errors in Chinese; filled in, a success.
    await go(page, '/components/mixin');
    await onPage(page, '小组件');
    const form = page.getByRole('form', { name: '活动报名' });
    await form.getByRole('button', { name: btn('提交') }).click();
    for (const error of [
      '请输入姓名',
      '请输入手机号',
      '请选择城市',
      '请选择参加日期',
      '请至少选择一个主题',
      '请阅读并同意活动须知',
    ]) {
      await see(form.getByText(error, { exact: true }));
    }
    await settle(page);
    await screenshot(page, 'showcase-mixin-errors-1440');
    await form.getByLabel('姓名').fill('张三');
    await form.getByLabel('手机号').fill('1380013');
    await form.getByLabel('邮箱（选填）').click();
    await see(form.getByText('请输入 11 位手机号'));
    await form.getByLabel('手机号').fill('13800138000');
    await form.getByLabel('城市').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="杭州"]').click();
    await form.getByLabel('参加日期').click();
    await form.getByLabel('参加日期').fill('2026-12-01');
    await page.keyboard.press('Enter');
    await form.getByLabel('回调配置').check();
    await form.getByLabel('我已阅读并同意活动须知').check();
    await form.getByRole('button', { name: btn('提交') }).click();
    await see(page.getByText('报名成功：张三，杭州，2026-12-01'));

    // Back to top: appears after scrolling down, brings the page back to the top.
    await go(page, '/components/back-to-top');
    await onPage(page, '返回顶部');
    const top = page.getByTestId('back-to-top');
    expect(await top.isVisible()).toBe(false);
    await page.evaluate(() => scrollTo(0, 2000));
    await see(top);
    await settle(page, 300);
    await screenshot(page, 'showcase-back-to-top-1440', false);
    await top.click();
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);

    // Drag dialog: moves with its header, stays inside the window however far it is dragged.
    await go(page, '/components/drag-dialog');
    await onPage(page, '拖拽 Dialog');
    await page.getByRole('button', { name: '打开可拖拽对话框' }).click();
    const box = page.getByTestId('drag-dialog');
    const handle = box.locator('.drag-dialog-handle');
    await see(handle);
    await settle(page, 400);
    const drag = async (dx: number, dy: number) => {
      const h = await handle.boundingBox();
      if (!h) throw new Error('no handle');
      await page.mouse.move(h.x + 20, h.y + h.height / 2);
      await page.mouse.down();
      await page.mouse.move(h.x + 20 + dx, h.y + h.height / 2 + dy, { steps: 8 });
      await page.mouse.up();
    };
    const before = await box.boundingBox();
    await drag(200, 0);
    // react-draggable renders its new position after the release (a state update): wait for it.
    await expect
      .poll(async () => Math.round(((await box.boundingBox())?.x ?? 0) - (before?.x ?? 0)))
      .toBe(200);
    const after = await box.boundingBox();
    // Moved sideways only (the centred dialog may start at a fraction of a pixel).
    expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThan(1);
    await settle(page, 200);
    await screenshot(page, 'showcase-drag-dialog-1440', false);
    await drag(3000, 3000);
    const far = await box.boundingBox();
    if (!far) throw new Error('no dialog');
    expect(far.x + far.width).toBeLessThanOrEqual(1440);
    expect(far.y + far.height).toBeLessThanOrEqual(900);
    await drag(-5000, -5000);
    const back = await box.boundingBox();
    expect(back?.x).toBeGreaterThanOrEqual(0);
    expect(back?.y).toBeGreaterThanOrEqual(0);
    await page
      .locator('.ant-modal-footer')
      .getByRole('button', { name: btn('关闭') })
      .click();

    t.assertNoErrors();
    await t.close();
  });

  it('every widget page at 375 px without sideways scrolling', async () => {
    const company = await seedCompany(suite.server);
    const m = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    const p = m.page;
    const pages: [string, string, string][] = [
      ['/components/avatar-upload', '头像上传', 'avatar-upload-page'],
      ['/components/dropzone', 'Dropzone', 'dropzone-page'],
      ['/components/sticky', 'Sticky', 'sticky-page'],
      ['/components/count-to', 'Count To', 'count-to-page'],
      ['/components/mixin', '小组件', 'mixin-page'],
      ['/components/back-to-top', '返回顶部', 'back-to-top-page'],
      ['/components/drag-dialog', '拖拽 Dialog', 'drag-dialog-page'],
    ];
    // With the shell's fixed header (a setting): the sticky bar then stops under the header.
    await p.addInitScript(() =>
      localStorage.setItem('wxc-settings', JSON.stringify({ state: { fixedHeader: true }, version: 1 })),
    );
    await p.goto('/components/avatar-upload');
    for (const [path, title, testId] of pages) {
      await go(p, path);
      await onPage(p, title);
      await see(p.getByTestId(testId));
      await settle(p);
      await noPageOverflow(p, `${path} scrolls sideways at 375 px`);
      await screenshot(p, `showcase-${testId.replace(/-page$/, '')}-375`);
    }
    // The sticky bar stuck under the fixed header at 375 px, and the dialogs on a phone.
    await go(p, '/components/sticky');
    await onPage(p, 'Sticky');
    await p.evaluate(() => scrollTo(0, 900));
    await expect.poll(() => p.getByTestId('sticky-bar').getAttribute('data-stuck')).toBe('true');
    const header = await p.locator('.app-header.fixed-header').boundingBox();
    expect(header?.y).toBe(0);
    await expect.poll(async () => (await p.getByTestId('sticky-bar').boundingBox())?.y).toBe(header?.height);
    await noPageOverflow(p, 'the stuck bar scrolls sideways at 375 px');
    await settle(p, 300);
    await screenshot(p, 'showcase-sticky-stuck-375', false);
    await go(p, '/components/drag-dialog');
    await onPage(p, '拖拽 Dialog');
    await p.evaluate(() => scrollTo(0, 0));
    await p.getByRole('button', { name: '打开可拖拽对话框' }).click();
    await see(p.getByTestId('drag-dialog').locator('.drag-dialog-handle'));
    await settle(p, 400);
    await noPageOverflow(p, 'the drag dialog scrolls sideways at 375 px');
    await screenshot(p, 'showcase-drag-dialog-375', false);
    await p
      .locator('.ant-modal-footer')
      .getByRole('button', { name: btn('关闭') })
      .click();
    await go(p, '/components/avatar-upload');
    await onPage(p, '头像上传');
    await p
      .getByTestId('avatar-file')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PHOTO });
    await see(p.getByTestId('avatar-crop').locator('img'));
    await settle(p, 300);
    await noPageOverflow(p, 'the crop dialog scrolls sideways at 375 px');
    await screenshot(p, 'showcase-avatar-crop-375', false);
    m.assertNoErrors();
    await m.close();
  });
});
