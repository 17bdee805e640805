import { systemCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';
import { JPEG, PNG, upload } from './realname-helpers.js';

/** 客服: operators set the support QR image and text; every customer's top bar shows them. */
describe.each(dialects)('customer-support contact (%s)', (dialect) => {
  let t: TestApp;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SUPPORT_TEXT: '默认客服说明' });
    operator = (await createAdmin(t)).token;
  });
  afterAll(() => t.close());

  const site = async () => (await t.call(systemCalls.siteInfo, {})).data;
  const image = (url: string) => t.app.inject({ method: 'GET', url });

  it('shows the configured default until an operator sets one', async () => {
    expect(await site()).toMatchObject({ supportQrUrl: null, supportText: '默认客服说明' });
  });

  it('an uploaded QR is served publicly under a random name; a new one replaces it', async () => {
    const first = await upload(t, '/api/admin/support/uploadQr', operator, [
      { field: 'img', fileName: 'qr.png', data: PNG },
    ]);
    expect(first.code).toBe('200');
    const url = first.data.supportQrUrl as string;
    expect(url).toMatch(/^\/support-qr\/[\w-]{16}$/);
    expect((await site()).supportQrUrl).toBe(url);
    const served = await image(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const second = await upload(t, '/api/admin/support/uploadQr', operator, [
      { field: 'img', fileName: 'qr.jpg', data: JPEG, type: 'image/jpeg' },
    ]);
    expect(second.data.supportQrUrl).not.toBe(url);
    expect((await image(url)).statusCode).toBe(404);
    expect((await image(second.data.supportQrUrl)).headers['content-type']).toBe('image/jpeg');
  });

  it('refuses what is not a png/jpeg image, and customers', async () => {
    const before = await site();
    const text = await upload(t, '/api/admin/support/uploadQr', operator, [
      { field: 'img', fileName: 'qr.png', data: 'not an image', type: 'image/png' },
    ]);
    expect(text).toMatchObject({ status: 400, code: '400' });
    const customer = await registerCompany(t);
    const refused = await upload(t, '/api/admin/support/uploadQr', customer.token, [
      { field: 'img', fileName: 'qr.png', data: PNG },
    ]);
    expect(refused).toMatchObject({ status: 403, code: '40300' });
    expect(await site()).toEqual(before);
  });

  it('edits the text, refuses control characters, and falls back to the defaults', async () => {
    const saved = await t.call(
      systemCalls.adminSaveSupport,
      { supportText: '  工作日 9:00-21:00 扫码添加  ' },
      { token: operator },
    );
    expect(saved.data.supportText).toBe('工作日 9:00-21:00 扫码添加');
    expect((await site()).supportText).toBe('工作日 9:00-21:00 扫码添加');
    const bad = await t.call(
      systemCalls.adminSaveSupport,
      { supportText: '客服\u202e说明' },
      { token: operator },
    );
    expect(bad).toMatchObject({ status: 400, code: '400' });
    const qr = (await site()).supportQrUrl as string;
    const reset = await t.call(
      systemCalls.adminSaveSupport,
      { supportText: null, removeQr: true },
      { token: operator },
    );
    expect(reset.data).toEqual({ supportQrUrl: null, supportText: '默认客服说明' });
    expect((await image(qr)).statusCode).toBe(404);
  });
});
