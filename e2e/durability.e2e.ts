/**
 * Durability (issue 17), on embedded SQLite and, when TEST_DATABASE_URL is set (CI), on PostgreSQL.
 *
 * - kill -9 under write load: the built service is killed with SIGKILL in the middle of a write
 *   load, restarted on the same data, and every write it had acknowledged is there exactly once:
 *   registrations, paid orders, sub-accounts and messages; the queued messages are then sent, each
 *   exactly once (one "sent" status event per message).
 * - callbacks across an outage and restarts: the customer's receiver answers 503, then is gone
 *   (port closed) while the service is stopped (SIGTERM) and killed (SIGKILL) and started again;
 *   once the receiver is back every event arrives, correctly signed, and none is sent again after
 *   it was answered 2xx.
 *
 * No browser: the service and its database, read directly (better-sqlite3, or a `pg` client on a
 * database created for the test).
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as callbackCalls from '@wxc/contract/calls/callbacks';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as orderCalls from '@wxc/contract/calls/orders';
import * as packageCalls from '@wxc/contract/calls/packages';
import {
  CALLBACK_EVENT_HEADER,
  CALLBACK_SIGNATURE_HEADER,
  CALLBACK_TIMESTAMP_HEADER,
} from '@wxc/contract/constants';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  freshPostgresDatabase,
  loginMessagingAccount,
  openSqliteFile,
  PG_URL,
  payingCompany,
  seedCompany,
  startServer,
  type TestServer,
} from './harness';

const ENV = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  // Paced, so messages wait in the queue when the service dies.
  SEND_INTERVAL_MS: '150',
  // A send the kill cuts short holds the account's slot for this plus 5 s (default 60 s).
  SEND_TIMEOUT_MS: '5000',
  SIM_REPLY_DELAY_MS: '0',
  SIM_CHATTER_SECONDS: '0',
  CALLBACK_ALLOW_PRIVATE: 'true',
};

/** Rows of a query (`?` placeholders) on the service's database, read beside the service. */
type ReadRows = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

interface Store {
  /** What points the service at this database. */
  env: Record<string, string>;
  readRows: ReadRows;
  dispose(): Promise<void>;
}

const DATABASES: Array<{ name: string; available: boolean; open(): Promise<Store> }> = [
  {
    name: 'SQLite',
    available: true,
    async open() {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'wxc-durability-'));
      const file = path.join(dir, 'app.sqlite');
      return {
        env: { DATA_DIR: dir },
        async readRows<T>(sql: string, params: unknown[] = []) {
          const db = openSqliteFile(file, { readonly: true });
          try {
            return db.prepare(sql).all(...params) as T[];
          } finally {
            db.close();
          }
        },
        async dispose() {
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    available: Boolean(PG_URL),
    async open() {
      const database = await freshPostgresDatabase('wxc_durability');
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      return {
        env: { DATABASE_URL: database.url },
        async readRows<T>(sql: string, params: unknown[] = []) {
          let i = 0;
          const res = await client.query(
            sql.replace(/\?/g, () => `$${++i}`),
            params,
          );
          return res.rows as T[];
        },
        async dispose() {
          await client.end().catch(() => undefined);
          await database.drop();
        },
      };
    },
  },
];

// Undone after each test, last first: servers, receivers, databases.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds; on a timeout, the error tells what was last seen (`seen`). */
async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
  seen?: () => unknown,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting: ${what}${seen ? `\n${JSON.stringify(seen(), null, 1)}` : ''}`);
    await sleep(everyMs);
  }
}

interface Acknowledged {
  phones: string[];
  orders: string[];
  subAccounts: string[];
  messages: string[];
}

/** One callback request as the receiver saw it, and what it answered. */
interface Received {
  eventId: string;
  timestamp: string;
  signature: string;
  body: string;
  answered: number;
}

/** The customer's callback endpoint: answers 200, or 503 while `unavailable`; can close its port. */
async function startReceiver() {
  const got: Received[] = [];
  const state = { unavailable: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = state.unavailable ? 503 : 200;
      got.push({
        eventId: String(req.headers[CALLBACK_EVENT_HEADER]),
        timestamp: String(req.headers[CALLBACK_TIMESTAMP_HEADER]),
        signature: String(req.headers[CALLBACK_SIGNATURE_HEADER]),
        body: Buffer.concat(chunks).toString('utf8'),
        answered,
      });
      res.writeHead(answered).end();
    });
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen();
  cleanups.push(close);
  return {
    got,
    state,
    url: `http://127.0.0.1:${port}/cb`,
    /** Stops listening: connections are refused until `reopen`. */
    close,
    /** Listens again on the same port. */
    reopen: listen,
  };
}

async function start(env: Record<string, string>, root?: string): Promise<TestServer> {
  const server = await startServer(env, root ? { root } : {});
  cleanups.push(() => server.stop());
  return server;
}

describe.each(DATABASES.map((d) => [d.name, d] as const))('durability on %s', (_name, db) => {
  const { available, open } = db;
  it.skipIf(!available)(
    'kill -9 under write load keeps every acknowledged write exactly once, and sends each queued message once after the restart',
    { timeout: 150_000 },
    async () => {
      const store = await open();
      cleanups.push(() => store.dispose());
      const count = async (sql: string, value: string) =>
        Number((await store.readRows<{ n: number | string }>(sql, [value]))[0]!.n);
      const sink = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200).end('ok'));
      });
      await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
      cleanups.push(() => new Promise((r) => sink.close(r)));
      const callbackUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/cb`;
      const env = { ...ENV, ...store.env };

      const first = await start(env);
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
      await sleep(2500);
      await first.kill();
      dead = true;
      await load;
      expect(acked.messages.length, 'messages acknowledged before the kill').toBeGreaterThan(3);
      expect(acked.phones.length + acked.orders.length + acked.subAccounts.length).toBeGreaterThan(3);

      // The same data, a new process.
      const second = await start(env, first.root);
      for (const phone of acked.phones)
        expect(await count('SELECT count(*) AS n FROM users WHERE account = ?', phone), phone).toBe(1);
      for (const no of acked.orders)
        expect(
          await count("SELECT count(*) AS n FROM orders WHERE order_no = ? AND state = 'paid'", no),
          no,
        ).toBe(1);
      for (const id of acked.subAccounts)
        expect(await count('SELECT count(*) AS n FROM api_accounts WHERE id = ?', id), id).toBe(1);
      for (const id of acked.messages)
        expect(await count('SELECT count(*) AS n FROM wx_messages WHERE id = ?', id), id).toBe(1);

      // The queue drains after the restart: each acknowledged message ends sent, with one "sent" event.
      // (One the dead process had claimed mid-send is taken back when its lease runs out, minutes later.)
      // States first, events after: a send settled between the two reads then shows as "sending"
      // with its event, never as "sent" without it (a message's settle and its event are one write).
      const sentEvents = async () => {
        const states = new Map(
          (
            await store.readRows<{ id: string; status: string }>(
              "SELECT id, status FROM wx_messages WHERE direction = 'out'",
            )
          ).map((m) => [m.id, m.status]),
        );
        const rows = await store.readRows<{ payload: string }>(
          "SELECT payload FROM callback_events WHERE type = 'message_status'",
        );
        const sent = new Map<string, number>();
        for (const r of rows) {
          const data = (JSON.parse(r.payload) as { data?: { msgId?: string; status?: string } }).data;
          if (data?.status === 'sent' && data.msgId) sent.set(data.msgId, (sent.get(data.msgId) ?? 0) + 1);
        }
        return { sent, states };
      };
      // A kill in the middle of a send leaves the account's send slot held by the dead process until
      // the hold runs out (the send timeout plus a margin, 10 s here): the queue waits for it.
      const [slot] = await store.readRows<{ next_send_at: number | string }>(
        'SELECT next_send_at FROM wx_accounts WHERE wxid = ?',
        [account.wxid],
      );
      const deadline = Math.max(Date.now(), Number(slot?.next_send_at ?? 0)) + 30_000;
      // Until nothing waits and at most one is in flight (the dead process's claim, or the last send).
      const inFlightOf = (states: Map<string, string>) =>
        acked.messages.filter((id) => states.get(id) === 'sending');
      for (;;) {
        const { states } = await sentEvents();
        const waiting = acked.messages.filter((id) => states.get(id) === 'queued');
        if ((waiting.length === 0 && inFlightOf(states).length <= 1) || Date.now() > deadline) break;
        await sleep(200);
      }
      const { sent, states } = await sentEvents();
      // What the services said of their sends, for a failure's message.
      const said = () =>
        [...first.log, ...second.log].filter((l) => /"level":(40|50|60)/.test(l)).join('\n') || '(nothing)';
      expect(
        inFlightOf(states).length,
        `claimed by the dead process (taken back when the lease ends); warnings:\n${said()}`,
      ).toBeLessThanOrEqual(1);
      for (const id of acked.messages) {
        if (states.get(id) === 'sending') continue;
        expect(states.get(id), `${id}; warnings:\n${said()}`).toBe('sent');
        // None: the send was settled but its callback event never stored (killed in between).
        expect(sent.get(id), `"sent" events of ${id}, a sent message; warnings:\n${said()}`).toBe(1);
      }
      // Nothing at all was sent twice, acknowledged or not.
      for (const [id, times] of sent) expect(times, id).toBe(1);
    },
  );

  it.skipIf(!available)(
    'delivers every callback, signed, across a receiver outage, a SIGTERM restart and a SIGKILL restart',
    { timeout: 120_000 },
    async () => {
      const MESSAGES = 20;
      const RETRY_MS = 1000;
      const store = await open();
      cleanups.push(() => store.dispose());
      const env = {
        ...ENV,
        ...store.env,
        SEND_INTERVAL_MS: '10',
        // Every second, 30 times: far more than the outage lasts, and never "failed" meanwhile.
        CALLBACK_RETRY_DELAYS_MS: Array(30).fill(RETRY_MS).join(','),
      };
      const receiver = await startReceiver();

      let server = await start(env);
      const root = server.root;
      const company = await payingCompany(server);
      const sub = (await server.api(apiAccountCalls.queryApiAccount, {}, company.token)).data.list[0]!;
      const reset = await server.api(apiAccountCalls.resetApiSecret, { id: sub.id }, company.token);
      expect(reset.code, reset.message).toBe('200');
      const signingKey = createHash('sha256').update(reset.data.appSecret).digest('hex');
      const hooked = await server.api(
        callbackCalls.resetCallbackUrl,
        { callbackUrl: receiver.url, subAccountId: sub.id },
        company.token,
      );
      expect(hooked.code, hooked.message).toBe('200');
      receiver.got.length = 0; // the URL check's own test delivery

      // The receiver is down (503) from here on; each message sent yields events.
      receiver.state.unavailable = true;
      const account = await loginMessagingAccount(server, company);
      const friend = (await server.api(messagingCalls.getAddressList, { wxid: account.wxid }, company.token))
        .data.list[0]!.wxid;
      const sent = await Promise.all(
        Array.from({ length: MESSAGES }, (_, i) =>
          server.api(
            messagingCalls.sendMsgText,
            { wxid: account.wxid, toWxid: friend, content: `回调中断 ${i}` },
            company.token,
          ),
        ),
      );
      expect(sent.map((r) => r.code)).toEqual(Array(MESSAGES).fill('200'));
      const msgIds = sent.map((r) => r.data.msgId);

      interface EventRow {
        id: string;
        type: string;
        payload: string;
        status: string;
        attempts: number;
        next_attempt_at: number | null;
        locked_until: number;
        last_status_code: number | null;
      }
      let lastRows: EventRow[] = [];
      const events = async () => {
        lastRows = (
          await store.readRows<EventRow>(
            'SELECT id, type, payload, status, attempts, next_attempt_at, locked_until, last_status_code FROM callback_events WHERE api_account_id = ?',
            [sub.id],
          )
        ).map((e) => ({
          ...e,
          attempts: Number(e.attempts),
          next_attempt_at: e.next_attempt_at === null ? null : Number(e.next_attempt_at),
          locked_until: Number(e.locked_until),
          last_status_code: e.last_status_code === null ? null : Number(e.last_status_code),
        }));
        return lastRows;
      };
      /** What the events looked like when a wait timed out. */
      const lastSeen = () => {
        const now = Date.now();
        return lastRows.map((e) => ({
          id: e.id,
          type: e.type,
          status: e.status,
          attempts: `${before.get(e.id) ?? 0} -> ${e.attempts}`,
          last: e.last_status_code,
          dueIn: e.next_attempt_at === null ? null : e.next_attempt_at - now,
          lockedFor: e.locked_until - now,
        }));
      };
      const sentEventOf = (rows: EventRow[]) => {
        const byMsg = new Map<string, string>();
        for (const e of rows) {
          const data = (JSON.parse(e.payload) as { data?: { msgId?: string; status?: string } }).data;
          if (e.type === 'message_status' && data?.status === 'sent' && data.msgId)
            byMsg.set(data.msgId, e.id);
        }
        return byMsg;
      };
      /** Attempts per event, to wait for one more attempt of each. */
      const attemptsOf = (rows: EventRow[]) => new Map(rows.map((e) => [e.id, e.attempts]));
      let before = new Map<string, number>();
      const eachAttemptedAgain = (rows: EventRow[], lastStatus: number | null) =>
        rows.every(
          (e) =>
            e.status === 'pending' &&
            e.attempts > (before.get(e.id) ?? 0) &&
            e.last_status_code === lastStatus,
        );

      // Every message sent, the events settle (no new ones for a moment), each refused with 503.
      let seen = -1;
      let stableSince = Date.now();
      await waitFor(
        'every message sent, and each event answered 503',
        async () => {
          const rows = await events();
          if (rows.length !== seen) {
            seen = rows.length;
            stableSince = Date.now();
          }
          const byMsg = sentEventOf(rows);
          return (
            msgIds.every((id) => byMsg.has(id)) &&
            Date.now() - stableSince > 300 &&
            eachAttemptedAgain(rows, 503)
          );
        },
        20_000,
        50,
        lastSeen,
      );
      const expected = await events();
      expect(expected.length).toBeGreaterThanOrEqual(MESSAGES);

      // Stopped as an orchestrator would, and started again while the receiver still answers 503.
      before = attemptsOf(expected);
      expect(await server.terminate(), 'exit code after SIGTERM').toBe(0);
      server = await start(env, root);
      await waitFor(
        'each event tried again (503) by the restarted service',
        async () => eachAttemptedAgain(await events(), 503),
        10_000,
        50,
        lastSeen,
      );

      // The receiver is gone entirely (connection refused). Once each event has been refused and none
      // is being attempted or due within 150 ms, the service is killed (a kill in the middle of an
      // attempt would leave that event to its claim's one-minute lease) and started again. The kill
      // follows the check within milliseconds; the window recurs each retry round (1 s), but on a
      // loaded machine a round's attempts spread out, so it is waited for over many rounds.
      await receiver.close();
      before = attemptsOf(await events());
      await waitFor(
        'each event refused, none claimed or about to be',
        async () => {
          const now = Date.now();
          const rows = await events();
          return (
            eachAttemptedAgain(rows, null) &&
            rows.every((e) => e.locked_until <= now && (e.next_attempt_at ?? 0) > now + 150)
          );
        },
        25_000,
        20,
        lastSeen,
      );
      await server.kill();
      const refusedBeforeKill = attemptsOf(await events());
      server = await start(env, root);
      before = refusedBeforeKill;
      await waitFor(
        'each event refused again by the service started after the kill',
        async () => eachAttemptedAgain(await events(), null),
        10_000,
        50,
        lastSeen,
      );

      // The receiver is back: everything arrives.
      receiver.state.unavailable = false;
      await receiver.reopen();
      await waitFor(
        'every event delivered',
        async () => {
          const ok = new Set(receiver.got.filter((g) => g.answered === 200).map((g) => g.eventId));
          return (await events()).every((e) => e.status === 'delivered' && ok.has(e.id));
        },
        15_000,
        50,
        lastSeen,
      );
      // Longer than a retry delay: a delivered event sent again would show up meanwhile.
      await sleep(RETRY_MS + 500);

      const final = await events();
      expect(final.map((e) => e.id).sort(), 'no event lost or made up across the restarts').toEqual(
        expected.map((e) => e.id).sort(),
      );
      const byMsg = sentEventOf(final);
      for (const id of msgIds) expect(byMsg.has(id), `"sent" event of ${id}`).toBe(true);
      const known = new Set(final.map((e) => e.id));
      for (const g of receiver.got) {
        expect(known.has(g.eventId), `unknown event ${g.eventId}`).toBe(true);
        expect(g.signature, `signature of ${g.eventId}`).toBe(
          createHmac('sha256', signingKey).update(`${g.timestamp}.${g.body}`).digest('hex'),
        );
        expect((JSON.parse(g.body) as { eventId: string }).eventId).toBe(g.eventId);
      }
      for (const e of final) {
        const deliveries = receiver.got.filter((g) => g.eventId === e.id);
        expect(
          deliveries.filter((g) => g.answered === 503).length,
          `503 answers to ${e.id} (before and after SIGTERM)`,
        ).toBeGreaterThanOrEqual(2);
        // Exactly one 2xx, and it was the last request for this event.
        expect(deliveries.filter((g) => g.answered === 200).length, `2xx deliveries of ${e.id}`).toBe(1);
        expect(deliveries.at(-1)!.answered, `nothing sent after ${e.id} was answered 2xx`).toBe(200);
      }
    },
  );
});
