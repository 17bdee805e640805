import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callbackCalls, messagingCalls, simCalls } from '@wxc/contract';
import { FileBox } from 'file-box';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import type { WxLoginRow } from '../src/db/schema.js';
import { createWechatyProvider } from '../src/modules/wechaty/provider.js';
import { type Puppet, PuppetMessageType, ScanStatus } from '../src/modules/wechaty/puppet.js';
import type { MessagingProviderFactory } from '../src/services.js';
import { setUpCatalogue } from './commerce-helpers.js';
import { createPgSchema, createTestApp, dialects, type TestApp } from './helpers.js';
import {
  type Catalogue,
  callbackReceiver,
  customerWithSubAccount,
  MESSAGING_ENV,
  PNG,
  until,
} from './messaging-helpers.js';

/** What the next puppet the provider makes does when started. */
type Behaviour =
  /** shows a QR code (a new login, or: the network lost the account's session) */
  | { kind: 'qr' }
  /** says nothing (a network that does not answer) */
  | { kind: 'silent' }
  /** logs straight back in as this account, with these friends (a session the network kept) */
  | { kind: 'resume'; id: string; name: string; friends: { id: string; name: string }[] };

/**
 * The gateway over the wechaty provider, with wechaty-puppet-mock as the network: each puppet is a
 * PuppetMock driven by its own Mocker (the test plays the phone and the contacts).
 */
class MockNetwork {
  readonly mockers: mock.Mocker[] = [];
  /** Behaviours of the next puppets, in order; then `qr`. */
  readonly plan: Behaviour[] = [];
  /** The behaviour of the next puppet of a device (before `plan`). */
  readonly planFor = new Map<string, Behaviour>();
  /** The token each puppet was made with, by device. */
  readonly tokensUsed: { deviceId: string; token: string | undefined }[] = [];
  private n = 0;

  constructor(readonly tokens = ['token-a', 'token-b', 'token-c', 'token-d', 'token-e']) {}

  factory: MessagingProviderFactory = ({ db, log, files }) =>
    createWechatyProvider({
      db,
      log,
      files,
      FileBox,
      tokens: this.tokens,
      startTimeoutMs: 800,
      reconnect: { firstMs: 50, maxMs: 200, attempts: 3 },
      // renewed every 300 ms: a takeover within a second
      leaseMs: 900,
      createPuppet: ({ deviceId, token }) => {
        this.tokensUsed.push({ deviceId, token });
        const mocker = new mock.Mocker();
        const qr = `qr://mock/${++this.n}`;
        const behaviour = this.planFor.get(deviceId) ?? this.plan.shift() ?? { kind: 'qr' };
        this.planFor.delete(deviceId);
        mocker.use((m) => {
          if (behaviour.kind === 'qr') m.scan(qr, ScanStatus.Waiting);
          if (behaviour.kind === 'resume') {
            for (const f of behaviour.friends) m.createContact(f);
            m.login(m.createContact({ id: behaviour.id, name: behaviour.name }));
          }
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

type Customer = Awaited<ReturnType<typeof customerWithSubAccount>>;

/**
 * A customer (new, or the one given) whose sub-account's callbacks go to `callbackUrl`, with an
 * account logged in through the mock network's QR code; its contacts: bob, carol and a group.
 */
async function logIn(t: TestApp, cat: Catalogue, net: MockNetwork, callbackUrl: string, customer?: Customer) {
  const c = customer ?? (await customerWithSubAccount(t, cat));
  expect((await t.call(callbackCalls.resetCallbackUrl, { callbackUrl }, { headers: c.creds })).code).toBe(
    '200',
  );
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
  // A behaviour a test planned but no puppet used would surprise the next test.
  afterEach(() => expect(net.plan, 'planned puppet behaviours left unused').toEqual([]));

  const loggedIn = (customer?: Customer) => logIn(t, cat, net, receiver.url, customer);

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
    // every other kind goes out through the puppet's matching call (the network fetches media by URL)
    const base = { wxid, toWxid: bob.id };
    const more = [
      [
        messagingCalls.sendMsgVideo,
        {
          ...base,
          videoUrl: 'https://example.com/v/clip.mp4',
          thumbUrl: 'https://example.com/t.jpg',
          duration: 3,
        },
        43,
      ],
      [
        messagingCalls.sendMsgVoice,
        { ...base, voiceUrl: 'https://example.com/v/note.sil', duration: 2000 },
        34,
      ],
      [messagingCalls.sendMsgFile, { ...base, fileUrl: 'https://example.com/f/1', fileName: '报价.pdf' }, 49],
      [messagingCalls.sendMsgLink, { ...base, title: '介绍', url: 'https://example.com/' }, 49],
      [
        messagingCalls.sendMsgApp,
        {
          ...base,
          appId: 'wx1234567890abcdef',
          username: 'gh_0123456789ab@app',
          title: '小程序',
          coverUrl: 'https://example.com/c.jpg',
          pagePath: 'pages/index',
          displayName: '商城',
        },
        49,
      ],
    ] as const;
    for (const [def, input, type] of more) {
      // biome-ignore lint/suspicious/noExplicitAny: one loop over five call shapes
      const res = await t.call(def as any, input as any, auth);
      expect(res.data, def.path).toMatchObject({ type, status: 'sent' });
    }
    // the mock delivers files (typed by their names: it has no type for a .pdf) and accepts links
    // and mini programs without delivering them
    await until(async () => got.length >= 5, 'the contact to receive the files');
    expect(got.slice(2, 5).map((g) => g.type)).toEqual([
      PuppetMessageType.Video,
      PuppetMessageType.Audio,
      PuppetMessageType.Unknown,
    ]);
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
      return (
        h.data.list as {
          direction: string;
          type: number;
          appType: number | null;
          content: string;
          msgId: string;
        }[]
      ).find((m) => m.direction === 'in' && m.type === 49 && m.appType === 6);
    }, 'the file');
    expect(attachment.content).toBe('报价单.pdf');

    await until(
      async () => receiver.events.filter((e) => e.type === 'message').length >= 3 && true,
      'the message callbacks',
    );

    // the group renamed and joined on the network: the program hears which contacts changed
    room.topic('项目群（新）').by(bob);
    room.add(mocker.createContact({ name: '新成员' })).by(bob);
    await until(
      async () =>
        receiver.events.filter(
          (e) => e.type === 'contact_change' && (e.data.ids as string[]).includes(room.id),
        ).length >= 2,
      'the contact changes',
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

  /**
   * A new customer's QR code, made by this process and scanned on the network; then its row changed
   * as `change` says (what another process or the clock would do), still unknown to this process.
   */
  async function scannedThenChanged(
    change: Partial<Pick<WxLoginRow, 'expires_at' | 'state' | 'result' | 'ended_at'>>,
  ) {
    const c = await customerWithSubAccount(t, cat);
    const qr = await t.call(messagingCalls.getQrCode, {}, { headers: c.creds });
    const { instanceId, deviceId } = qr.data;
    const mocker = net.latest;
    const stored = () =>
      t.database.db
        .selectFrom('wx_logins')
        .selectAll()
        .where('id', '=', instanceId)
        .executeTakeFirstOrThrow();
    mocker.scan(qr.data.qrUrl, ScanStatus.Scanned);
    await until(async () => (await stored()).state === 'scanned', 'the scan');
    await t.database.db.updateTable('wx_logins').set(change).where('id', '=', instanceId).execute();
    return { c, deviceId: deviceId as string, mocker, stored };
  }

  it('refuses a login the network confirms after its QR code ran out of time, and puts nobody online', async () => {
    // Made by this process: the confirmation reads no login (its facts are kept), so the time is
    // checked by the confirmation's own move.
    const { c, mocker, stored } = await scannedThenChanged({ expires_at: Date.now() - 1 });
    mocker.login(mocker.createContact({ name: '来晚了' }));
    await until(async () => (await stored()).state === 'expired', 'the refusal');
    expect(await stored()).toMatchObject({ result: 'expired', wx_account_id: null });
    const accounts = await t.database.db
      .selectFrom('wx_accounts')
      .select('id')
      .where('api_account_id', '=', c.sub.id)
      .execute();
    expect(accounts).toEqual([]);
    await until(async () => mocker.puppet.state.inactive() && true, 'the puppet to stop');
  });

  it('writes nothing when the network confirms a login that no longer waits (cancelled meanwhile)', async () => {
    // Made here, so not read first: the confirmation's writes (the device, the account, the counts)
    // are not made (PostgreSQL) or rolled back (SQLite) when its move finds the login gone. Cancelled as by another process
    // (this one's copy of the login's facts stays).
    const { c, deviceId, mocker, stored } = await scannedThenChanged({
      state: 'cancelled',
      result: 'cancelled',
      ended_at: Date.now(),
    });
    const me = mocker.createContact({ name: '已取消' });
    mocker.login(me);
    // Refused, the network's session is logged out and its puppet stops: the confirmation is over.
    await until(async () => mocker.puppet.state.inactive() && true, 'the puppet to stop');
    expect(await stored()).toMatchObject({ state: 'cancelled', wx_account_id: null });
    const device = await t.database.db
      .selectFrom('wx_devices')
      .select(['wxid', 'login_count'])
      .where('id', '=', deviceId)
      .executeTakeFirstOrThrow();
    expect(device).toEqual({ wxid: null, login_count: 0 });
    // The company's and the sub-account's counts: none online. (On PostgreSQL the confirmation
    // makes their first rows, at 0, to lock them, and commits with its last statement: they stay.)
    const counts = await t.database.db
      .selectFrom('wx_online_counts')
      .select('online')
      .where('owner_id', 'in', [c.user.id, c.sub.id])
      .execute();
    expect(counts.filter((row) => Number(row.online) !== 0)).toEqual([]);
    expect(
      await t.database.db.selectFrom('wx_accounts').select('id').where('wxid', '=', me.id).execute(),
    ).toEqual([]);
  });

  it('starts one puppet for a QR code asked for twice at once on one device (a double click)', async () => {
    const c = await customerWithSubAccount(t, cat);
    const auth = { headers: c.creds };
    const first = await t.call(messagingCalls.getQrCode, {}, auth);
    const firstPuppet = net.latest;
    firstPuppet.scan('', ScanStatus.Cancel);
    await until(async () => firstPuppet.puppet.state.inactive() && true, 'the first puppet to stop');
    const puppets = net.mockers.length;
    const deviceId = first.data.deviceId as string;
    const [a, b] = await Promise.all([
      t.call(messagingCalls.getQrCode, { deviceId }, auth),
      t.call(messagingCalls.getQrCode, { deviceId }, auth),
    ]);
    expect([a.code, b.code]).toEqual(['200', '200']);
    expect(a.data.qrUrl).toBe(b.data.qrUrl);
    expect(net.mockers.length).toBe(puppets + 1);
    net.latest.scan('', ScanStatus.Cancel);
  });

  it('answers clear errors when the network has no free token or gives no QR code', async () => {
    const c = await customerWithSubAccount(t, cat);
    const auth = { headers: c.creds };
    // QR logins take the free tokens one by one; then the network has no room.
    const holding: string[] = [];
    let refused: Awaited<ReturnType<typeof t.call>> | undefined;
    for (let i = 0; i <= net.tokens.length && !refused; i++) {
      const qr = await t.call(messagingCalls.getQrCode, {}, auth);
      if (qr.code === '200') holding.push(qr.data.instanceId);
      else refused = qr;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.message).toContain('登录名额已用完');
    // the phones cancel: the tokens are free again
    const puppets = net.mockers.slice(-holding.length);
    for (const m of puppets) m.scan('', ScanStatus.Cancel);
    for (const instanceId of holding) {
      await until(
        async () =>
          (await t.call(messagingCalls.checkQrCode, { instanceId }, auth)).data.state === 'cancelled',
        'the cancel',
      );
    }
    await until(async () => puppets.every((m) => m.puppet.state.inactive()), 'the puppets to stop');

    net.plan.push({ kind: 'silent' });
    const silent = await t.call(messagingCalls.getQrCode, {}, auth);
    expect(silent.status).toBe(503);
    expect(silent.message).toContain('未能及时给出二维码');
    expect((await t.call(messagingCalls.getQrCode, {}, auth)).code).toBe('200');
    net.latest.scan('', ScanStatus.Cancel);
  }, 20_000);

  it('logs a device back in with the token it used before (the same remote puppet)', async () => {
    const c = await customerWithSubAccount(t, cat);
    const first = await loggedIn(c);
    const tokenOf = (deviceId: string) => net.tokensUsed.filter((u) => u.deviceId === deviceId).at(-1)?.token;
    const used = tokenOf(first.deviceId);
    expect(used).toBeDefined();
    await t.call(messagingCalls.logout, { wxid: first.wxid }, { headers: c.creds });
    // another device takes a token meanwhile; this one still gets its own back
    const other = await t.call(messagingCalls.getQrCode, {}, { headers: c.creds });
    expect(tokenOf(other.data.deviceId)).not.toBe(used);
    const again = await t.call(messagingCalls.getQrCode, { deviceId: first.deviceId }, { headers: c.creds });
    expect(again.code).toBe('200');
    expect(tokenOf(first.deviceId)).toBe(used);
    for (const m of net.mockers.slice(-2)) m.scan('', ScanStatus.Cancel);
  });

  it('reconnects an account whose puppet stopped: offline meanwhile, then online with the same session', async () => {
    const s = await loggedIn();
    const auth = { headers: s.c.creds };
    const status = async () => (await t.call(messagingCalls.getAuth, { wxid: s.wxid }, auth)).data;
    net.plan.push({ kind: 'resume', id: s.wxid, name: '客服小王', friends: [{ id: s.bob.id, name: 'Bob' }] });
    const before = receiver.events.length;
    await s.mocker.puppet.stop(); // the connection breaks
    const offline = await until(async () => {
      const a = await status();
      return a.status === 'offline' && a;
    }, 'the account to show offline');
    expect(offline.logoutReason).toBe('消息通道连接中断，正在重连');
    const refused = await t.call(
      messagingCalls.sendMsgText,
      { wxid: s.wxid, toWxid: s.bob.id, content: 'x' },
      auth,
    );
    expect(refused.status).toBe(400);
    await until(async () => (await status()).status === 'online', 'the account to come back');
    const sent = await t.call(
      messagingCalls.sendMsgText,
      { wxid: s.wxid, toWxid: s.bob.id, content: '恢复了' },
      auth,
    );
    expect(sent.data.status).toBe('sent');
    // the program heard both: offline with the reason, then online again
    await until(async () => {
      const types = receiver.events.slice(before).map((e) => e.type);
      return types.includes('logout') && types.includes('login');
    }, 'the callbacks');
    // the login stays the same session: still one login record, not ended
    const logins = await t.database.db
      .selectFrom('wx_logins')
      .select(['id', 'ended_at'])
      .where('wxid', '=', s.wxid)
      .execute();
    expect(logins).toEqual([{ id: s.instanceId, ended_at: null }]);
  });

  it('stops its puppet quietly when another process took the device, and takes it back once that lease lapses', async () => {
    const s = await loggedIn();
    const auth = { headers: s.c.creds };
    const db = t.database.db;
    const tokenBefore = net.tokensUsed.filter((u) => u.deviceId === s.deviceId).at(-1)!.token;
    const puppets = net.mockers.length;
    net.plan.push({ kind: 'resume', id: s.wxid, name: '客服小王', friends: [{ id: s.bob.id, name: 'Bob' }] });
    // Another process holds the device now (this one was silent past its lease, as it would be
    // with its database out of reach): the puppet here stops, and nobody is told the account left.
    await db
      .updateTable('wechaty_leases')
      .set({ owner: 'another-process', lease_until: Date.now() + 3000 })
      .where('device_id', '=', s.deviceId)
      .execute();
    const contacts = () => t.call(messagingCalls.getContact, { wxid: s.wxid, ids: [s.bob.id] }, auth);
    await until(async () => (await contacts()).code !== '200', 'the puppet here to stop', 3000);
    // That process died without renewing: once its lease lapses, this one takes the device over,
    // through the same token, and the network's session comes back without a scan.
    const sent = await until(
      async () => {
        const r = await t.call(
          messagingCalls.sendMsgText,
          { wxid: s.wxid, toWxid: s.bob.id, content: '接管' },
          auth,
        );
        return r.data?.status === 'sent' && r;
      },
      'the takeover',
      10_000,
    );
    expect(sent.data.status).toBe('sent');
    expect(net.mockers.length).toBe(puppets + 1);
    expect(net.tokensUsed.at(-1)).toEqual({ deviceId: s.deviceId, token: tokenBefore });
    const account = (await t.call(messagingCalls.getAuth, { wxid: s.wxid }, auth)).data;
    expect(account).toMatchObject({ status: 'online', lastOfflineAt: null, logoutReason: null });
    const lease = await db
      .selectFrom('wechaty_leases')
      .selectAll()
      .where('device_id', '=', s.deviceId)
      .executeTakeFirst();
    expect(lease?.owner).not.toBe('another-process');
  });

  it('ends the session when the network lost it, or after the last reconnection attempt', async () => {
    const gone = await loggedIn();
    net.plan.push({ kind: 'qr' }); // the network asks for a new scan: its session is gone
    await gone.mocker.puppet.stop();
    const statusOf = async (x: typeof gone) =>
      (await t.call(messagingCalls.getAuth, { wxid: x.wxid }, { headers: x.c.creds })).data;
    await until(
      async () => (await statusOf(gone)).logoutReason === '微信登录已失效，请重新扫码登录',
      'the end',
    );
    expect((await statusOf(gone)).status).toBe('offline');

    const silent = await loggedIn();
    // three attempts (the test's backoff), each to a network that does not answer
    net.plan.push({ kind: 'silent' }, { kind: 'silent' }, { kind: 'silent' });
    await silent.mocker.puppet.stop();
    await until(
      async () => (await statusOf(silent)).logoutReason === '消息通道连接中断，请重新扫码登录',
      'giving up',
      10_000,
    );
    const ended = await t.database.db
      .selectFrom('wx_logins')
      .select('ended_at')
      .where('id', '=', silent.instanceId)
      .executeTakeFirst();
    expect(ended?.ended_at).not.toBeNull();
  }, 20_000);

  it('ends a reconnecting session when its device starts a new QR login', async () => {
    const s = await loggedIn();
    const auth = { headers: s.c.creds };
    net.plan.push({ kind: 'silent' });
    await s.mocker.puppet.stop();
    const status = async () => (await t.call(messagingCalls.getAuth, { wxid: s.wxid }, auth)).data;
    await until(async () => (await status()).status === 'offline', 'the account to show offline');
    // a reconnection attempt is under way (its puppet took the silent behaviour)
    await until(async () => net.plan.length === 0, 'the reconnection attempt');
    const qr = await t.call(messagingCalls.getQrCode, { deviceId: s.deviceId }, auth);
    expect(qr.code).toBe('200');
    await until(
      async () => (await status()).logoutReason === '该设备已开始新的扫码登录',
      'the old session to end',
    );
    const login = await t.database.db
      .selectFrom('wx_logins')
      .select('ended_at')
      .where('id', '=', s.instanceId)
      .executeTakeFirst();
    expect(login?.ended_at).not.toBeNull();
    net.latest.scan('', ScanStatus.Cancel);
  });

  it('answers that the simulator is off for its calls', async () => {
    const sim = await t.call(simCalls.scanStatus, { instanceId: 'x'.repeat(24) });
    expect(sim.status).toBe(404);
    expect(sim.message).toContain('模拟器未启用');
  });
});

describe.each(dialects)('wechaty provider across a restart (%s)', (dialect) => {
  it('reconnects the accounts it had online, quietly; one whose session the network lost goes offline', async () => {
    const pg = dialect === 'postgres' ? await createPgSchema() : undefined;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wxc-wechaty-restart-'));
    const storage = pg ? { pgSchema: pg.schema } : { sqliteFile: path.join(dir, 'app.sqlite') };
    const receiver = await callbackReceiver();
    const start = (net: MockNetwork) =>
      createTestApp(
        dialect,
        { ...MESSAGING_ENV, CALLBACK_ALLOW_PRIVATE: 'true' },
        { ...storage, app: { messagingProvider: net.factory } },
      );
    try {
      const before = new MockNetwork();
      const a = await start(before);
      const cat = await setUpCatalogue(a);
      const kept = await logIn(a, cat, before, receiver.url);
      const lost = await logIn(a, cat, before, receiver.url);
      await a.close(); // puppets stop without logging out: the network keeps both sessions

      const after = new MockNetwork();
      after.planFor.set(kept.deviceId, {
        kind: 'resume',
        id: kept.wxid,
        name: '客服小王',
        friends: [{ id: kept.bob.id, name: 'Bob' }],
      });
      after.planFor.set(lost.deviceId, { kind: 'qr' });
      const b = await start(after);
      try {
        const auth = { headers: kept.c.creds };
        await until(async () => {
          const r = await b.call(
            messagingCalls.sendMsgText,
            { wxid: kept.wxid, toWxid: kept.bob.id, content: '重启后' },
            auth,
          );
          return r.code === '200' && r.data.status === 'sent';
        }, 'a send after the restart');
        // reconnected with the token that device used, and never shown offline
        const tokenOf = (n: MockNetwork) => n.tokensUsed.find((u) => u.deviceId === kept.deviceId)?.token;
        expect(tokenOf(after)).toBe(tokenOf(before));
        const account = (await b.call(messagingCalls.getAuth, { wxid: kept.wxid }, auth)).data;
        expect(account).toMatchObject({ status: 'online', logoutReason: null });
        await until(async () => {
          const a2 = (await b.call(messagingCalls.getAuth, { wxid: lost.wxid }, { headers: lost.c.creds }))
            .data;
          return a2.status === 'offline' && a2.logoutReason === '微信登录已失效，请重新扫码登录';
        }, 'the lost session to end');
        expect(receiver.events.filter((e) => e.type === 'logout' && e.data.wxid === kept.wxid)).toEqual([]);
      } finally {
        await b.close();
      }
    } finally {
      await receiver.close();
      await pg?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
