/**
 * Several processes on one PostgreSQL (issue 17): three processes of the built service share a fresh
 * database, and a customer's requests land on any of them, as behind a load balancer. Sessions and
 * their revocation, the QR login, sending (each message once, paced), the login lockout and the
 * per-IP rate limits hold across them. Runs when TEST_DATABASE_URL names a PostgreSQL server (CI sets it).
 */
import { execFileSync } from 'node:child_process';
import * as authCalls from '@wxc/contract/calls/auth';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as simCalls from '@wxc/contract/calls/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPTCHA,
  type FreshPostgres,
  freshPostgresDatabase,
  PG_URL,
  payingCompany,
  startServer,
  type TestServer,
} from './harness';

const INTERVAL_MS = 150;

describe.skipIf(!PG_URL)('three processes on one PostgreSQL', () => {
  const servers: TestServer[] = [];
  let database: FreshPostgres | undefined;

  beforeAll(async () => {
    database = await freshPostgresDatabase('wxc_mp');
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      SEND_INTERVAL_MS: String(INTERVAL_MS),
      SIM_REPLY_DELAY_MS: '0',
      SIM_CHATTER_SECONDS: '0',
    };
    // The first migrates and creates the operator; the others start on the same database at once.
    servers.push(await startServer(env));
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await database?.drop();
  });

  it('a session made on one process works on the others, and a logout ends it on all of them', async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const company = await payingCompany(a);
    for (const s of [a, b, c])
      expect((await s.api(authCalls.refreshLoginInfo, {}, company.token)).code).toBe('200');
    expect((await b.api(authCalls.logout, {}, company.token)).code).toBe('200');
    for (const s of [a, b, c])
      expect((await s.api(authCalls.refreshLoginInfo, {}, company.token)).code).toBe('403');
  });

  it('logs in by QR across processes, and sends each message once, paced, whichever process takes it', async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const company = await payingCompany(a);
    const qr = await a.api(messagingCalls.getQrCode, {}, company.token);
    expect(qr.code).toBe('200');
    const { instanceId } = qr.data;
    expect((await b.api(simCalls.scanAction, { instanceId, action: 'scan' })).code).toBe('200');
    expect((await c.api(simCalls.scanAction, { instanceId, action: 'confirm' })).code).toBe('200');
    const status = await b.api(messagingCalls.checkQrCode, { instanceId }, company.token);
    expect(status.data.state).toBe('confirmed');
    const wxid = status.data.account!.wxid;
    const friend = (await c.api(messagingCalls.getAddressList, { wxid }, company.token)).data.list.find(
      (x) => x.kind === 'friend',
    )!.wxid;

    const sent = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        servers[i % 3]!.api(
          messagingCalls.sendMsgText,
          { wxid, toWxid: friend, content: `三个进程 ${i}` },
          company.token,
        ),
      ),
    );
    expect(sent.map((r) => r.code)).toEqual(Array(9).fill('200'));
    const ids = new Set(sent.map((r) => r.data.msgId));
    const deadline = Date.now() + 20_000;
    let mine: Array<{ msgId: string; status: string }> = [];
    for (;;) {
      const history = await a.api(
        messagingCalls.showMsgConsole,
        { wxid, peer: friend, limit: 50 },
        company.token,
      );
      mine = history.data.list.filter((m) => ids.has(m.msgId));
      if (mine.length === 9 && mine.every((m) => m.status === 'sent')) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(mine.map((m) => m.status)).toEqual(Array(9).fill('sent'));
    // Each message went out once: the simulated friend answers every text it gets, once, so nine
    // sends make nine answers (a message sent twice would make a tenth).
    const answers = async () =>
      (
        await c.api(messagingCalls.showMsgConsole, { wxid, peer: friend, limit: 100 }, company.token)
      ).data.list.filter((m) => m.direction === 'in').length;
    const until = Date.now() + 10_000;
    while ((await answers()) < 9 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 1000));
    expect(await answers()).toBe(9);
  });

  it('checks at most 5 wrong passwords per account, whichever processes they reach', async () => {
    const company = await payingCompany(servers[0]!);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        servers[i % 3]!.api(authCalls.login, {
          companyAccount: company.phone,
          password: `wrong-password-${i}`,
          captchaId: 'x',
          captchaCode: CAPTCHA,
        }),
      ),
    );
    const codes = answers.map((r) => r.code);
    expect(codes.filter((c) => c !== '40013' && c !== '42903')).toEqual([]);
    expect(codes.filter((c) => c === '40013').length).toBeLessThanOrEqual(5);
  });

  it('answers one client address 30 captchas a minute in all, whichever processes they reach', async () => {
    // One address (the proxy's X-Forwarded-For), its requests spread over the three processes.
    const ip = `10.77.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 36; i++) {
      const res = await fetch(`${servers[i % 3]!.baseUrl}${authCalls.getVerifyCode.path}`, {
        headers: { 'X-Forwarded-For': ip },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 200).length).toBe(30);
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429, 429]);
    // Another address still has its own budget.
    const other = await fetch(`${servers[1]!.baseUrl}${authCalls.getVerifyCode.path}`, {
      headers: { 'X-Forwarded-For': '10.78.0.1' },
    });
    expect(other.status).toBe(200);
  });
});

/** The processes `pid` runs (WORKERS=N: its workers). */
function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there is none
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!PG_URL)('WORKERS=2: two processes on one port', () => {
  it('both serve, a session holds on either, a worker that dies is replaced, SIGTERM stops them all', async () => {
    const database = await freshPostgresDatabase('wxc_workers');
    const server = await startServer({
      DATABASE_URL: database.url,
      WORKERS: '2',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'info',
    });
    try {
      const listening = () => server.log.filter((l) => l.includes('Server listening')).length;
      await expect.poll(() => childPids(server.pid).length).toBe(2);
      await expect.poll(listening).toBe(2); // the service answered as soon as the first one did
      const company = await payingCompany(server);
      // Each new connection goes to the next worker: ten at once reach both, with one session.
      const reads = await Promise.all(
        Array.from({ length: 10 }, () => server.api(authCalls.refreshLoginInfo, {}, company.token)),
      );
      expect(reads.map((r) => r.code)).toEqual(Array(10).fill('200'));
      // A worker logs "request completed" after its answer is on its way: wait for the lines.
      const served = () =>
        new Set(
          server.log
            .filter((l) => l.includes('"request completed"'))
            .map((l) => (JSON.parse(l) as { pid: number }).pid),
        ).size;
      await expect.poll(served).toBe(2);

      const [lost] = childPids(server.pid);
      process.kill(lost!, 'SIGKILL');
      await expect
        .poll(() => {
          const now = childPids(server.pid);
          return now.length === 2 && !now.includes(lost!);
        })
        .toBe(true);
      // …and the new one serves (two listened at the start, the replacement is the third).
      await expect.poll(listening).toBe(3);
      const again = await Promise.all(
        Array.from({ length: 6 }, () => server.api(authCalls.refreshLoginInfo, {}, company.token)),
      );
      expect(again.map((r) => r.code)).toEqual(Array(6).fill('200'));
      expect((await server.api(authCalls.logout, {}, company.token)).code).toBe('200');
      const after = await Promise.all(
        Array.from({ length: 6 }, () => server.api(authCalls.refreshLoginInfo, {}, company.token)),
      );
      expect(after.map((r) => r.code)).toEqual(Array(6).fill('403'));

      const workers = childPids(server.pid);
      expect(await server.terminate(), 'exit code after SIGTERM').toBe(0);
      for (const pid of workers) expect(alive(pid), `worker ${pid} after SIGTERM`).toBe(false);
    } finally {
      await server.stop();
      await database.drop();
    }
  });
});
