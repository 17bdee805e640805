import { allCalls, catalogueCalls, messagingCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  createTestApp,
  dialects,
  registerCompany,
  type TestApp,
  tableCounts,
} from './helpers.js';

describe.each(dialects)('online tester catalogue (%s)', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    token = (await registerCompany(t)).token;
  });
  afterAll(() => t.close());

  it('lists every api call of the contract, in contract order, and nothing else', async () => {
    const res = await t.call(catalogueCalls.wechatApiList, {}, { token });
    expect(res.code).toBe('200');
    const api = allCalls.filter((c) => c.audience === 'customerOrApi');
    expect(api.length).toBeGreaterThan(20);
    expect(res.data.list.map((e: { path: string }) => e.path)).toEqual(api.map((c) => c.path));
    expect(res.data.list.find((e: { path: string }) => e.path === messagingCalls.getQrCode.path)).toEqual({
      id: 'msg.getQrCode',
      group: messagingCalls.getQrCode.tag,
      name: '获取登录二维码',
      path: '/api/msg/getQrCode',
      method: 'POST',
      description: messagingCalls.getQrCode.description,
    });
    expect(res.data.list.some((e: { path: string }) => e.path.startsWith('/api/statistic/'))).toBe(false);
  });

  it('filters by keyword over name, path, description and group', async () => {
    const q = async (keyword: string) =>
      (await t.call(catalogueCalls.wechatApiList, { keyword }, { token })).data.list.map(
        (e: { path: string }) => e.path,
      );
    expect(await q('sendmsgtext')).toEqual(['/api/msg/sendMsgText']);
    expect(await q('  发送文本消息 ')).toEqual(['/api/msg/sendMsgText']);
    expect(await q(messagingCalls.sendMsgText.tag)).toContain('/api/msg/sendMsgVideo');
    expect(await q('长轮询')).toContain('/api/msg/checkQrCodeLoop');
    expect(await q('找不到的东西')).toEqual([]);
  });

  it('gives a call’s parameters from its schema', async () => {
    const res = await t.call(catalogueCalls.wechatApiParamList, { path: '/api/msg/sendMsgVideo' }, { token });
    expect(res.code).toBe('200');
    expect(res.data.path).toBe('/api/msg/sendMsgVideo');
    expect(res.data.list.map((p: { name: string }) => p.name)).toEqual([
      'wxid',
      'toWxid',
      'videoUrl',
      'thumbUrl',
      'duration',
    ]);
    expect(res.data.list[4]).toEqual({
      name: 'duration',
      type: 'integer',
      required: true,
      example: 12,
      description: '时长（秒）；整数，取值 1-3600',
      enum: null,
    });
    const text = await t.call(catalogueCalls.wechatApiParamList, { path: '/api/msg/sendMsgText' }, { token });
    expect(text.data.list.find((p: { name: string }) => p.name === 'at')).toMatchObject({
      type: 'array',
      required: false,
    });
  });

  it('unknown path -> 404; bad input -> 400 naming the field; nothing written', async () => {
    const before = await tableCounts(t.database);
    const unknown = await t.call(catalogueCalls.wechatApiParamList, { path: '/api/msg/nope' }, { token });
    expect(unknown).toMatchObject({ status: 404, code: '404', message: '接口不存在：/api/msg/nope' });
    const notApi = await t.call(catalogueCalls.wechatApiParamList, { path: '/api/login' }, { token });
    expect(notApi).toMatchObject({ status: 404 });
    const missing = await t.call(catalogueCalls.wechatApiParamList, {} as never, { token });
    expect(missing).toMatchObject({ status: 400, message: 'path：缺少必填参数' });
    const extra = await t.call(catalogueCalls.wechatApiList, { keyword: 'x', group: 'y' } as never, {
      token,
    });
    expect(extra).toMatchObject({ status: 400, message: '不支持的参数：group' });
    const long = await t.call(catalogueCalls.wechatApiList, { keyword: 'x'.repeat(51) }, { token });
    expect(long).toMatchObject({ status: 400 });
    expect(long.message).toContain('keyword');
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('needs a session (operators may read it too: it is documentation)', async () => {
    expect(await t.call(catalogueCalls.wechatApiList, {})).toMatchObject({ status: 401, code: '403' });
    expect(await t.call(catalogueCalls.wechatApiParamList, { path: '/api/msg/sendMsgText' })).toMatchObject({
      code: '403',
    });
    const admin = await createAdmin(t);
    expect((await t.call(catalogueCalls.wechatApiList, {}, { token: admin.token })).code).toBe('200');
  });
});
