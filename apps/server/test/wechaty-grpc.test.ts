import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callbackCalls, messagingCalls } from '@wxc/contract';
import { FileBox } from 'file-box';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import { PuppetServer } from 'wechaty-puppet-service';
import { PuppetMessageType, ScanStatus } from '../src/modules/wechaty/puppet.js';
import { setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, freePort, type TestApp } from './helpers.js';
import { callbackReceiver, customerWithSubAccount, MESSAGING_ENV, PNG, until } from './messaging-helpers.js';

/**
 * Over the real wire: the service configured the way an operator would (MESSAGING_PROVIDER=wechaty,
 * wechaty-puppet-service, an endpoint and a token) talks gRPC over TLS to a PuppetServer on
 * loopback, which serves a wechaty-puppet-mock network the test drives.
 */
describe.each(dialects)('wechaty over puppet-service gRPC (%s)', (dialect) => {
  let t: TestApp;
  let server: PuppetServer;
  let mocker: mock.Mocker;
  let home: string;
  const previousHome = process.env.HOME;
  let receiver: Awaited<ReturnType<typeof callbackReceiver>>;

  beforeAll(async () => {
    // puppet-service keeps a payload cache under ~/.wechaty: a throw-away home for the test.
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'wxc-wechaty-'));
    process.env.HOME = home;
    mocker = new mock.Mocker();
    mocker.use((m) => {
      m.scan('qr://grpc-network', ScanStatus.Waiting);
      return () => undefined;
    });
    const port = await freePort();
    // The token's prefix (before the last _) is the TLS server name the built-in certificate serves.
    const token = `insecure_${randomUUID()}`;
    server = new PuppetServer({ endpoint: `127.0.0.1:${port}`, puppet: new PuppetMock({ mocker }), token });
    await server.start();

    receiver = await callbackReceiver();

    t = await createTestApp(dialect, {
      ...MESSAGING_ENV,
      CALLBACK_ALLOW_PRIVATE: 'true',
      MESSAGING_PROVIDER: 'wechaty',
      WECHATY_PUPPET: 'wechaty-puppet-service',
      WECHATY_PUPPET_ENDPOINT: `127.0.0.1:${port}`,
      WECHATY_PUPPET_TOKEN: token,
    });
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
    await receiver?.close();
    process.env.HOME = previousHome;
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('logs in by QR code, sends and receives a text and a file each way, and delivers the callbacks', async () => {
    const cat = await setUpCatalogue(t);
    const c = await customerWithSubAccount(t, cat);
    const auth = { headers: c.creds };
    await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: receiver.url }, auth);
    const callbacks = receiver.events;

    const qr = await t.call(messagingCalls.getQrCode, {}, auth);
    expect(qr.code).toBe('200');
    expect(qr.data.qrUrl).toBe('qr://grpc-network');
    const { instanceId } = qr.data;
    const me = mocker.createContact({ name: '远程账号' });
    const [bob] = mocker.createContacts(1);
    mocker.scan('qr://grpc-network', ScanStatus.Scanned);
    mocker.login(me);
    const loop = await until(
      async () => {
        const s = await t.call(
          messagingCalls.checkQrCodeLoop,
          { instanceId, lastState: 'waiting', waitSeconds: 2 },
          auth,
        );
        return s.data.state === 'confirmed' && s.data;
      },
      'the login over gRPC',
      15_000,
    );
    expect(loop.account).toMatchObject({ wxid: me.id, nickname: '远程账号', status: 'online' });
    const wxid = me.id;

    const got: { type: number; text: string }[] = [];
    bob!.on('message', (m) => {
      got.push({ type: m.type(), text: m.text() ?? '' });
    });
    expect(
      (await t.call(messagingCalls.sendMsgText, { wxid, toWxid: bob!.id, content: '远程你好' }, auth)).data
        .status,
    ).toBe('sent');
    expect(
      (
        await t.call(
          messagingCalls.sendMsgFile,
          { wxid, toWxid: bob!.id, fileUrl: 'https://example.com/files/photo.png', fileName: 'photo.png' },
          auth,
        )
      ).data.status,
    ).toBe('sent');
    await until(async () => got.length >= 2, 'the contact to receive both', 10_000);
    expect(got[0]).toEqual({ type: PuppetMessageType.Text, text: '远程你好' });
    expect(got[1]!.type).toBe(PuppetMessageType.Image);

    bob!.say('远程回复').to(mocker.ContactMock.load(wxid));
    bob!.say(FileBox.fromBase64(PNG.toString('base64'), 'back.png')).to(mocker.ContactMock.load(wxid));
    const inbound = await until(
      async () => {
        const h = await t.call(messagingCalls.showMsgConsole, { wxid, peer: bob!.id }, auth);
        const list = (
          h.data.list as { direction: string; type: number; content: string; msgId: string }[]
        ).filter((m) => m.direction === 'in');
        return list.length >= 2 && list;
      },
      'the incoming messages',
      10_000,
    );
    expect(inbound.find((m) => m.type === 1)?.content).toBe('远程回复');
    const pic = inbound.find((m) => m.type === 3)!;
    const link = await t.call(messagingCalls.getMsgImg, { wxid, msgId: pic.msgId }, auth);
    const file = await t.app.inject({
      method: 'GET',
      url: link.data.url.replace('http://127.0.0.1:8080', ''),
    });
    expect(file.rawPayload.equals(PNG)).toBe(true);

    await until(
      async () =>
        callbacks.some((e) => e.type === 'login') &&
        callbacks.filter((e) => e.type === 'message').length >= 2,
      'the callbacks',
      10_000,
    );

    const out = await t.call(messagingCalls.logout, { wxid }, auth);
    expect(out.data.status).toBe('offline');
    await until(async () => callbacks.some((e) => e.type === 'logout'), 'the logout callback', 10_000);
  }, 60_000);
});
