import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messagingCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import { PuppetServer } from 'wechaty-puppet-service';
import { PuppetMessageType, ScanStatus } from '../src/modules/wechaty/puppet.js';
import { setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, freePort, sharedDatabase, type TestApp } from './helpers.js';
import { customerWithSubAccount, MESSAGING_ENV, until } from './messaging-helpers.js';

/**
 * Several server processes with the wechaty provider (issue 18): two services on one database, as
 * two processes behind a load balancer, both configured with the network's one token (a PuppetServer
 * on loopback serving a wechaty-puppet-mock network). The account's puppet runs in the process that
 * started its QR login; calls landing on the other are routed there; the token is never used twice;
 * and when that process stops, the other takes the account over without a new QR login. (A process
 * that dies outright: e2e/wechaty-processes.e2e.ts.)
 */
describe.each(dialects)('wechaty in two processes (%s)', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  let server: PuppetServer;
  let mocker: mock.Mocker;
  let home: string;
  let dispose: () => Promise<void>;
  const previousHome = process.env.HOME;

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'wxc-wechaty-'));
    process.env.HOME = home;
    mocker = new mock.Mocker();
    mocker.use((m) => {
      m.scan('qr://two-processes', ScanStatus.Waiting);
      return () => undefined;
    });
    const port = await freePort();
    const token = `insecure_${randomUUID()}`;
    server = new PuppetServer({ endpoint: `127.0.0.1:${port}`, puppet: new PuppetMock({ mocker }), token });
    await server.start();
    const shared = await sharedDatabase(dialect);
    dispose = shared.dispose;
    const env = {
      ...MESSAGING_ENV,
      MESSAGING_PROVIDER: 'wechaty',
      WECHATY_PUPPET: 'wechaty-puppet-service',
      WECHATY_PUPPET_ENDPOINT: `127.0.0.1:${port}`,
      WECHATY_PUPPET_TOKEN: token,
      WECHATY_LEASE_SECONDS: '3',
    };
    // Each on an address of its own, so the leases say which one runs a device.
    a = await createTestApp(dialect, { ...env, WECHATY_ROUTE_HOST: '127.0.0.1' }, shared.options);
    b = await createTestApp(dialect, { ...env, WECHATY_ROUTE_HOST: '127.0.0.2' }, shared.options);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await server?.stop();
    await dispose?.();
    process.env.HOME = previousHome;
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** The route address of the process holding each device's lease now. */
  const holders = async () =>
    (
      await b.database.db
        .selectFrom('wechaty_leases as l')
        .innerJoin('wechaty_processes as p', 'p.id', 'l.owner')
        .select(['l.device_id', 'p.address'])
        .where('l.lease_until', '>', Date.now())
        .execute()
    ).map((r) => ({ deviceId: r.device_id, host: new URL(r.address).hostname }));

  it('routes calls to the process running the puppet, never shares the token, and hands over at a stop', async () => {
    const cat = await setUpCatalogue(a);
    const c = await customerWithSubAccount(a, cat);
    const auth = { headers: c.creds };

    // The QR login starts on a: the device's puppet runs there.
    const qr = await a.call(messagingCalls.getQrCode, {}, auth);
    expect(qr.code).toBe('200');
    expect(qr.data.qrUrl).toBe('qr://two-processes');
    expect(await holders()).toEqual([{ deviceId: expect.any(String), host: '127.0.0.1' }]);
    const me = mocker.createContact({ name: '双进程账号' });
    const [bob] = mocker.createContacts(1);
    mocker.scan('qr://two-processes', ScanStatus.Scanned);
    mocker.login(me);
    // b reads the same records
    const loop = await until(
      async () => {
        const s = await b.call(
          messagingCalls.checkQrCodeLoop,
          { instanceId: qr.data.instanceId, lastState: 'waiting', waitSeconds: 2 },
          auth,
        );
        return s.data.state === 'confirmed' && s.data;
      },
      'the login',
      15_000,
    );
    expect(loop.account).toMatchObject({ wxid: me.id, status: 'online' });
    const wxid = me.id;

    // The network's one token is a's: a second login, on either process, is refused.
    for (const t of [a, b]) {
      const second = await t.call(messagingCalls.getQrCode, {}, auth);
      expect(second.code).not.toBe('200');
      expect(second.message).toContain('登录名额已用完');
    }

    // A route server answers only the service's own processes (the key each publishes).
    const peers = await b.database.db
      .selectFrom('wechaty_processes')
      .select(['address', 'route_key'])
      .execute();
    expect(peers).toHaveLength(2);
    for (const key of [undefined, 'guess', `${peers[0]!.route_key}x`]) {
      const res = await fetch(`${peers[0]!.address}/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'x-route-key': key } : {}) },
        body: JSON.stringify([{ accountId: 'x', companyId: 'x', wxid: wxid, deviceId: 'x' }]),
      });
      expect(res.status).toBe(404);
    }
    const unknown = await fetch(`${peers[0]!.address}/stop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-route-key': peers[0]!.route_key },
      body: '[]',
    });
    expect(await unknown.json()).toEqual({ ok: false, error: null }); // only the routed calls

    // Calls on b are answered by a's puppet: contacts and sends.
    const contacts = await b.call(messagingCalls.getContact, { wxid, ids: [bob!.id] }, auth);
    expect(contacts.code).toBe('200');
    expect(JSON.stringify(contacts.data)).toContain(bob!.id);
    const got: string[] = [];
    bob!.on('message', (m) => {
      if (m.type() === PuppetMessageType.Text) got.push(m.text() ?? '');
    });
    const sent = await b.call(
      messagingCalls.sendMsgText,
      { wxid, toWxid: bob!.id, content: '经由 b 发送' },
      auth,
    );
    expect(sent.data.status).toBe('sent');
    await until(async () => got.includes('经由 b 发送'), 'the routed send to arrive');
    expect((await holders()).map((h) => h.host)).toEqual(['127.0.0.1']);
    // A contact's message, received by a's puppet, is in the records b reads.
    bob!.say('回复给双进程').to(mocker.ContactMock.load(wxid));
    await until(async () => {
      const h = await b.call(messagingCalls.showMsgConsole, { wxid, peer: bob!.id }, auth);
      return (h.data.list as { content: string }[]).some((m) => m.content === '回复给双进程');
    }, 'the incoming message');

    // a stops: it detaches from the network (which keeps the session) and gives its leases back;
    // b takes the account over, quietly: no new QR login, never shown offline.
    await a.close();
    await until(
      async () => (await holders()).some((h) => h.host === '127.0.0.2'),
      'b to take the device over',
      15_000,
    );
    const again = await until(
      async () => {
        const r = await b.call(
          messagingCalls.sendMsgText,
          { wxid, toWxid: bob!.id, content: '接管后发送' },
          auth,
        );
        return r.data?.status === 'sent' && r;
      },
      'a send after the takeover',
      15_000,
    );
    expect(again.data.status).toBe('sent');
    await until(async () => got.includes('接管后发送'), 'the send after the takeover to arrive');
    const account = await b.call(messagingCalls.getAuth, { wxid }, auth);
    expect(account.data).toMatchObject({ status: 'online', lastOfflineAt: null, logoutReason: null });

    // Logging out ends the session and gives the lease and the token back.
    expect((await b.call(messagingCalls.logout, { wxid }, auth)).data.status).toBe('offline');
    expect(await holders()).toEqual([]);
    expect(await b.database.db.selectFrom('wechaty_token_leases').selectAll().execute()).toEqual([]);
  }, 90_000);
});
