/**
 * A real messaging network with several server processes (issue 18): two processes of the built
 * service on one PostgreSQL, both configured with the network's one token (a PuppetServer on
 * loopback serving a wechaty-puppet-mock network, driven here as the phone). The account's puppet
 * runs in the process that started its QR login and the other routes to it; when that process is
 * killed outright, its lease lapses and the other takes the account over from the network, which
 * kept the session: the account stays online, never asked to scan again. The same with WORKERS=2,
 * where the load balancer is node:cluster's and the process killed is the worker holding the lease.
 * Runs when TEST_DATABASE_URL names a PostgreSQL server (CI sets it).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import { PuppetServer } from 'wechaty-puppet-service';
import {
  freePort,
  freshPostgresDatabase,
  PG_URL,
  payingCompany,
  startServer,
  type TestServer,
} from './harness';

// wechaty-puppet's ScanStatus and message type values (the e2e tree does not import the server's modules).
const WAITING = 2;
const SCANNED = 3;
const TEXT = 7;

/** A network with one token: a PuppetServer on loopback serving one mock puppet (one account). */
async function mockNetwork() {
  const mocker = new mock.Mocker();
  const qr = `https://login.weixin.example/qr/${randomUUID()}`;
  mocker.use((m) => {
    m.scan(qr, WAITING);
    return () => undefined;
  });
  const port = await freePort();
  const token = `insecure_${randomUUID()}`;
  const server = new PuppetServer({
    endpoint: `127.0.0.1:${port}`,
    puppet: new PuppetMock({ mocker }),
    token,
  });
  await server.start();
  return {
    mocker,
    qr,
    server,
    env: { WECHATY_PUPPET_ENDPOINT: `127.0.0.1:${port}`, WECHATY_PUPPET_TOKEN: token },
  };
}

describe.skipIf(!PG_URL)('a real network behind several processes', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  let home: string;

  beforeAll(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'wxc-wechaty-home-'));
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** A fresh database, its network, and the settings of every process on them. */
  async function setUp() {
    const net = await mockNetwork();
    cleanups.push(() => net.server.stop());
    const database = await freshPostgresDatabase('wxc_wechaty');
    cleanups.push(() => database.drop());
    const env = {
      ...net.env,
      DATABASE_URL: database.url,
      MESSAGING_PROVIDER: 'wechaty',
      WECHATY_LEASE_SECONDS: '3',
      SEND_INTERVAL_MS: '0',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'info',
      // puppet-service keeps its payload cache under ~/.wechaty (one per token, locked while used)
      HOME: home,
    };
    return { ...net, database, env };
  }

  async function start(env: Record<string, string>) {
    const server = await startServer(env);
    cleanups.push(() => server.stop());
    return server;
  }

  /** Logs an account in through `server` (the phone scans and confirms); its contact bob hears texts. */
  async function logIn(server: TestServer, net: Awaited<ReturnType<typeof setUp>>) {
    const company = await payingCompany(server);
    const qr = await server.api(messagingCalls.getQrCode, {}, company.token);
    expect(qr.code).toBe('200');
    expect(qr.data.qrUrl).toBe(net.qr);
    const me = net.mocker.createContact({ name: '多进程账号' });
    const [bob] = net.mocker.createContacts(1);
    net.mocker.scan(net.qr, SCANNED);
    net.mocker.login(me);
    await expect
      .poll(
        async () => (await server.api(messagingCalls.getAuth, { wxid: me.id }, company.token)).data?.status,
        {
          timeout: 15_000,
        },
      )
      .toBe('online');
    const got: string[] = [];
    bob!.on('message', (m) => {
      if (m.type() === TEXT) got.push(m.text() ?? '');
    });
    const send = (via: TestServer, content: string) =>
      via.api(messagingCalls.sendMsgText, { wxid: me.id, toWxid: bob!.id, content }, company.token);
    const status = async (via: TestServer) =>
      (await via.api(messagingCalls.getAuth, { wxid: me.id }, company.token)).data;
    return { got, send, status };
  }

  /** Sends through `via` until one goes out (the takeover done); what it sent. */
  async function sendUntilSent(
    via: TestServer,
    send: (via: TestServer, content: string) => Promise<{ data: { status?: string } }>,
  ) {
    let n = 0;
    await expect
      .poll(
        async () => {
          n += 1;
          return (await send(via, `接管 ${n}`)).data?.status;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe('sent');
    return `接管 ${n}`;
  }

  it('two services: routes to the one running the puppet, and takes the account over when it dies', async () => {
    const net = await setUp();
    const a = await start(net.env); // migrates first
    const b = await start(net.env);
    const { got, send, status } = await logIn(a, net);
    // (`queued` when the answer's wait ran out on a loaded machine; the delivery below proves it went out.)
    expect(['sent', 'queued']).toContain((await send(b, '经由另一个进程')).data.status);
    await expect.poll(() => got).toContain('经由另一个进程');

    // The process running the puppet dies: nothing is stopped, the network keeps the session.
    await a.kill();
    const last = await sendUntilSent(b, send);
    await expect.poll(() => got).toContain(last);
    // Quietly: the account stayed online all along, and no new QR login was asked for.
    expect(await status(b)).toMatchObject({ status: 'online', lastOfflineAt: null, logoutReason: null });
    expect(b.log.some((l) => l.includes('wechaty: resuming an online account here'))).toBe(true);
  }, 90_000);

  it('WORKERS=2: either worker answers, and the worker holding the account can die', async () => {
    const net = await setUp();
    const server = await start({ ...net.env, WORKERS: '2' });
    const { got, send, status } = await logIn(server, net);
    // Connections go to the workers in turn: some of these are routed to the other worker.
    const sent = await Promise.all(Array.from({ length: 6 }, (_, i) => send(server, `轮流 ${i}`)));
    // (`queued`: the other worker's drain took the message first; it goes out all the same.)
    for (const r of sent) expect(['sent', 'queued']).toContain(r.data.status);
    await expect.poll(() => got.filter((t) => t.startsWith('轮流')).length).toBe(6);

    // The worker whose route server holds the device's lease is killed (the primary replaces it).
    const db = new pg.Client({ connectionString: net.database.url });
    await db.connect();
    cleanups.push(() => db.end());
    const holder = async () =>
      (
        await db.query<{ pid: number }>(
          'select p.pid from wechaty_leases l join wechaty_processes p on p.id = l.owner where l.lease_until > $1',
          [Date.now()],
        )
      ).rows[0]?.pid;
    const first = await holder();
    expect(first).toBeGreaterThan(0);
    process.kill(first!, 'SIGKILL');
    const last = await sendUntilSent(server, send);
    await expect.poll(() => got).toContain(last);
    expect(await holder()).not.toBe(first);
    expect(await status(server)).toMatchObject({ status: 'online', lastOfflineAt: null, logoutReason: null });
  }, 90_000);
});
