import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { apiAccountCalls, authCalls, IMAGE_MAX_BYTES, orderCalls, realNameCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent as LiveEvent } from '../src/modules/events/bus.js';
import { buyAndPay, commerceCounts, setUpCatalogue } from './commerce-helpers.js';
import {
  createTestApp,
  dialects,
  registerCompany,
  type TestApp,
  tableCounts,
  tempDataDir,
} from './helpers.js';
import { bothImages, JPEG, type Part, PNG, upload } from './realname-helpers.js';

/** Every file under a directory (relative paths), for "nothing stored". */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((e) => (e.isFile() ? [path.relative(dir, path.join(e.parentPath, e.name))] : []));
}

describe.each(dialects)('real-name verification (%s)', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  const events: LiveEvent[] = [];
  beforeAll(async () => {
    dataDir = tempDataDir();
    t = await createTestApp(dialect, { DATA_DIR: dataDir });
    cat = await setUpCatalogue(t);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const admin = () => cat.admin.token;
  const listen = (companyId: string) => t.app.services.bus.subscribe(companyId, (e) => events.push(e));

  it('a customer submits both images: under review, images served by short-lived links only', async () => {
    const c = await registerCompany(t);
    const stop = listen(c.user.id);
    const before = await tableCounts(t.database);
    const res = await upload(t, realNameCalls.uploadRealNameSource.path, c.token, bothImages());
    stop();
    expect(res).toMatchObject({ status: 200, code: '200' });
    expect(res.data).toMatchObject({ status: 2, refuseReason: null });
    expect(res.data.imgs).toHaveLength(2);
    expect(res.data.images.map((i: { slot: string; mime: string }) => [i.slot, i.mime])).toEqual([
      ['social', 'image/png'],
      ['licence', 'image/jpeg'],
    ]);
    const after = await tableCounts(t.database);
    expect(after.files - before.files).toBe(2); // the image rows (module files, kind realname)
    expect(after.realname_reviews - before.realname_reviews).toBe(1);
    expect(events).toContainEqual({ kind: 'realname', companyId: c.user.id, status: 2 });

    // the badge's source: the user info says "under review"
    const me = await t.call(authCalls.refreshLoginInfo, {}, { token: c.token });
    expect(me.data.realNameUser).toBe(2);

    // files: random names under realname/, never the client's name
    const files = filesUnder(path.join(dataDir, 'realname'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) expect(f).toMatch(/^[A-Za-z0-9_-]{8,64}$/);

    // the link serves the bytes, privately; a changed signature, id or expiry gets nothing
    const url: string = res.data.imgs[0];
    expect(url).toMatch(/^\/realname\/image\/[A-Za-z0-9_-]+\?exp=\d{13}&sig=[0-9a-f]{64}$/);
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const forged = url.replace(/sig=([0-9a-f])/, (_m, ch) => `sig=${ch === '0' ? '1' : '0'}`);
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
    const otherId = url.replace(res.data.images[0].id, res.data.images[1].id);
    expect((await t.app.inject({ method: 'GET', url: otherId })).statusCode).toBe(404);
    const stale = url.replace(/exp=\d+/, `exp=${Date.now() - 1000}`);
    expect((await t.app.inject({ method: 'GET', url: stale })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/realname/image/' })).statusCode).toBe(404);
    // never listable
    expect((await t.app.inject({ method: 'GET', url: '/realname/' })).statusCode).toBe(404);
  });

  it('bad uploads are refused clearly and store nothing (no rows, no files)', async () => {
    const c = await registerCompany(t);
    const big = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES + 1 - PNG.length)]);
    const cases: { name: string; url: string; parts: Part[]; message: RegExp; json?: boolean }[] = [
      {
        name: 'wrong type (gif)',
        url: realNameCalls.uploadRealNameSource.path,
        parts: [
          { field: 'imgs', fileName: 'a.gif', data: Buffer.from('GIF89a....'), type: 'image/gif' },
          bothImages()[1]!,
        ],
        message: /只能上传 png、jpeg、jpg 格式的图片/,
      },
      {
        name: 'renamed non-image (a .png that is text)',
        url: realNameCalls.uploadRealNameSource.path,
        parts: [
          { field: 'imgs', fileName: 'licence.png', data: 'just some text, not a picture' },
          bothImages()[1]!,
        ],
        message: /内容不是 png 或 jpeg 图片/,
      },
      {
        name: '2 MB + 1 byte',
        url: realNameCalls.uploadRealNameSource.path,
        parts: [bothImages()[0]!, { field: 'imgs', fileName: 'big.png', data: big }],
        message: /^上传文件最大为2M$/,
      },
      {
        name: 'three files',
        url: realNameCalls.uploadRealNameSource.path,
        parts: [...bothImages(), { field: 'imgs', fileName: 'third.png', data: PNG }],
        message: /需要恰好 2 张图片/,
      },
      {
        name: 'only one file',
        url: realNameCalls.uploadRealNameSource.path,
        parts: [bothImages()[0]!],
        message: /需要恰好 2 张图片/,
      },
      {
        name: 'empty field (no file at all)',
        url: realNameCalls.uploadRealNameSource.path,
        parts: [],
        message: /请选择要上传的图片/,
      },
      {
        name: 'an empty file',
        url: realNameCalls.uploadImg.path,
        parts: [{ field: 'img', fileName: 'empty.png', data: Buffer.alloc(0) }],
        message: /空文件/,
      },
      {
        name: 'a path in the file name',
        url: realNameCalls.uploadRealNameSource.path,
        parts: [{ field: 'imgs', fileName: '../../etc/passwd.png', data: PNG }, bothImages()[1]!],
        message: /文件名不能包含路径/,
      },
      {
        name: 'a Windows path in the file name',
        url: realNameCalls.uploadImg.path,
        parts: [{ field: 'img', fileName: 'C:\\\\temp\\\\a.png', data: PNG }],
        message: /文件名不能包含路径/,
      },
      {
        name: 'the wrong field name',
        url: realNameCalls.uploadImg.path,
        parts: [{ field: 'file', fileName: 'a.png', data: PNG }],
        message: /图片字段名应为 img/,
      },
      {
        name: 'a text field',
        url: realNameCalls.uploadImg.path,
        parts: [{ field: 'note', data: 'hello' }],
        message: /不支持的字段：note/,
      },
      {
        name: 'two files to uploadImg',
        url: realNameCalls.uploadImg.path,
        parts: [
          { field: 'img', fileName: 'a.png', data: PNG },
          { field: 'img', fileName: 'b.png', data: PNG },
        ],
        message: /每次只能上传一张图片/,
      },
    ];
    const before = await tableCounts(t.database);
    const filesBefore = filesUnder(dataDir).sort();
    for (const k of cases) {
      const res = await upload(t, k.url, c.token, k.parts);
      expect({ name: k.name, status: res.status, code: res.code }).toEqual({
        name: k.name,
        status: 400,
        code: '400',
      });
      expect(res.message, k.name).toMatch(k.message);
    }
    // not multipart at all
    const json = await t.call(realNameCalls.uploadRealNameSource, {}, { token: c.token });
    expect(json).toMatchObject({
      status: 400,
      code: '400',
      message: expect.stringMatching(/multipart\/form-data/),
    });
    expect(await tableCounts(t.database)).toEqual(before);
    expect(filesUnder(dataDir).sort()).toEqual(filesBefore);
    const me = await t.call(authCalls.refreshLoginInfo, {}, { token: c.token });
    expect(me.data.realNameUser).toBe(0);
  });

  it('exactly 2 MB is accepted; no session is "403"', async () => {
    const c = await registerCompany(t);
    const max = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES - PNG.length)]);
    const ok = await upload(t, realNameCalls.uploadImg.path, c.token, [
      { field: 'img', fileName: 'max.PNG', data: max },
    ]);
    expect(ok).toMatchObject({
      status: 200,
      code: '200',
      data: { mime: 'image/png', size: IMAGE_MAX_BYTES },
    });
    const before = await tableCounts(t.database);
    const anon = await upload(t, realNameCalls.uploadRealNameSource.path, undefined, bothImages());
    expect(anon).toMatchObject({ status: 401, code: '403' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('customers see only their own images and cannot review; operators see anyone', async () => {
    const a = await registerCompany(t);
    const b = await registerCompany(t);
    await upload(t, realNameCalls.uploadRealNameSource.path, a.token, bothImages());

    const own = await t.call(realNameCalls.getRealNameImgs, {}, { token: a.token });
    expect(own.data).toMatchObject({ status: 2 });
    const ownById = await t.call(realNameCalls.getRealNameImgs, { userId: a.user.id }, { token: a.token });
    expect(ownById.data.images.map((i: { id: string }) => i.id)).toEqual(
      own.data.images.map((i: { id: string }) => i.id),
    );

    const peek = await t.call(realNameCalls.getRealNameImgs, { userId: a.user.id }, { token: b.token });
    expect(peek).toMatchObject({ status: 403, code: '40300', data: null });
    const ghost = await t.call(realNameCalls.getRealNameImgs, { userId: 'no-such-user' }, { token: b.token });
    expect(ghost).toMatchObject({ status: 403, code: '40300' });

    const before = await tableCounts(t.database);
    const pass = await t.call(realNameCalls.passRealNameAuth, { userId: a.user.id }, { token: b.token });
    expect(pass).toMatchObject({ status: 403, code: '40300' });
    const selfPass = await t.call(realNameCalls.passRealNameAuth, { userId: a.user.id }, { token: a.token });
    expect(selfPass).toMatchObject({ status: 403, code: '40300' });
    const refuse = await t.call(
      realNameCalls.refuseRealNameAuth,
      { userId: a.user.id, reason: '不清晰' },
      { token: b.token },
    );
    expect(refuse).toMatchObject({ status: 403, code: '40300' });
    const list = await t.call(realNameCalls.adminReviewList, {}, { token: b.token });
    expect(list).toMatchObject({ status: 403, code: '40300' });
    const sw = await t.call(realNameCalls.openRealName, { open: true }, { token: a.token });
    expect(sw).toMatchObject({ status: 403, code: '40300' });
    expect(await tableCounts(t.database)).toEqual(before);
    expect((await t.call(realNameCalls.getRealNameImgs, {}, { token: a.token })).data.status).toBe(2);

    // b cannot re-submit a's images either (ids or links)
    const steal = await t.call(realNameCalls.updateRealNameImgs, { imgs: own.data.imgs }, { token: b.token });
    expect(steal).toMatchObject({ status: 404, code: '404' });
    const stealIds = await t.call(
      realNameCalls.updateRealNameImgs,
      { imgs: own.data.images.map((i: { id: string }) => i.id) },
      { token: b.token },
    );
    expect(stealIds).toMatchObject({ status: 404, code: '404' });
    expect(await tableCounts(t.database)).toEqual(before);

    const op = await t.call(realNameCalls.getRealNameImgs, { userId: a.user.id }, { token: admin() });
    expect(op.data).toMatchObject({ status: 2 });
    expect(op.data.imgs).toHaveLength(2);
    const opNoId = await t.call(realNameCalls.getRealNameImgs, {}, { token: admin() });
    expect(opNoId).toMatchObject({ status: 400, code: '400' });
    const opUnknown = await t.call(
      realNameCalls.getRealNameImgs,
      { userId: 'no-such-user' },
      { token: admin() },
    );
    expect(opUnknown).toMatchObject({ status: 404, code: '404' });
  });

  it('refuse with a reason, re-upload one image, pass: states, reasons and history', async () => {
    const c = await registerCompany(t, { companyName: '审核流程科技' });
    const first = await upload(t, realNameCalls.uploadRealNameSource.path, c.token, bothImages());
    const [socialV1, licenceV1] = first.data.images as { id: string; url: string }[];

    // the queue holds it
    const queue = await t.call(
      realNameCalls.adminReviewList,
      { state: 'pending', keyword: '审核流程' },
      { token: admin() },
    );
    expect(queue.data.total).toBe(1);
    expect(queue.data.list[0]).toMatchObject({
      userId: c.user.id,
      state: 'pending',
      companyName: '审核流程科技',
    });
    expect(queue.data.list[0].images).toHaveLength(2);

    // a refusal needs a reason
    const before = await tableCounts(t.database);
    for (const reason of [undefined, '', ' ', 'x']) {
      const bad = await t.call(
        realNameCalls.refuseRealNameAuth,
        // biome-ignore lint/suspicious/noExplicitAny: deliberately incomplete input
        { userId: c.user.id, reason } as any,
        { token: admin() },
      );
      expect(bad).toMatchObject({ status: 400, code: '400' });
    }
    expect(await tableCounts(t.database)).toEqual(before);

    const stop = listen(c.user.id);
    const refused = await t.call(
      realNameCalls.refuseRealNameAuth,
      { userId: c.user.id, reason: '营业执照不清晰，请重新拍摄' },
      { token: admin() },
    );
    expect(refused.data).toMatchObject({ status: 3, refuseReason: '营业执照不清晰，请重新拍摄' });
    const seen = await t.call(realNameCalls.getRealNameImgs, {}, { token: c.token });
    expect(seen.data).toMatchObject({ status: 3, refuseReason: '营业执照不清晰，请重新拍摄' });
    expect(seen.data.imgs).toHaveLength(2);
    // deciding twice is a conflict
    const again = await t.call(realNameCalls.passRealNameAuth, { userId: c.user.id }, { token: admin() });
    expect(again).toMatchObject({ status: 409, code: '409' });

    // re-upload the licence only; the social-security record is re-submitted by its link
    const newLicence = await upload(t, realNameCalls.uploadImg.path, c.token, [
      { field: 'img', fileName: 'licence-v2.jpg', data: JPEG, type: 'image/jpeg' },
    ]);
    expect(newLicence.data.url).toMatch(/^\/realname\/image\//);
    expect((await t.call(authCalls.refreshLoginInfo, {}, { token: c.token })).data.realNameUser).toBe(3);
    const resubmitted = await t.call(
      realNameCalls.updateRealNameImgs,
      { imgs: [seen.data.imgs[0], newLicence.data.id] },
      { token: c.token },
    );
    expect(resubmitted.data).toMatchObject({ status: 2, refuseReason: null });
    expect(resubmitted.data.images.map((i: { id: string }) => i.id)).toEqual([
      socialV1!.id,
      newLicence.data.id,
    ]);
    expect(resubmitted.data.images.map((i: { id: string }) => i.id)).not.toContain(licenceV1!.id);

    // unchanged images: only the existing links are re-submitted; the pending one is superseded
    const same = await t.call(
      realNameCalls.updateRealNameImgs,
      { imgs: resubmitted.data.imgs },
      { token: c.token },
    );
    expect(same.data.status).toBe(2);

    const passed = await t.call(realNameCalls.passRealNameAuth, { userId: c.user.id }, { token: admin() });
    expect(passed.data).toMatchObject({ status: 1, refuseReason: null });
    stop();
    expect(
      events.filter((e) => e.companyId === c.user.id).map((e) => (e as { status: number }).status),
    ).toEqual([3, 2, 2, 1]);
    expect((await t.call(authCalls.refreshLoginInfo, {}, { token: c.token })).data.realNameUser).toBe(1);

    // history of decisions, newest first, with who decided
    const history = await t.call(realNameCalls.adminReviewList, { userId: c.user.id }, { token: admin() });
    expect(history.data.list.map((r: { state: string }) => r.state)).toEqual([
      'passed',
      'superseded',
      'refused',
    ]);
    expect(history.data.list[2]).toMatchObject({
      refuseReason: '营业执照不清晰，请重新拍摄',
      decidedBy: expect.any(String),
    });
    expect(history.data.list[0].decidedAt).toEqual(expect.any(Number));
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'realname.%')
      .where('detail', 'like', `%${c.user.id}%`)
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['realname.pass', 'realname.refuse']);

    // verified: nothing more to submit
    const more = await upload(t, realNameCalls.uploadRealNameSource.path, c.token, bothImages());
    expect(more).toMatchObject({ status: 409, code: '409' });
    const moreLinks = await t.call(
      realNameCalls.updateRealNameImgs,
      { imgs: passed.data.imgs },
      { token: c.token },
    );
    expect(moreLinks).toMatchObject({ status: 409, code: '409' });
  });

  it('updateRealNameImgs refuses strangers: bad refs, wrong count', async () => {
    const c = await registerCompany(t);
    const before = await tableCounts(t.database);
    for (const imgs of [
      ['a'],
      ['x', 'y', 'z'],
      ['https://evil.example/a.png', 'https://evil.example/b.png'],
    ]) {
      const res = await t.call(realNameCalls.updateRealNameImgs, { imgs }, { token: c.token });
      expect(res.status).toBe(400);
    }
    const unknown = await t.call(
      realNameCalls.updateRealNameImgs,
      { imgs: ['AAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBB'] },
      { token: c.token },
    );
    expect(unknown).toMatchObject({ status: 404, code: '404' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('the switch: on -> unverified companies cannot buy, renew or open API access (40303); off -> they can', async () => {
    const isOpen = await t.call(realNameCalls.isOpenRealName, {}, { token: admin() });
    expect(isOpen.data).toEqual({ open: false });

    const unverified = await registerCompany(t);
    const sub = await buyAndPay(t, unverified.token, cat.basic.id); // allowed while off

    const on = await t.call(realNameCalls.openRealName, { open: true }, { token: admin() });
    expect(on.data).toEqual({ open: true });
    expect((await t.call(realNameCalls.isOpenRealName, {}, { token: unverified.token })).data).toEqual({
      open: true,
    });

    const before = await commerceCounts(t);
    const buy = await t.call(
      orderCalls.buy,
      { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
      { token: unverified.token },
    );
    expect(buy).toMatchObject({ status: 403, code: '40303', message: expect.stringMatching(/实名认证/) });
    const renew = await t.call(
      orderCalls.renew,
      { subscriptionId: sub.subscriptionId, quantity: 1, idempotencyKey: randomUUID() },
      { token: unverified.token },
    );
    expect(renew).toMatchObject({ status: 403, code: '40303' });
    const apply = await t.call(apiAccountCalls.applyApis, {}, { token: unverified.token });
    expect(apply).toMatchObject({ status: 403, code: '40303' });
    const open = await t.call(
      apiAccountCalls.openApiAccount,
      { name: '机器人', availableNum: 1 },
      { token: unverified.token },
    );
    expect(open).toMatchObject({ status: 403, code: '40303' });
    expect(await commerceCounts(t)).toEqual({ ...before, audit_log: before.audit_log });

    // a verified company may
    const verified = await registerCompany(t);
    await upload(t, realNameCalls.uploadRealNameSource.path, verified.token, bothImages());
    // under review is not verified yet
    const reviewing = await t.call(
      orderCalls.buy,
      { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
      { token: verified.token },
    );
    expect(reviewing).toMatchObject({ code: '40303' });
    await t.call(realNameCalls.passRealNameAuth, { userId: verified.user.id }, { token: admin() });
    await buyAndPay(t, verified.token, cat.basic.id);
    expect((await t.call(apiAccountCalls.applyApis, {}, { token: verified.token })).code).toBe('200');

    // off again: everyone may
    expect((await t.call(realNameCalls.openRealName, { open: false }, { token: admin() })).data).toEqual({
      open: false,
    });
    await buyAndPay(t, unverified.token, cat.basic.id);
    expect((await t.call(apiAccountCalls.applyApis, {}, { token: unverified.token })).code).toBe('200');
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'settings.realName')
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => JSON.parse(a.detail))).toEqual([{ open: true }, { open: false }]);
  });
});
