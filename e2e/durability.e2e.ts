/**
 * Durability (issue 17): the built service is killed with SIGKILL in the middle of a write load,
 * restarted on the same data, and every write it had acknowledged is there exactly once:
 * registrations, paid orders, sub-accounts and messages; the queued messages are then sent, each
 * exactly once (one "sent" status event per message). No browser: the service and its database.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as callbackCalls from '@wxc/contract/calls/callbacks';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as orderCalls from '@wxc/contract/calls/orders';
import * as packageCalls from '@wxc/contract/calls/packages';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loginMessagingAccount, payingCompany, seedCompany, startServer, type TestServer } from './harness';

const ENV = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  // Paced, so messages wait in the queue when the service dies.
  SEND_INTERVAL_MS: '150',
  SIM_REPLY_DELAY_MS: '0',
  SIM_CHATTER_SECONDS: '0',
  CALLBACK_ALLOW_PRIVATE: 'true',
};

let server: TestServer | undefined;
let sink: Server | undefined;
afterAll(async () => {
  await server?.stop();
  await new Promise((r) => (sink ? sink.close(r) : r(undefined)));
});

interface Acknowledged {
  phones: string[];
  orders: string[];
  subAccounts: string[];
  messages: string[];
}

function readDb<T>(s: TestServer, read: (db: Database.Database) => T): T {
  const db = new Database(path.join(s.dataDir, 'app.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const count = (db: Database.Database, sql: string, value: string) =>
  (db.prepare(sql).get(value) as { n: number }).n;

describe('kill -9 under write load', () => {
  it('keeps every acknowledged write exactly once, and sends each queued message once after the restart', {
    timeout: 120_000,
  }, async () => {
    sink = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((r) => sink!.listen(0, '127.0.0.1', r));
    const callbackUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/cb`;

    server = await startServer(ENV);
    const first = server;
    const company = await payingCompany(first);
    const account = await loginMessagingAccount(first, company);
    const sub = (await first.api(apiAccountCalls.queryApiAccount, {}, company.token)).data.list[0]!;
    const hooked = await first.api(
      callbackCalls.resetCallbackUrl,
      { callbackUrl, subAccountId: sub.id },
      company.token,
    );
    expect(hooked.code, hooked.message).toBe('200');
    const friend = (await first.api(messagingCalls.getAddressList, { wxid: account.wxid }, company.token))
      .data.list[0]!.wxid;
    const pkg = (await first.api(packageCalls.list, {}, company.token)).data.list.find(
      (p) => p.name === '基础版·月付',
    )!;

    const acked: Acknowledged = { phones: [], orders: [], subAccounts: [], messages: [] };
    let n = 0;
    const next = () => {
      n += 1;
      return n;
    };
    let dead = false;
    // Each write counts only once the service has answered "200" for it.
    const writes = [
      async () => {
        const c = await seedCompany(first);
        acked.phones.push(c.phone);
      },
      async () => {
        const key = `kill9-${Date.now()}-${next()}`;
        const order = await first.api(
          orderCalls.buy,
          { packageId: pkg.id, quantity: 1, idempotencyKey: key },
          company.token,
        );
        if (order.code !== '200') return;
        const paid = await first.api(orderCalls.paySandbox, { orderNo: order.data.orderNo }, company.token);
        if (paid.code === '200') acked.orders.push(order.data.orderNo);
      },
      async () => {
        const opened = await first.api(
          apiAccountCalls.openApiAccount,
          { name: `崩溃测试${next()}`, availableNum: 0 },
          company.token,
        );
        if (opened.code === '200') acked.subAccounts.push(opened.data.account.id);
      },
      async () => {
        const sent = await first.api(
          messagingCalls.sendMsgText,
          { wxid: account.wxid, toWxid: friend, content: `崩溃前的消息 ${next()}` },
          company.token,
        );
        if (sent.code === '200') acked.messages.push(sent.data.msgId);
      },
    ];
    const worker = async (w: number) => {
      for (let i = w; !dead; i++) await writes[i % writes.length]!().catch(() => undefined);
    };
    const load = Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    await new Promise((r) => setTimeout(r, 2500));
    await first.kill();
    dead = true;
    await load;
    expect(acked.messages.length, 'messages acknowledged before the kill').toBeGreaterThan(3);
    expect(acked.phones.length + acked.orders.length + acked.subAccounts.length).toBeGreaterThan(3);

    // The same data, a new process.
    server = await startServer(ENV, { root: first.root });
    const again = server;
    readDb(again, (db) => {
      for (const phone of acked.phones)
        expect(count(db, 'SELECT count(*) AS n FROM users WHERE account = ?', phone), phone).toBe(1);
      for (const no of acked.orders)
        expect(
          count(db, "SELECT count(*) AS n FROM orders WHERE order_no = ? AND state = 'paid'", no),
          no,
        ).toBe(1);
      for (const id of acked.subAccounts)
        expect(count(db, 'SELECT count(*) AS n FROM api_accounts WHERE id = ?', id), id).toBe(1);
      for (const id of acked.messages)
        expect(count(db, 'SELECT count(*) AS n FROM wx_messages WHERE id = ?', id), id).toBe(1);
    });

    // The queue drains after the restart: each acknowledged message ends sent, with one "sent" event.
    // (One the dead process had claimed mid-send is taken back when its lease runs out, minutes later.)
    const sentEvents = () =>
      readDb(again, (db) => {
        const rows = db
          .prepare("SELECT payload FROM callback_events WHERE type = 'message_status'")
          .all() as Array<{ payload: string }>;
        const sent = new Map<string, number>();
        for (const r of rows) {
          const data = (JSON.parse(r.payload) as { data?: { msgId?: string; status?: string } }).data;
          if (data?.status === 'sent' && data.msgId) sent.set(data.msgId, (sent.get(data.msgId) ?? 0) + 1);
        }
        const states = new Map(
          (
            db.prepare("SELECT id, status FROM wx_messages WHERE direction = 'out'").all() as Array<{
              id: string;
              status: string;
            }>
          ).map((m) => [m.id, m.status]),
        );
        return { sent, states };
      });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { states } = sentEvents();
      const waiting = acked.messages.filter((id) => states.get(id) === 'queued');
      if (waiting.length === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const { sent, states } = sentEvents();
    const inFlight = acked.messages.filter((id) => states.get(id) === 'sending');
    expect(
      inFlight.length,
      'claimed by the dead process (taken back when the lease ends)',
    ).toBeLessThanOrEqual(1);
    for (const id of acked.messages) {
      if (states.get(id) === 'sending') continue;
      expect(states.get(id), id).toBe('sent');
      expect(sent.get(id), `"sent" events of ${id}`).toBe(1);
    }
    // Nothing at all was sent twice, acknowledged or not.
    for (const [id, times] of sent) expect(times, id).toBe(1);
  });
});
