import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callbackCalls, messagingCalls, simCalls } from '@wxc/contract';
import { FileBox } from 'file-box';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import { createWechatyProvider } from '../src/modules/wechaty/provider.js';
import { type Puppet, PuppetMessageType, ScanStatus } from '../src/modules/wechaty/puppet.js';
import type { MessagingProviderFactory } from '../src/services.js';
import { setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, type TestApp } from './helpers.js';
import { type Catalogue, customerWithSubAccount, MESSAGING_ENV, until } from './messaging-helpers.js';

/** A PNG of one pixel: a picture a contact sends. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The gateway over the wechaty provider, with wechaty-puppet-mock as the network: each device's
 * puppet is a PuppetMock driven by its own Mocker (the test plays the phone and the contacts).
 */
class MockNetwork {
  readonly mockers: mock.Mocker[] = [];
  /** Refuses the next puppet starts (a network that is down). */
  failStarts = 0;
  private n = 0;

  factory: MessagingProviderFactory = ({ log, files }) =>
    createWechatyProvider({
      log,
      files,
      FileBox,
      tokens: ['token-a', 'token-b'],
      startTimeoutMs: 1500,
      createPuppet: () => {
        const mocker = new mock.Mocker();
        const qr = `qr://mock/${++this.n}`;
        const failing = this.failStarts > 0;
        if (failing) this.failStarts -= 1;
        mocker.use((m) => {
          if (!failing) m.scan(qr, ScanStatus.Waiting);
          return () => undefined;
        });
        this.mockers.push(mocker);
        return new PuppetMock({ mocker }) as unknown as Puppet;
      },
    });

  get latest() {
    return this.mockers.at(-1)!;
  }
}

/** A callback receiver on loopback: every event delivered, by type. */
async function callbackReceiver() {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      events.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    events,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(dialects)('wechaty provider with puppet-mock (%s)', (dialect) => {
  let t: TestApp;
  let cat: Catalogue;
  let net: MockNetwork;
  let receiver: Awaited<ReturnType<typeof callbackReceiver>>;
  beforeAll(async () => {
    net = new MockNetwork();
    receiver = await callbackReceiver();
    t = await createTestApp(
      dialect,
      { ...MESSAGING_ENV, CALLBACK_ALLOW_PRIVATE: 'true' },
      { app: { messagingProvider: net.factory, callbackRetryDelaysMs: [200] } },
    );
    cat = await setUpCatalogue(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** A customer whose sub-account's callbacks go to the receiver, with an account logged in. */
  async function loggedIn() {
    const c = await customerWithSubAccount(t, cat);
    expect(
      (await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: receiver.url }, { headers: c.creds }))
        .code,
    ).toBe('200');
    const qr = await t.call(messagingCalls.getQrCode, {}, { headers: c.creds });
    expect(qr.code).toBe('200');
    const mocker = net.latest;
    const { instanceId, deviceId } = qr.data;
    // The QR code is the network's, not a simulator page.
    expect(qr.data.qrUrl).toMatch(/^qr:\/\/mock\/\d+$/);
    const me = mocker.createContact({ name: '客服小王' });
    const [bob, carol] = mocker.createContacts(2);
    const room = mocker.createRoom({ topic: '项目群', memberIdList: [me.id, bob!.id, carol!.id] });
    const status = async () =>
      (await t.call(messagingCalls.checkQrCode, { instanceId }, { headers: c.creds })).data;
    expect(await status()).toMatchObject({ state: 'waiting', account: null });

    mocker.scan(qr.data.qrUrl, ScanStatus.Scanned);
    await until(async () => (await status()).state === 'scanned', 'the scan');
    mocker.login(me);
    const done = await until(async () => {
      const s = await status();
      return s.state === 'confirmed' && s;
    }, 'the login');
    expect(done.account).toMatchObject({ wxid: me.id, nickname: '客服小王', status: 'online' });
    return { c, mocker, me, bob: bob!, carol: carol!, room, wxid: me.id as string, instanceId, deviceId };
  }

  it('logs an account in by the network QR code, reads its contacts, and talks both ways', async () => {
    const { c, mocker, bob, room, wxid } = await loggedIn();
    const auth = { headers: c.creds };

    // contacts and groups come from the network
    const book = (await t.call(messagingCalls.getAddressList, { wxid }, auth)).data.list as {
      wxid: string;
      kind: string;
      nickname: string;
    }[];
    expect(book.filter((x) => x.kind === 'friend').map((x) => x.wxid)).toContain(bob.id);
    expect(book.find((x) => x.wxid === wxid)).toBeUndefined();
    expect(book.find((x) => x.wxid === room.id)).toMatchObject({ kind: 'chatroom', nickname: '项目群' });
    const members = await t.call(messagingCalls.getChatRoomMember, { wxid, roomId: room.id }, auth);
    expect(members.code).toBe('200');
    expect(members.data.members.map((m: { wxid: string }) => m.wxid)).toContain(bob.id);

    // a text and a file out: the contact gets them
    const got: { type: number; text: string }[] = [];
    bob.on('message', (m) => {
      got.push({ type: m.type(), text: m.text() ?? '' });
    });
    const text = await t.call(
      messagingCalls.sendMsgText,
      { wxid, toWxid: bob.id, content: '您好，在吗？' },
      auth,
    );
    expect(text.data).toMatchObject({ type: 1, status: 'sent' });
    const img = await t.call(
      messagingCalls.sendMsgImg,
      { wxid, toWxid: bob.id, imageUrl: 'https://example.com/photo.png' },
      auth,
    );
    expect(img.data).toMatchObject({ type: 3, status: 'sent' });
    await until(async () => got.length >= 2, 'the contact to receive both');
    expect(got[0]).toEqual({ type: PuppetMessageType.Text, text: '您好，在吗？' });
    expect(got[1]!.type).toBe(PuppetMessageType.Image);
    // a group text
    expect(
      (await t.call(messagingCalls.sendMsgText, { wxid, toWxid: room.id, content: '大家好' }, auth)).data
        .status,
    ).toBe('sent');
    // what the network cannot send is said, not faked
    const emoji = await t.call(
      messagingCalls.sendMsgEmoji,
      { wxid, toWxid: bob.id, md5: '4cc7540a85b5b6cf4ba14e9f4ae08b7c', size: 10 },
      auth,
    );
    expect(emoji.data.status).toBe('failed');
    // a stranger is refused before anything is stored
    const stranger = await t.call(messagingCalls.sendMsgText, { wxid, toWxid: 'nobody', content: 'x' }, auth);
    expect(stranger.status).toBe(400);

    // a text and a picture in: stored, the picture downloadable, both told to the callback URL
    bob.say('收到，谢谢').to(mocker.ContactMock.load(wxid));
    bob.say(FileBox.fromBase64(PNG.toString('base64'), 'photo.png')).to(mocker.ContactMock.load(wxid));
    const inbound = await until(async () => {
      const h = await t.call(messagingCalls.showMsgConsole, { wxid, peer: bob.id }, auth);
      const list = (
        h.data.list as { direction: string; type: number; content: string; msgId: string }[]
      ).filter((m) => m.direction === 'in');
      return list.length >= 2 && list;
    }, 'the incoming messages');
    expect(inbound.map((m) => m.type).sort()).toEqual([1, 3]);
    expect(inbound.find((m) => m.type === 1)!.content).toBe('收到，谢谢');
    const pic = inbound.find((m) => m.type === 3)!;
    const link = await t.call(messagingCalls.getMsgImg, { wxid, msgId: pic.msgId }, auth);
    expect(link.data.mime).toBe('image/png');
    const file = await t.app.inject({
      method: 'GET',
      url: link.data.url.replace('http://127.0.0.1:8080', ''),
    });
    expect(file.rawPayload.equals(PNG)).toBe(true);
    // the account's own sends echoed by the network are not stored as incoming
    expect(inbound.some((m) => m.content === '您好，在吗？')).toBe(false);

    // a file from a contact (an attachment the mock can only make by hand)
    const fileMsgId = `file-${Date.now()}`;
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    mocker.MessageMock.create({
      id: fileMsgId,
      talkerId: bob.id,
      listenerId: wxid,
      timestamp: Date.now(),
      type: PuppetMessageType.Attachment,
      filename: '报价单.pdf',
    });
    mocker.cacheFileBoxPayload.set(
      fileMsgId,
      FileBox.fromBase64(pdf.toString('base64'), '报价单.pdf').toJSON(),
    );
    mocker.puppet.emit('message', { messageId: fileMsgId });
    const attachment = await until(async () => {
      const h = await t.call(messagingCalls.showMsgConsole, { wxid, peer: bob.id }, auth);
      return (h.data.list as { type: number; appType: number | null; content: string; msgId: string }[]).find(
        (m) => m.type === 49 && m.appType === 6,
      );
    }, 'the file');
    expect(attachment.content).toBe('报价单.pdf');

    await until(
      async () => receiver.events.filter((e) => e.type === 'message').length >= 3 && true,
      'the message callbacks',
    );
    expect(receiver.events.some((e) => e.type === 'login')).toBe(true);
  });

  it('takes the account offline when the network logs it out, and logs out through the API', async () => {
    const first = await loggedIn();
    const auth = { headers: first.c.creds };
    await first.mocker.puppet.logout('被踢下线');
    const account = await until(async () => {
      const a = (await t.call(messagingCalls.getAuth, { wxid: first.wxid }, auth)).data;
      return a.status === 'offline' && a;
    }, 'the account to go offline');
    expect(account.logoutReason).toContain('被踢下线');
    const sent = await t.call(
      messagingCalls.sendMsgText,
      { wxid: first.wxid, toWxid: first.bob.id, content: 'x' },
      auth,
    );
    expect(sent.code).not.toBe('200');

    const second = await loggedIn();
    const out = await t.call(messagingCalls.logout, { wxid: second.wxid }, { headers: second.c.creds });
    expect(out.code).toBe('200');
    expect(second.mocker.puppet.isLoggedIn).toBe(false);
  });

  it('hands a new QR login on the same device the waiting puppet; a QR code that ends stops it', async () => {
    const c = await customerWithSubAccount(t, cat);
    const auth = { headers: c.creds };
    const first = await t.call(messagingCalls.getQrCode, {}, auth);
    const puppets = net.mockers.length;
    const again = await t.call(messagingCalls.getQrCode, { deviceId: first.data.deviceId }, auth);
    expect(again.data.qrUrl).toBe(first.data.qrUrl);
    expect(net.mockers.length).toBe(puppets);
    // the superseded login never hears of the scan
    const waiting = net.latest;
    waiting.scan(first.data.qrUrl, ScanStatus.Scanned);
    const check = async (instanceId: string) =>
      (await t.call(messagingCalls.checkQrCode, { instanceId }, auth)).data.state;
    await until(async () => (await check(again.data.instanceId)) === 'scanned', 'the scan');
    expect(await check(first.data.instanceId)).toBe('waiting');
    // the network replaces its QR code: the one shown expires, and its puppet stops
    waiting.scan('qr://mock/replaced', ScanStatus.Waiting);
    await until(async () => (await check(again.data.instanceId)) === 'expired', 'the expiry');
    await until(async () => waiting.puppet.state.inactive() && true, 'the puppet to stop');
    // the next QR code comes from a new puppet; cancelling it on the phone ends it too
    const third = await t.call(messagingCalls.getQrCode, { deviceId: first.data.deviceId }, auth);
    expect(third.data.qrUrl).not.toBe(first.data.qrUrl);
    net.latest.scan('', ScanStatus.Cancel);
    await until(async () => (await check(third.data.instanceId)) === 'cancelled', 'the cancel');
    await until(async () => net.latest.puppet.state.inactive() && true, 'the puppet to stop');
  });

  it('answers clear errors when the network has no free token or gives no QR code', async () => {
    // Two tokens: the first test's account holds one (still online).
    const c = await customerWithSubAccount(t, cat);
    const auth = { headers: c.creds };
    const holding = await t.call(messagingCalls.getQrCode, {}, auth);
    expect(holding.code).toBe('200');
    const none = await t.call(messagingCalls.getQrCode, {}, auth);
    expect(none.status).toBe(503);
    expect(none.message).toContain('登录名额已用完');
    // the phone cancels: its token is free again
    net.latest.scan('', ScanStatus.Cancel);
    const check = async () =>
      (await t.call(messagingCalls.checkQrCode, { instanceId: holding.data.instanceId }, auth)).data.state;
    await until(async () => (await check()) === 'cancelled', 'the cancel');
    await until(async () => net.latest.puppet.state.inactive() && true, 'the puppet to stop');

    net.failStarts = 1;
    const silent = await t.call(messagingCalls.getQrCode, {}, auth);
    expect(silent.status).toBe(503);
    expect(silent.message).toContain('未能及时给出二维码');
    expect((await t.call(messagingCalls.getQrCode, {}, auth)).code).toBe('200');
    net.latest.scan('', ScanStatus.Cancel);
  }, 20_000);

  it('answers that the simulator is off for its calls', async () => {
    const sim = await t.call(simCalls.scanStatus, { instanceId: 'x'.repeat(24) });
    expect(sim.status).toBe(404);
    expect(sim.message).toContain('模拟器未启用');
  });
});
