import { apiAccountCalls, CALLBACK_EVENT_HEADER, callbackCalls, DAY_MS } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/index.js';
import { sweep } from '../src/housekeeping.js';
import { createDirectoryCache, localDirectoryChanges } from '../src/modules/api-accounts/cache.js';
import { subAccountDirectory } from '../src/modules/api-accounts/service.js';
import { createCallbackService } from '../src/modules/callbacks/service.js';
import { createLocalBus } from '../src/modules/events/bus.js';
import {
  company,
  eventRow,
  FAST,
  PRIVATE_OK,
  type Receiver,
  receiver,
  type Sub,
  verifySigned,
  waitFor,
} from './callback-helpers.js';
import { setUpCatalogue } from './commerce-helpers.js';
import {
  createTestApp,
  dialects,
  freePort,
  quietTableCounts,
  registerCompany,
  sharedDatabase,
  type TestApp,
  tableCounts,
} from './helpers.js';

const callbackUrlOf = async (t: TestApp, id: string) =>
  (
    await t.database.db
      .selectFrom('api_accounts')
      .select('callback_url')
      .where('id', '=', id)
      .executeTakeFirst()
  )?.callback_url;

describe.each(dialects)('callbacks (%s)', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  let x: Awaited<ReturnType<typeof company>>;
  const receivers: Receiver[] = [];
  const recv = async (port?: number) => {
    const r = await receiver(port);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, PRIVATE_OK, { app: FAST });
    cat = await setUpCatalogue(t);
    x = await company(t, cat.basic.id);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  const emit = (sub: Sub, data: Record<string, unknown> = { text: '你好' }, wxid = 'wxid_alice') =>
    t.app.services.callbacks.emit({
      companyId: x.companyId,
      subAccountId: sub.id,
      wxid,
      type: 'message',
      data,
    });

  describe('resetCallbackUrl', () => {
    it('refuses loopback and private URLs unless the operator allows them: 400, nothing saved or sent', async () => {
      const strict = await createTestApp(dialect);
      try {
        const strictCat = await setUpCatalogue(strict);
        const c = await company(strict, strictCat.basic.id);
        const sub = await c.sub();
        const r = await recv();
        for (const url of [r.url, 'http://10.1.2.3/cb', 'http://localhost:8080/cb', 'ftp://example.com/x']) {
          const before = await tableCounts(strict.database);
          const res = await strict.call(callbackCalls.resetCallbackUrl, { callbackUrl: url }, sub.creds);
          expect(res.status, url).toBe(400);
          expect(res.code).toBe('400');
          expect(await tableCounts(strict.database)).toEqual(before);
        }
        expect(r.got).toHaveLength(0);
        expect(await callbackUrlOf(strict, sub.id)).toBeNull();
      } finally {
        await strict.close();
      }
    });

    it('saves the URL after a signed test event answered 2xx', async () => {
      const sub = await x.sub();
      const r = await recv();
      const res = await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: r.url }, sub.creds);
      expect(res).toMatchObject({ status: 200, code: '200' });
      expect(res.data.callbackUrl).toBe(r.url);
      expect(res.data.test.statusCode).toBe(200);
      expect(res.data.test.durationMs).toBeGreaterThanOrEqual(0);
      expect(r.got).toHaveLength(1);
      const body = verifySigned(r.got[0]!, sub.appSecret);
      expect(body).toMatchObject({ type: 'test', account: '', subAccountId: sub.id });
      expect(await callbackUrlOf(t, sub.id)).toBe(r.url);

      // The console names the sub-account; it must be one of the company's.
      const r2 = await recv();
      expect(
        await t.call(
          callbackCalls.resetCallbackUrl,
          { callbackUrl: r2.url, subAccountId: sub.id },
          { token: x.token },
        ),
      ).toMatchObject({ code: '200' });
      expect(await callbackUrlOf(t, sub.id)).toBe(r2.url);
      expect(r2.got).toHaveLength(1);
    });

    it('console calls need subAccountId; other sub-accounts are not found', async () => {
      const a = await x.sub();
      const b = await x.sub();
      const r = await recv();
      const noSub = await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: r.url }, { token: x.token });
      expect(noSub).toMatchObject({ status: 400, code: '400' });
      expect(noSub.message).toContain('subAccountId');
      expect(
        await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: r.url, subAccountId: b.id }, a.creds),
      ).toMatchObject({ status: 404, code: '404' });
      const y = await company(t, cat.basic.id);
      expect(
        await t.call(
          callbackCalls.resetCallbackUrl,
          { callbackUrl: r.url, subAccountId: a.id },
          { token: y.token },
        ),
      ).toMatchObject({ status: 404, code: '404' });
      expect(r.got).toHaveLength(0);
      expect(await callbackUrlOf(t, b.id)).toBeNull();
    });

    it('refuses URLs whose test fails (500, redirect, not listening, timeout) and keeps the old one', async () => {
      const good = await recv();
      const sub = await x.sub(good.url);
      const bad = await recv();
      const expectRefused = async (url: string, fragment: string) => {
        const res = await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: url }, sub.creds);
        expect(res).toMatchObject({ status: 400, code: '400' });
        expect(res.message).toContain('回调地址测试失败');
        expect(res.message).toContain(fragment);
        expect(await callbackUrlOf(t, sub.id)).toBe(good.url);
      };
      bad.setMode(500);
      await expectRefused(bad.url, 'HTTP 500');
      bad.setMode({ redirect: good.url });
      await expectRefused(bad.url, 'HTTP 302');
      expect(good.got).toHaveLength(0); // the redirect was not followed
      await expectRefused(`http://127.0.0.1:${await freePort()}/cb`, '连接被拒绝');
      bad.setMode('hang');
      await expectRefused(bad.url, '超时');
      expect(bad.got.length).toBe(3);
    });
  });

  describe('delivery', () => {
    it('sendTest queues a signed test event that arrives with the contract envelope', async () => {
      const r = await recv();
      const sub = await x.sub(r.url);
      const res = await t.call(callbackCalls.sendTestEvent, {}, sub.creds);
      expect(res.code).toBe('200');
      expect(res.data).toMatchObject({ type: 'test', subAccountId: sub.id, url: r.url, account: '' });
      await waitFor('test delivery', () => r.got.length === 1);
      const body = verifySigned(r.got[0]!, sub.appSecret);
      expect(body.eventId).toBe(res.data.eventId);
      expect(Object.keys(body).sort()).toEqual([
        'account',
        'data',
        'eventId',
        'subAccountId',
        'timestamp',
        'type',
      ]);
      const row = await waitFor(
        'delivered',
        async () => (await eventRow(t, body.eventId))?.status === 'delivered',
      );
      expect(row).toBe(true);
      const stored = await eventRow(t, body.eventId);
      expect(stored?.payload).toBe(r.got[0]!.body); // signed over the exact stored bytes
      const list = await t.call(callbackCalls.listDeliveries, { status: 'delivered' }, sub.creds);
      expect(list.data.list).toEqual([
        expect.objectContaining({
          eventId: body.eventId,
          status: 'delivered',
          attempts: 1,
          lastStatusCode: 200,
        }),
      ]);
    });

    it('sendTest without any callback URL is refused; console calls name the sub-account', async () => {
      const sub = await x.sub();
      expect(await t.call(callbackCalls.sendTestEvent, {}, sub.creds)).toMatchObject({ status: 400 });
      expect(await t.call(callbackCalls.sendTestEvent, {}, { token: x.token })).toMatchObject({
        status: 400,
      });
      const r = await recv();
      const withUrl = await x.sub(r.url);
      const res = await t.call(callbackCalls.sendTestEvent, { subAccountId: withUrl.id }, { token: x.token });
      expect(res.code).toBe('200');
      await waitFor('test delivery', () => r.got.length === 1);
    });

    it('uses the company default URL when the sub-account has none; stores nothing without either', async () => {
      const sub = await x.sub();
      // Quiet first: the test before may still be writing its delivery's attempt.
      const before = await quietTableCounts(t.database);
      expect(await emit(sub)).toBeNull();
      expect(await tableCounts(t.database)).toEqual(before);
      const r = await recv();
      await t.call(
        apiAccountCalls.configCompanyInfo,
        { defaultCallbackUrl: r.url, ipAllowlist: [] },
        { token: x.token },
      );
      try {
        const id = await emit(sub, { text: 'via default' });
        expect(id).toBeTruthy();
        await waitFor('delivery to the default URL', () => r.got.length === 1);
        expect(JSON.parse(r.got[0]!.body)).toMatchObject({
          eventId: id,
          type: 'message',
          account: 'wxid_alice',
          data: { text: 'via default' },
        });
      } finally {
        await t.call(
          apiAccountCalls.configCompanyInfo,
          { defaultCallbackUrl: null, ipAllowlist: [] },
          { token: x.token },
        );
      }
    });

    it('receiver down, then up: delivered after a retry; the attempts show the failure then the success', async () => {
      const port = await freePort();
      const sub = await x.sub(`http://127.0.0.1:${port}/cb`);
      const id = (await emit(sub))!;
      await waitFor('first failed attempt', async () => (await eventRow(t, id))!.attempts >= 1);
      const first = (await eventRow(t, id))!;
      expect(first).toMatchObject({ status: 'pending', last_status_code: null });
      expect(first.last_error).toContain('连接被拒绝');
      const r = await recv(port);
      await waitFor('delivered', async () => (await eventRow(t, id))!.status === 'delivered');
      expect(r.got).toHaveLength(1);
      verifySigned(r.got[0]!, sub.appSecret);
      const res = await t.call(callbackCalls.deliveryAttempts, { eventId: id }, sub.creds);
      expect(res.code).toBe('200');
      expect(res.data.event).toMatchObject({ eventId: id, status: 'delivered', nextAttemptAt: null });
      expect(res.data.payload).toBe(r.got[0]!.body);
      // Normally one failure then the success; a slow machine may see the receiver up one retry later.
      const attempts = res.data.attempts as {
        attempt: number;
        statusCode: number | null;
        error: string | null;
        at: number;
      }[];
      expect(attempts.length).toBe(res.data.event.attempts);
      expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
      for (const failure of attempts.slice(0, -1)) {
        expect(failure).toMatchObject({ statusCode: null, error: expect.stringContaining('连接被拒绝') });
      }
      expect(attempts.at(-1)).toMatchObject({ statusCode: 200, error: null });
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(190); // the first retry waited
    });

    it('gives up after the last retry (failed), then replay delivers the same event to the current URL', async () => {
      const r = await recv();
      r.setMode(500);
      const sub = await x.sub(r.url);
      const id = (await emit(sub, { text: 'retry me' }))!;
      await waitFor('failed', async () => (await eventRow(t, id))!.status === 'failed');
      const failed = (await eventRow(t, id))!;
      expect(failed).toMatchObject({ attempts: 3, last_status_code: 500, next_attempt_at: null });
      expect(r.got).toHaveLength(3);
      expect(new Set(r.got.map((g) => g.body)).size).toBe(1);
      expect(new Set(r.got.map((g) => g.headers[CALLBACK_EVENT_HEADER])).size).toBe(1);
      const listed = await t.call(callbackCalls.listDeliveries, { status: 'failed' }, sub.creds);
      expect(listed.data.list.map((d: { eventId: string }) => d.eventId)).toEqual([id]);

      // The customer fixes their endpoint, on a new address, and replays.
      const fixed = await recv();
      expect(
        await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: fixed.url }, sub.creds),
      ).toMatchObject({
        code: '200',
      });
      const replay = await t.call(callbackCalls.replayDelivery, { eventId: id }, sub.creds);
      expect(replay.data).toMatchObject({ eventId: id, status: 'pending', url: fixed.url, attempts: 3 });
      await waitFor('replayed', async () => (await eventRow(t, id))!.status === 'delivered');
      const again = fixed.got.filter((g) => g.headers[CALLBACK_EVENT_HEADER] === id);
      expect(again).toHaveLength(1);
      expect(again[0]!.body).toBe(r.got[0]!.body);
      verifySigned(again[0]!, sub.appSecret);
      expect((await eventRow(t, id))!.attempts).toBe(4);

      // A delivered event can be replayed too.
      await t.call(callbackCalls.replayDelivery, { eventId: id }, { token: x.token });
      await waitFor(
        'replayed twice',
        () => fixed.got.filter((g) => g.headers[CALLBACK_EVENT_HEADER] === id).length === 2,
      );
      await waitFor('delivered again', async () => (await eventRow(t, id))!.status === 'delivered');
    });

    it('a replayed failed event gets a fresh retry schedule', async () => {
      const r = await recv();
      r.setMode(503);
      const sub = await x.sub(r.url);
      const id = (await emit(sub))!;
      await waitFor('failed', async () => (await eventRow(t, id))!.status === 'failed');
      await t.call(callbackCalls.replayDelivery, { eventId: id }, sub.creds);
      await waitFor('second failure after the replay', async () => (await eventRow(t, id))!.attempts >= 4);
      await waitFor('failed again', async () => (await eventRow(t, id))!.status === 'failed');
      // Retried on the whole schedule again (3 attempts), not given up after the replay's one. (Not
      // read as `pending` between them: a pause of the retry delays' length would skip past that.)
      expect((await eventRow(t, id))!.attempts).toBe(6);
    });

    it('duplicateCallback delivers the same eventId once more and leaves the status alone', async () => {
      const r = await recv();
      const sub = await x.sub(r.url);
      const id = (await emit(sub))!;
      await waitFor('delivered', async () => (await eventRow(t, id))!.status === 'delivered');
      const res = await t.call(callbackCalls.duplicateCallback, { eventId: id }, sub.creds);
      expect(res).toMatchObject({ code: '200', data: { ok: true } });
      await waitFor('second delivery', () => r.got.length === 2);
      expect(r.got[0]!.body).toBe(r.got[1]!.body);
      expect(r.got.map((g) => g.headers[CALLBACK_EVENT_HEADER])).toEqual([id, id]);
      verifySigned(r.got[1]!, sub.appSecret);
      await waitFor('attempt logged', async () => (await eventRow(t, id))!.attempts === 2);
      expect((await eventRow(t, id))!.status).toBe('delivered');
    });

    it('publishes live events as a delivery changes state', async () => {
      const r = await recv();
      const sub = await x.sub(r.url);
      const seen: string[] = [];
      const off = t.app.services.bus.subscribe(x.companyId, (e) => {
        if (e.kind === 'callback') seen.push(e.status);
      });
      try {
        await emit(sub);
        await waitFor('delivered event', () => seen.includes('delivered'));
        expect(seen[0]).toBe('pending');
      } finally {
        off();
      }
    });
  });

  describe('scoping', () => {
    it("a sub-account sees only its own events; another company's are not found", async () => {
      const r = await recv();
      const a = await x.sub(r.url);
      const b = await x.sub(r.url);
      const idA = (await emit(a, {}, 'wxid_a'))!;
      const idB = (await emit(b, {}, 'wxid_b'))!;
      await waitFor('both delivered', async () => {
        const rows = await Promise.all([eventRow(t, idA), eventRow(t, idB)]);
        return rows.every((row) => row?.status === 'delivered');
      });

      const listA = await t.call(callbackCalls.listDeliveries, { pageSize: 100 }, a.creds);
      const idsA = listA.data.list.map((d: { eventId: string }) => d.eventId);
      expect(idsA).toContain(idA);
      expect(idsA).not.toContain(idB);
      expect(listA.data.list.every((d: { subAccountId: string }) => d.subAccountId === a.id)).toBe(true);
      // Asking for B's events with A's credentials finds nothing.
      const asB = await t.call(callbackCalls.listDeliveries, { subAccountId: b.id }, a.creds);
      expect(asB.data).toMatchObject({ list: [], total: 0 });

      for (const [def, input] of [
        [callbackCalls.deliveryAttempts, { eventId: idB }],
        [callbackCalls.replayDelivery, { eventId: idB }],
        [callbackCalls.duplicateCallback, { eventId: idB }],
      ] as const) {
        const res = await t.call(def, input, a.creds);
        expect(res, def.id).toMatchObject({ status: 404, code: '404', message: '事件不存在' });
      }
      expect(await t.call(callbackCalls.sendTestEvent, { subAccountId: b.id }, a.creds)).toMatchObject({
        status: 404,
      });

      // The console sees the whole company, and can filter.
      const all = await t.call(callbackCalls.listDeliveries, { pageSize: 100 }, { token: x.token });
      const idsAll = all.data.list.map((d: { eventId: string }) => d.eventId);
      expect(idsAll).toEqual(expect.arrayContaining([idA, idB]));
      const onlyB = await t.call(
        callbackCalls.listDeliveries,
        { subAccountId: b.id, wxid: 'wxid_b' },
        { token: x.token },
      );
      expect(onlyB.data.list.map((d: { eventId: string }) => d.eventId)).toEqual([idB]);
      expect((await t.call(callbackCalls.deliveryAttempts, { eventId: idB }, { token: x.token })).code).toBe(
        '200',
      );

      // Another company: not found, and not listed.
      const y = await registerCompany(t);
      expect(
        await t.call(callbackCalls.deliveryAttempts, { eventId: idA }, { token: y.token }),
      ).toMatchObject({
        status: 404,
        message: '事件不存在',
      });
      expect(await t.call(callbackCalls.replayDelivery, { eventId: idA }, { token: y.token })).toMatchObject({
        status: 404,
      });
      expect((await t.call(callbackCalls.listDeliveries, {}, { token: y.token })).data.total).toBe(0);
      expect(r.got.filter((g) => g.headers[CALLBACK_EVENT_HEADER] === idA)).toHaveLength(1);
    });

    it('paginates newest first', async () => {
      const r = await recv();
      const sub = await x.sub(r.url);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await emit(sub, { i }))!);
        await new Promise((res) => setTimeout(res, 2)); // distinct created_at
      }
      const page2 = await t.call(callbackCalls.listDeliveries, { page: 2, pageSize: 2 }, sub.creds);
      expect(page2.data).toMatchObject({ total: 5, page: 2, pageSize: 2 });
      expect(page2.data.list.map((d: { eventId: string }) => d.eventId)).toEqual([ids[2], ids[1]]);
    });
  });

  describe('SSRF at connect time', () => {
    it('a host that answers a public address when checked and 127.0.0.1 when connecting is never reached (DNS rebinding)', async () => {
      const strict = await createTestApp(dialect, {}, { app: { callbackWorker: false } });
      const r = await recv();
      const asked: string[] = [];
      // A rebinding name with TTL 0: public for the first lookup (the check), loopback ever after.
      // Only this resolver knows the name; nothing here ever connects outside 127.0.0.0/8.
      const rebinding = async (host: string) => {
        asked.push(host);
        return asked.length === 1 ? ['203.0.113.10'] : ['127.0.0.1'];
      };
      const worker = createCallbackService({
        db: strict.database.db,
        writes: strict.database.writes,
        subAccounts: subAccountDirectory(strict.database.db, createDirectoryCache(localDirectoryChanges())),
        log: strict.app.log,
        bus: createLocalBus(),
        allowPrivate: false,
        resolve: rebinding,
        retryDelaysMs: [60_000],
        timeoutMs: 800,
      });
      try {
        const c = await company(strict, (await setUpCatalogue(strict)).basic.id);
        const sub = await c.sub();
        await strict.database.db
          .updateTable('api_accounts')
          .set({ callback_url: `http://rebind.test:${new URL(r.url).port}/cb` })
          .where('id', '=', sub.id)
          .execute();
        const id = (await worker.emit({
          companyId: c.companyId,
          subAccountId: sub.id,
          wxid: 'wxid_r',
          type: 'message',
          data: { text: 'x' },
        }))!;
        worker.start();
        const row = await waitFor('the first attempt', async () => {
          const e = await eventRow(strict, id);
          return e && e.attempts >= 1 ? e : null;
        });
        expect(asked).toEqual(['rebind.test', 'rebind.test']); // checked, then resolved again to connect
        expect(row.last_status_code).toBeNull();
        expect(row.last_error).toMatch(/本机、内网或链路本地地址/);
        expect(row.last_error).toContain('127.0.0.1');
        expect(r.got).toHaveLength(0);
      } finally {
        await worker.stop();
        await strict.close();
      }
    });
  });

  describe('durability', () => {
    it('housekeeping deletes settled events older than 30 days with their attempts; keeps pending ones', async () => {
      const sub = await x.sub();
      const db = t.database.db;
      const now = Date.now();
      const day = DAY_MS;
      const row = (id: string, status: 'pending' | 'delivered' | 'failed', age: number) => ({
        id,
        company_id: x.companyId,
        api_account_id: sub.id,
        wxid: 'wxid_hk',
        type: 'message',
        payload: '{}',
        url: 'http://127.0.0.1:9/cb',
        status,
        attempts: 1,
        next_attempt_at: status === 'pending' ? now + 365 * day : null,
        locked_until: 0,
        last_status_code: null,
        last_error: null,
        created_at: now - age,
        delivered_at: null,
      });
      await db
        .insertInto('callback_events')
        .values([
          row('hk-old-delivered', 'delivered', 31 * day),
          row('hk-old-failed', 'failed', 31 * day),
          row('hk-old-pending', 'pending', 31 * day),
          row('hk-recent', 'delivered', 29 * day),
        ])
        .execute();
      await db
        .insertInto('callback_attempts')
        .values(
          ['hk-old-delivered', 'hk-recent'].map((id) => ({
            id: `${id}-1`,
            event_id: id,
            attempt: 1,
            status_code: 200,
            error: null,
            duration_ms: 3,
            created_at: now - day,
          })),
        )
        .execute();
      await sweep(db, now);
      const left = await db.selectFrom('callback_events').select('id').where('id', 'like', 'hk-%').execute();
      expect(left.map((r) => r.id).sort()).toEqual(['hk-old-pending', 'hk-recent']);
      const attempts = await db
        .selectFrom('callback_attempts')
        .select('id')
        .where('id', 'like', 'hk-%')
        .execute();
      expect(attempts.map((r) => r.id)).toEqual(['hk-recent-1']);
    });

    it('a server restarted mid-backoff still delivers (and takes over a dead process’s claim)', async () => {
      const shared = await sharedDatabase(dialect);
      const port = await freePort();
      let ids: string[] = [];
      let secret = '';
      const first = await createTestApp(dialect, PRIVATE_OK, {
        ...shared.options,
        app: { callbackRetryDelaysMs: [1_000], callbackTimeoutMs: 800 },
      });
      try {
        const c = await company(first, (await setUpCatalogue(first)).basic.id);
        const sub = await c.sub(`http://127.0.0.1:${port}/cb`);
        secret = sub.appSecret;
        const emitOne = () =>
          first.app.services.callbacks.emit({
            companyId: c.companyId,
            subAccountId: sub.id,
            wxid: 'wxid_r',
            type: 'login',
            data: { online: true },
          });
        ids = [(await emitOne())!, (await emitOne())!];
        await waitFor('first attempts failed', async () => {
          const rows = await Promise.all(ids.map((id) => eventRow(first, id)));
          return rows.every((row) => row?.attempts === 1 && row.status === 'pending');
        });
      } finally {
        await first.close();
      }
      // The second event looks claimed by a process that died mid-attempt.
      const reopened = await openDatabase(
        dialect === 'postgres'
          ? { databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: shared.options.pgSchema! }
          : { sqliteFile: shared.options.sqliteFile! },
      );
      await reopened.db
        .updateTable('callback_events')
        .set({ locked_until: Date.now() + 1_500 })
        .where('id', '=', ids[1]!)
        .execute();
      await reopened.close();

      const r = await recv(port);
      const second = await createTestApp(dialect, PRIVATE_OK, {
        ...shared.options,
        app: { callbackRetryDelaysMs: [1_000], callbackTimeoutMs: 800 },
      });
      try {
        await waitFor(
          'delivered after the restart',
          async () => {
            const rows = await Promise.all(ids.map((id) => eventRow(second, id)));
            return rows.every((row) => row?.status === 'delivered');
          },
          8_000,
        );
        expect(r.got.map((g) => g.headers[CALLBACK_EVENT_HEADER]).sort()).toEqual([...ids].sort());
        for (const g of r.got) verifySigned(g, secret);
        for (const id of ids) {
          const attempts = await second.database.db
            .selectFrom('callback_attempts')
            .select(['attempt', 'status_code'])
            .where('event_id', '=', id)
            .orderBy('attempt')
            .execute();
          expect(attempts).toEqual([
            { attempt: 1, status_code: null },
            { attempt: 2, status_code: 200 },
          ]);
        }
      } finally {
        await second.close();
        await shared.dispose();
      }
    });

    it('two workers on one database deliver each event exactly once', async () => {
      const shared = await sharedDatabase(dialect);
      const tc = await createTestApp(dialect, PRIVATE_OK, {
        ...shared.options,
        app: { callbackWorker: false },
      });
      const other = await openDatabase(
        dialect === 'postgres'
          ? { databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: shared.options.pgSchema! }
          : { sqliteFile: shared.options.sqliteFile! },
      );
      const workers = [
        createCallbackService({
          db: tc.database.db,
          writes: tc.database.writes,
          subAccounts: subAccountDirectory(tc.database.db, createDirectoryCache(localDirectoryChanges())),
          log: tc.app.log,
          bus: createLocalBus(),
          allowPrivate: true,
        }),
        createCallbackService({
          db: other.db,
          writes: other.writes,
          subAccounts: subAccountDirectory(other.db, createDirectoryCache(localDirectoryChanges())),
          log: tc.app.log,
          bus: createLocalBus(),
          allowPrivate: true,
        }),
      ];
      try {
        const r = await recv();
        const c = await company(tc, (await setUpCatalogue(tc)).basic.id);
        const sub = await c.sub(r.url);
        const ids: string[] = [];
        for (let i = 0; i < 40; i++) {
          ids.push(
            (await tc.app.services.callbacks.emit({
              companyId: c.companyId,
              subAccountId: sub.id,
              wxid: 'wxid_c',
              type: 'message',
              data: { i },
            }))!,
          );
        }
        expect(r.got).toHaveLength(0); // the app's own worker is off
        for (const w of workers) w.start();
        await waitFor('all delivered', async () => {
          const left = await tc.database.db
            .selectFrom('callback_events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '!=', 'delivered')
            .executeTakeFirstOrThrow();
          return Number(left.n) === 0;
        });
        const delivered = r.got.map((g) => String(g.headers[CALLBACK_EVENT_HEADER]));
        expect(delivered).toHaveLength(40);
        expect(new Set(delivered)).toEqual(new Set(ids));
        const attempts = await tc.database.db
          .selectFrom('callback_attempts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(attempts.n)).toBe(40);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await other.close();
        await tc.close();
        await shared.dispose();
      }
    });
  });
});

describe.each(dialects)('callbacks at shutdown (%s)', (dialect) => {
  it('closing the service lets a delivery under way settle before the database closes', async () => {
    const t = await createTestApp(dialect, PRIVATE_OK, { app: { ...FAST, closeDatabase: true } });
    const r = await receiver();
    try {
      const x = await company(t, (await setUpCatalogue(t)).basic.id);
      const sub = await x.sub(r.url); // the URL's test event answered 200
      r.setMode('hang'); // from now on an attempt lasts until its timeout (800 ms)
      const id = (await t.app.services.callbacks.emit({
        companyId: x.companyId,
        subAccountId: sub.id,
        wxid: 'wxid_alice',
        type: 'message',
        data: { text: '关闭中' },
      }))!;
      await waitFor('the attempt under way', () => r.got.length >= 2);
      // What the event looks like at the moment the database closes (the app closes it itself).
      const close = t.database.close.bind(t.database);
      let atClose: Awaited<ReturnType<typeof eventRow>>;
      let closing: Promise<void> | undefined;
      t.database.close = () =>
        (closing ??= (async () => {
          atClose = await eventRow(t, id);
          await close();
        })());
      await t.app.close();
      // Attempted, settled, its claim released: the next process retries it when due, not a minute on.
      expect(atClose).toMatchObject({ status: 'pending', locked_until: 0 });
      expect(atClose!.attempts).toBeGreaterThanOrEqual(1);
      expect(atClose!.last_error).toBeTruthy();
    } finally {
      await r.close();
      await t.close();
    }
  });
});
