import type { FastifyBaseLogger } from 'fastify';
import { FileBox } from 'file-box';
import { describe, expect, it } from 'vitest';
import type { payloads } from 'wechaty-puppet';
import { createMessageMapping } from './messages.js';
import { type Puppet, PuppetMessageType } from './puppet.js';

const log = { warn() {}, info() {}, error() {} } as unknown as FastifyBaseLogger;
const account = { accountId: 'a1', companyId: 'c1', wxid: 'me', deviceId: 'd1' };

/** A puppet that answers the payload calls from tables, and records what is sent. */
function fakePuppet(files: Record<string, FileBox> = {}) {
  const sent: { call: string; args: unknown[] }[] = [];
  const record =
    (call: string) =>
    async (...args: unknown[]) => {
      sent.push({ call, args });
    };
  const puppet = {
    messageFile: async (id: string) => {
      const box = files[id];
      if (!box) throw new Error('no such file');
      return box;
    },
    messageUrl: async () => ({ title: '文章', url: 'https://example.com/a', description: '摘要' }),
    messageMiniProgram: async () => ({ appid: 'wx1', title: '商城', pagePath: 'p/i', username: 'gh_1@app' }),
    messageSendText: record('text'),
    messageSendFile: record('file'),
    messageSendUrl: record('url'),
    messageSendMiniProgram: record('mini'),
  } as unknown as Puppet;
  return { puppet, sent };
}

function mapping() {
  const saved: { fileName: string; mime?: string; size: number }[] = [];
  const m = createMessageMapping({
    log,
    FileBox,
    files: {
      save: async (_kind, f) => {
        saved.push({ fileName: f.fileName, mime: f.mime, size: f.data.length });
        return {
          id: `f${saved.length}`,
          mime: f.mime ?? 'application/octet-stream',
          size: f.data.length,
        } as never;
      },
    },
  });
  return { ...m, saved };
}

const message = (over: Partial<payloads.Message>): payloads.Message =>
  ({
    id: 'm1',
    talkerId: 'bob',
    listenerId: 'me',
    timestamp: 0,
    type: PuppetMessageType.Text,
    ...over,
  }) as payloads.Message;

describe('wechaty messages in', () => {
  it('maps each puppet type to the raw types the gateway stores, files as stored media', async () => {
    const png = FileBox.fromBase64(Buffer.from('png').toString('base64'), 'a.png');
    const pdf = FileBox.fromBase64(Buffer.from('%PDF').toString('base64'), '报价.pdf');
    const { puppet } = fakePuppet({ img: png, doc: pdf, vid: png, aud: png, emo: png });
    const { incoming, saved } = mapping();
    const at = (over: Partial<payloads.Message>) => incoming(account, puppet, message(over));

    expect(await at({ text: '你好' })).toMatchObject({
      peer: 'bob',
      sender: 'bob',
      type: 1,
      content: '你好',
    });
    expect(await at({ text: '群消息', roomId: 'r@chatroom' })).toMatchObject({
      peer: 'r@chatroom',
      sender: 'bob',
    });
    expect(await at({ id: 'img', type: PuppetMessageType.Image })).toMatchObject({
      type: 3,
      content: '[图片]',
      media: { mediaId: 'f1', fileName: 'a.png' },
    });
    expect(await at({ id: 'doc', type: PuppetMessageType.Attachment, filename: '报价.pdf' })).toMatchObject({
      type: 49,
      appType: 6,
      content: '报价.pdf',
    });
    expect((await at({ id: 'vid', type: PuppetMessageType.Video })).type).toBe(43);
    expect((await at({ id: 'aud', type: PuppetMessageType.Audio })).type).toBe(34);
    expect((await at({ id: 'emo', type: PuppetMessageType.Emoticon })).type).toBe(47);
    expect(await at({ type: PuppetMessageType.Url })).toMatchObject({
      type: 49,
      appType: 5,
      media: { title: '文章', url: 'https://example.com/a', description: '摘要' },
    });
    expect(await at({ type: PuppetMessageType.MiniProgram })).toMatchObject({
      type: 49,
      appType: 33,
      media: { appId: 'wx1', title: '商城', pagePath: 'p/i', username: 'gh_1@app' },
    });
    expect((await at({ type: PuppetMessageType.Contact })).type).toBe(42);
    expect((await at({ type: PuppetMessageType.Location, text: '上海' })).type).toBe(48);
    expect((await at({ type: PuppetMessageType.Recalled })).type).toBe(10002);
    expect(await at({ type: PuppetMessageType.Unknown })).toMatchObject({
      type: 1,
      content: '[暂不支持的消息类型]',
    });
    expect(saved.map((s) => s.fileName)).toEqual(['a.png', '报价.pdf', 'a.png', 'a.png', 'a.png']);
  });

  it('stores a text saying so when a file cannot be fetched or is too big', async () => {
    const big = FileBox.fromBase64(Buffer.from('x').toString('base64'), 'big.mp4');
    Object.defineProperty(big, 'size', { value: 26 * 1024 * 1024 });
    const { puppet } = fakePuppet({ big });
    const { incoming, saved } = mapping();
    expect(
      await incoming(account, puppet, message({ id: 'gone', type: PuppetMessageType.Image })),
    ).toMatchObject({
      type: 1,
      content: '[图片]（未能获取）',
    });
    expect(
      await incoming(account, puppet, message({ id: 'big', type: PuppetMessageType.Video })),
    ).toMatchObject({
      type: 1,
      content: '[视频]（文件过大，未保存）',
    });
    expect(saved).toEqual([]);
  });
});

describe('wechaty messages out', () => {
  const out = (
    type: number,
    appType: number | null,
    media: Record<string, string | number> | null,
    content = '',
  ) => ({
    msgId: 'x',
    peer: 'bob',
    type,
    appType,
    content,
    media,
  });

  it('sends each kind through the matching puppet call, media by URL with a sensible name', async () => {
    const { puppet, sent } = fakePuppet();
    const { send } = mapping();
    expect(await send(puppet, out(1, null, { at: 'a,b' }, '大家好'))).toEqual({ ok: true });
    await send(puppet, out(3, null, { url: 'https://example.com/p/photo.png' }));
    await send(puppet, out(43, null, { url: 'https://example.com/v' }));
    await send(puppet, out(34, null, { url: 'https://example.com/voice.silk' }));
    await send(puppet, out(49, 6, { url: 'https://example.com/f', fileName: '报价.pdf' }));
    await send(
      puppet,
      out(49, 5, { title: 'T', url: 'https://example.com/', description: 'D', thumbUrl: 'https://t' }),
    );
    await send(
      puppet,
      out(49, 33, {
        appId: 'wx1',
        username: 'gh@app',
        title: 'M',
        coverUrl: 'c',
        pagePath: 'p',
        displayName: 'S',
      }),
    );
    expect(sent[0]).toEqual({ call: 'text', args: ['bob', '大家好', ['a', 'b']] });
    const names = sent.filter((s) => s.call === 'file').map((s) => (s.args[1] as FileBox).name);
    expect(names).toEqual(['photo.png', 'video.mp4', 'voice.silk', '报价.pdf']);
    const firstFile = sent.find((s) => s.call === 'file')!.args[1] as FileBox;
    expect((firstFile.toJSON() as { url?: string }).url).toBe('https://example.com/p/photo.png');
    expect(sent.find((s) => s.call === 'url')!.args[1]).toEqual({
      title: 'T',
      url: 'https://example.com/',
      description: 'D',
      thumbnailUrl: 'https://t',
    });
    expect(sent.find((s) => s.call === 'mini')!.args[1]).toMatchObject({
      appid: 'wx1',
      thumbUrl: 'c',
      description: 'S',
    });
  });

  it('answers a clear failure for what the puppet API cannot send', async () => {
    const { puppet, sent } = fakePuppet();
    const { send } = mapping();
    expect(await send(puppet, out(47, null, { md5: 'abc', size: 1 }))).toEqual({
      ok: false,
      error: '当前消息通道不支持发送表情',
    });
    expect(await send(puppet, out(49, 99, {}))).toEqual({ ok: false, error: '当前消息通道不支持此类消息' });
    expect(sent).toEqual([]);
  });
});
