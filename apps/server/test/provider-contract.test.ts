import { callbackCalls, messagingCalls, simCalls } from '@wxc/contract';
import { FileBox } from 'file-box';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import { createWechatyProvider } from '../src/modules/wechaty/provider.js';
import { type Puppet, ScanStatus } from '../src/modules/wechaty/puppet.js';
import { setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, type TestApp, type TestAppOptions } from './helpers.js';
import {
  type Catalogue,
  callbackReceiver,
  customerWithSubAccount,
  MESSAGING_ENV,
  until,
} from './messaging-helpers.js';

/**
 * The messaging providers' contract: one suite of what the gateway expects from a network, run
 * against every provider through a driver that plays the phone and the contacts. The simulator is
 * driven through its /api/sim/* calls; the wechaty provider through wechaty-puppet-mock.
 */
interface NetworkDriver {
  options(): TestAppOptions;
  /** After getQrCode: the phone scans the code. */
  scan(t: TestApp, qr: Issued): Promise<void>;
  /** The phone confirms the scanned login. */
  confirm(t: TestApp, qr: Issued): Promise<void>;
  /** The phone cancels. */
  cancel(t: TestApp, qr: Issued): Promise<void>;
  /** A friend of the account writes to it. */
  say(t: TestApp, account: Online, from: string, text: string): Promise<void>;
  /** The network logs the account out. */
  kick(t: TestApp, account: Online, reason: string): Promise<void>;
}

interface Issued {
  instanceId: string;
  deviceId: string;
  qrUrl: string;
}
interface Online {
  wxid: string;
  auth: { headers: Record<string, string> };
}

const simulator = (): NetworkDriver => ({
  options: () => ({}),
  scan: async (t, qr) => {
    expect((await t.call(simCalls.scanAction, { instanceId: qr.instanceId, action: 'scan' })).code).toBe(
      '200',
    );
  },
  confirm: async (t, qr) => {
    expect((await t.call(simCalls.scanAction, { instanceId: qr.instanceId, action: 'confirm' })).code).toBe(
      '200',
    );
  },
  cancel: async (t, qr) => {
    expect((await t.call(simCalls.scanAction, { instanceId: qr.instanceId, action: 'cancel' })).code).toBe(
      '200',
    );
  },
  say: async (t, account, from, content) => {
    const res = await t.call(
      simCalls.injectMessage,
      { wxid: account.wxid, fromWxid: from, content },
      account.auth,
    );
    expect(res.code).toBe('200');
  },
  kick: async (t, account, reason) => {
    expect((await t.call(simCalls.kick, { wxid: account.wxid, reason }, account.auth)).code).toBe('200');
  },
});

const wechatyMock = (): NetworkDriver => {
  // Each puppet's network: a Mocker, found by the QR code it showed, then by the account.
  const byQr = new Map<string, mock.Mocker>();
  const byWxid = new Map<string, mock.Mocker>();
  let n = 0;
  const mockerOf = (qr: Issued) => byQr.get(qr.qrUrl)!;
  return {
    options: () => ({
      app: {
        messagingProvider: ({ db, log, files }) =>
          createWechatyProvider({
            db,
            log,
            files,
            FileBox,
            tokens: [],
            startTimeoutMs: 2000,
            createPuppet: () => {
              const mocker = new mock.Mocker();
              const qr = `qr://contract/${++n}`;
              byQr.set(qr, mocker);
              mocker.use((m) => {
                m.scan(qr, ScanStatus.Waiting);
                // the account's address book: two friends and a group
                const [a, b] = m.createContacts(2);
                m.createRoom({ topic: '合同群', memberIdList: [a!.id, b!.id] });
                return () => undefined;
              });
              return new PuppetMock({ mocker }) as unknown as Puppet;
            },
          }),
      },
    }),
    scan: async (_t, qr) => {
      mockerOf(qr).scan(qr.qrUrl, ScanStatus.Scanned);
    },
    confirm: async (_t, qr) => {
      const mocker = mockerOf(qr);
      const me = mocker.createContact({ name: '合同账号' });
      byWxid.set(me.id, mocker);
      mocker.login(me);
    },
    cancel: async (_t, qr) => {
      mockerOf(qr).scan('', ScanStatus.Cancel);
    },
    say: async (_t, account, from, text) => {
      const mocker = byWxid.get(account.wxid)!;
      mocker.ContactMock.load(from).say(text).to(mocker.ContactMock.load(account.wxid));
    },
    kick: async (_t, account, reason) => {
      await byWxid.get(account.wxid)!.puppet.logout(reason);
    },
  };
};

const PROVIDERS = [
  ['simulator', simulator],
  ['wechaty (puppet-mock)', wechatyMock],
] as const;

describe.each(dialects)('messaging provider contract (%s)', (dialect) => {
  describe.each(PROVIDERS)('%s', (_name, makeDriver) => {
    const driver = makeDriver();
    let t: TestApp;
    let cat: Catalogue;
    let receiver: Awaited<ReturnType<typeof callbackReceiver>>;
    beforeAll(async () => {
      receiver = await callbackReceiver();
      t = await createTestApp(
        dialect,
        { ...MESSAGING_ENV, CALLBACK_ALLOW_PRIVATE: 'true' },
        driver.options(),
      );
      cat = await setUpCatalogue(t);
    });
    afterAll(async () => {
      await t.close();
      await receiver.close();
    });

    async function qrFor() {
      const c = await customerWithSubAccount(t, cat);
      const auth = { headers: c.creds };
      await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: receiver.url }, auth);
      const qr = await t.call(messagingCalls.getQrCode, {}, auth);
      expect(qr.code).toBe('200');
      const state = async () =>
        (await t.call(messagingCalls.checkQrCode, { instanceId: qr.data.instanceId }, auth)).data;
      return { auth, qr: qr.data as Issued, state };
    }

    /** The phone scans, then confirms; answers the confirmed QR status. */
    async function scanAndConfirm({ qr, state }: Awaited<ReturnType<typeof qrFor>>) {
      await driver.scan(t, qr);
      await until(async () => (await state()).state === 'scanned', 'the scan');
      await driver.confirm(t, qr);
      return until(async () => {
        const s = await state();
        return s.state === 'confirmed' && s;
      }, 'the login');
    }

    async function online(): Promise<Online> {
      const issued = await qrFor();
      const done = await scanAndConfirm(issued);
      return { wxid: done.account.wxid, auth: issued.auth };
    }

    it('moves a QR login waiting -> scanned -> confirmed and brings the account online', async () => {
      const issued = await qrFor();
      const { auth, qr, state } = issued;
      expect(await state()).toMatchObject({ state: 'waiting', account: null });
      const done = await scanAndConfirm(issued);
      expect(done.account.status).toBe('online');
      const account = await t.call(messagingCalls.getAuth, { wxid: done.account.wxid }, auth);
      expect(account.data).toMatchObject({ status: 'online', deviceId: qr.deviceId });
      await until(
        async () => receiver.events.some((e) => e.type === 'login' && e.data.wxid === done.account.wxid),
        'the login callback',
      );
    });

    it('ends a QR login the phone cancels', async () => {
      const { qr, state } = await qrFor();
      await driver.scan(t, qr);
      await until(async () => (await state()).state === 'scanned', 'the scan');
      await driver.cancel(t, qr);
      await until(async () => (await state()).state === 'cancelled', 'the cancel');
    });

    it('lists friends and groups with their members, sends a text, and stores what a friend writes', async () => {
      const account = await online();
      const book = (await t.call(messagingCalls.getAddressList, { wxid: account.wxid }, account.auth)).data
        .list as { wxid: string; kind: string }[];
      const friend = book.find((c) => c.kind === 'friend')!;
      const room = book.find((c) => c.kind === 'chatroom')!;
      expect(friend).toBeDefined();
      expect(room).toBeDefined();
      expect(book.some((c) => c.wxid === account.wxid)).toBe(false);
      const members = await t.call(
        messagingCalls.getChatRoomMember,
        { wxid: account.wxid, roomId: room.wxid },
        account.auth,
      );
      expect(members.data.members.length).toBeGreaterThan(0);

      const sent = await t.call(
        messagingCalls.sendMsgText,
        { wxid: account.wxid, toWxid: friend.wxid, content: '合同测试' },
        account.auth,
      );
      expect(sent.data).toMatchObject({ type: 1, status: 'sent' });

      await driver.say(t, account, friend.wxid, '你好，合同');
      await until(async () => {
        const h = await t.call(
          messagingCalls.showMsgConsole,
          { wxid: account.wxid, peer: friend.wxid },
          account.auth,
        );
        return (h.data.list as { direction: string; content: string }[]).some(
          (m) => m.direction === 'in' && m.content === '你好，合同',
        );
      }, 'the incoming text');
      await until(
        async () =>
          receiver.events.some(
            (e) => e.type === 'message' && (e.data as { content?: string }).content === '你好，合同',
          ),
        'the message callback',
      );
    });

    it('takes the account offline when the network logs it out, with the reason', async () => {
      const account = await online();
      await driver.kick(t, account, '被踢下线');
      const off = await until(async () => {
        const a = (await t.call(messagingCalls.getAuth, { wxid: account.wxid }, account.auth)).data;
        return a.status === 'offline' && a;
      }, 'the account to go offline');
      expect(off.logoutReason).toContain('被踢下线');
      await until(
        async () => receiver.events.some((e) => e.type === 'logout' && e.data.wxid === account.wxid),
        'the logout callback',
      );
      const refused = await t.call(
        messagingCalls.sendMsgText,
        { wxid: account.wxid, toWxid: 'anyone', content: 'x' },
        account.auth,
      );
      expect(refused.status).toBe(400);
    });

    it('logs out through the API', async () => {
      const account = await online();
      const out = await t.call(messagingCalls.logout, { wxid: account.wxid }, account.auth);
      expect(out.data.status).toBe('offline');
      expect(out.data.logoutReason).toBe('主动退出登录');
    });
  });
});
