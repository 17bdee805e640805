import { allCalls, messagingCalls, recordCalls } from '@wxc/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { paramsOf } from './params.js';
import { createCatalogueService } from './service.js';

const byName = (list: ReturnType<typeof paramsOf>) => Object.fromEntries(list.map((p) => [p.name, p]));

describe('paramsOf (from the contract, so the online tester never drifts)', () => {
  it('sendMsgText: required fields, examples and descriptions from the schema meta', () => {
    const params = paramsOf(messagingCalls.sendMsgText.request);
    expect(params.map((p) => p.name)).toEqual(['wxid', 'toWxid', 'content', 'at']);
    const p = byName(params);
    expect(p.wxid).toEqual({
      name: 'wxid',
      type: 'string',
      required: true,
      example: 'wxid_sim_7k2m9q',
      description: '已登录的微信号 wxid；1-64 个字符，格式：^[\\w@.-]+$',
      enum: null,
    });
    expect(p.content).toMatchObject({ type: 'string', required: true, example: '你好，这是一条测试消息' });
    expect(p.content?.description).toContain('文本内容');
    expect(p.at).toMatchObject({ type: 'array', required: false, example: [], enum: null });
    expect(p.at?.description).toContain('最多 50 项');
  });

  it('getQrCode: every field optional; an id without an example gets one by its name', () => {
    const p = byName(paramsOf(messagingCalls.getQrCode.request));
    expect(Object.keys(p)).toEqual(['subAccountId', 'deviceId', 'proxy']);
    expect(Object.values(p).every((x) => x.required === false)).toBe(true);
    expect(p.proxy).toMatchObject({ type: 'string', example: 'sh' });
    expect(p.proxy?.description).toBe('登录地区代码，见 proxyList；最长 32 个字符');
    expect(p.deviceId).toMatchObject({
      example: 'deviceId_123456',
      description: '重新登录时传入已有设备编号；1-64 个字符',
    });
  });

  it('sendMsgVideo: url fields with their examples, an integer with its range', () => {
    const p = byName(paramsOf(messagingCalls.sendMsgVideo.request));
    expect(p.videoUrl).toMatchObject({
      type: 'string',
      required: true,
      example: 'https://example.com/clip.mp4',
    });
    expect(p.videoUrl?.description).toContain('以 http:// 或 https:// 开头的完整地址');
    expect(p.thumbUrl?.example).toBe('https://example.com/clip.jpg');
    expect(p.duration).toEqual({
      name: 'duration',
      type: 'integer',
      required: true,
      example: 12,
      description: '时长（秒）；整数，取值 1-3600',
      enum: null,
    });
  });

  it('fields with a default are not required and show the default', () => {
    const p = byName(paramsOf(messagingCalls.checkQrCodeLoop.request));
    expect(p.waitSeconds).toMatchObject({ type: 'integer', required: false, example: 25 });
    expect(p.waitSeconds?.description).toContain('默认 25');
    expect(p.lastState).toMatchObject({
      type: 'string',
      required: false,
      example: 'waiting',
      enum: ['waiting', 'scanned', 'need_verify', 'confirmed', 'cancelled', 'expired'],
    });
    const link = byName(paramsOf(messagingCalls.sendMsgLink.request));
    expect(link.description).toMatchObject({ required: false, example: '三分钟了解我们的服务' });
  });

  it('unwraps nullable fields and invents examples for fields without one', () => {
    const p = byName(paramsOf(recordCalls.updateExpireTime.request));
    expect(p.expireAt).toMatchObject({ type: 'integer', required: true });
    expect(p.expireAt?.description).toContain('可为 null');
    const own = byName(
      paramsOf(
        z.strictObject({
          homepage: z.url(),
          count: z.number().int().min(3).optional(),
          ratio: z.number(),
          on: z.boolean().default(true),
          kind: z.union([z.literal('a'), z.literal('b')]),
          extra: z.object({ x: z.string() }).nullable().optional(),
          label: z.string().min(3).max(4),
          code: z.string().meta({ examples: ['E1'] }),
        }),
      ),
    );
    expect(own.homepage).toMatchObject({
      type: 'string',
      required: true,
      example: 'https://example.com/homepage',
    });
    expect(own.count).toMatchObject({ type: 'integer', required: false, example: 3 });
    expect(own.ratio).toMatchObject({ type: 'number', example: 1 });
    expect(own.on).toMatchObject({ type: 'boolean', required: false, example: true });
    expect(own.kind).toMatchObject({ type: 'string', enum: ['a', 'b'], example: 'a' });
    expect(own.extra).toMatchObject({ type: 'object', required: false, example: {} });
    expect(own.label).toMatchObject({ example: '示例x', description: '3-4 个字符' });
    expect(own.code?.example).toBe('E1');
  });

  it('describes every public call without throwing, each with a type from the list', () => {
    const types = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object']);
    const catalogue = createCatalogueService();
    for (const entry of catalogue.list().list) {
      for (const p of catalogue.params(entry.path).list) {
        expect(types.has(p.type), `${entry.path} ${p.name}`).toBe(true);
        expect(p.example, `${entry.path} ${p.name}`).not.toBeUndefined();
      }
    }
  });
});

describe('catalogue', () => {
  const catalogue = createCatalogueService();

  it('lists exactly the api calls, in contract order', () => {
    const api = allCalls.filter((c) => c.audience === 'customerOrApi');
    expect(catalogue.list().list.map((e) => e.path)).toEqual(api.map((c) => c.path));
    expect(catalogue.list().list.find((e) => e.path === '/api/msg/sendMsgText')).toEqual({
      id: 'msg.sendMsgText',
      group: messagingCalls.sendMsgText.tag,
      name: '发送文本消息',
      path: '/api/msg/sendMsgText',
      method: 'POST',
      description: messagingCalls.sendMsgText.description,
    });
  });

  it('filters by keyword over name, path, description and group, ignoring case', () => {
    expect(catalogue.list('SENDMSGVIDEO').list.map((e) => e.path)).toEqual(['/api/msg/sendMsgVideo']);
    expect(catalogue.list('视频').list.map((e) => e.path)).toContain('/api/msg/sendMsgVideo');
    expect(catalogue.list('没有这样的接口').list).toEqual([]);
  });

  it('refuses parameters of a path that is not a public call', () => {
    expect(() => catalogue.params('/api/nope')).toThrow('接口不存在');
    expect(() => catalogue.params(recordCalls.queryHistoryWx.path)).toThrow('接口不存在');
  });
});
