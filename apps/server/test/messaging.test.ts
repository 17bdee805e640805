import { createHash, createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  apiAccountCalls,
  callbackCalls,
  fileCalls,
  messagingCalls,
  packageCalls,
  recordCalls,
  simCalls,
  statisticsCalls,
} from '@wxc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestsInLine } from '../src/lib/request-slices.js';
import * as messagingRepo from '../src/modules/messaging/repo.js';
import * as packagesRepo from '../src/modules/packages/repo.js';
import { networkForDevice } from '../src/modules/sim/network.js';
import { PRIVATE_OK, receiver, waitFor } from './callback-helpers.js';
import { setUpCatalogue } from './commerce-helpers.js';
import {
  changedTables,
  createTestApp,
  dialects,
  quietTableCounts,
  registerCompany,
  sharedDatabase,
  type TestApp,
  type TestAppOptions,
  tableCounts,
} from './helpers.js';
import {
  type Catalogue,
  customerWithSubAccount,
  loginAccount,
  MESSAGING_ENV,
  until,
} from './messaging-helpers.js';

const sha256hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A new customer's online account, its first friend, and the account's row. */
async function onlineWithFriend(t: TestApp, cat: Catalogue) {
  const c = await customerWithSubAccount(t, cat);
  const { account } = await loginAccount(t, { token: c.token });
  const friend = (await t.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token }))
    .data.list[0].wxid as string;
  const row = await t.database.db
    .selectFrom('wx_accounts')
    .select(['id', 'company_id'])
    .where('wxid', '=', account.wxid)
    .executeTakeFirstOrThrow();
  return { c, account, friend, row };
}

/** `n` texts to `friend` sent at once (each call its own request), contents `${prefix}0`, `${prefix}1`, … */
const sendAtOnce = (t: TestApp, token: string, wxid: string, friend: string, n: number, prefix: string) =>
  Promise.all(
    Array.from({ length: n }, (_, i) =>
      t.call(messagingCalls.sendMsgText, { wxid, toWxid: friend, content: `${prefix}${i}` }, { token }),
    ),
  );

/** How many messages the account received (the simulated contact answers each text once). */
async function repliesTo(t: TestApp, accountId: string): Promise<number> {
  const replies = await t.database.db
    .selectFrom('wx_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('wx_account_id', '=', accountId)
    .where('direction', '=', 'in')
    .executeTakeFirstOrThrow();
  return Number(replies.n);
}

/** An outgoing text of the account written directly, in a queue state the test sets up. */
const outgoingRow = (
  row: { id: string; company_id: string },
  sender: string,
  peer: string,
  m: {
    new_msg_id: string;
    content: string;
    status: 'queued' | 'sending';
    claim_token: string | null;
    lease_until: number | null;
    created_at: number;
    seq: number;
  },
) => ({
  id: randomUUID(),
  company_id: row.company_id,
  wx_account_id: row.id,
  direction: 'out' as const,
  peer,
  sender,
  type: 1,
  app_type: null,
  media: null,
  error: null,
  create_time: Math.floor(m.created_at / 1000),
  ...m,
});

/**
 * The signature headers a program computes, written out independently of the server's code:
 * x-signature = hex(HMAC-SHA256(key = hex(SHA-256(appSecret)),
 *   "POST" + "\n" + path + "\n" + appKey + "\n" + timestamp + "\n" + nonce + "\n" + hex(SHA-256(body bytes)))).
 * The path defaults to proxyList's.
 */
function signedHeaders(
  c: { sub: { appKey: string }; creds: { 'x-app-secret': string } },
  body: Buffer | string,
  opts: { timestamp?: string; nonce?: string; path?: string } = {},
): Record<string, string> {
  const timestamp = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
  const nonce = opts.nonce ?? `n-${randomUUID()}`;
  const signature = createHmac('sha256', sha256hex(c.creds['x-app-secret']))
    .update(
      `POST\n${opts.path ?? messagingCalls.proxyList.path}\n${c.sub.appKey}\n${timestamp}\n${nonce}\n${sha256hex(body)}`,
    )
    .digest('hex');
  return { 'x-app-key': c.sub.appKey, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature };
}

describe.each(dialects)('messaging gateway (%s)', (dialect) => {
  let t: TestApp;
  let cat: Catalogue;
  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV);
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());

  describe('QR login', () => {
    it('goes waiting -> scanned -> confirmed through the phone page, and records the login', async () => {
      const c = await customerWithSubAccount(t, cat);
      const qr = await t.call(messagingCalls.getQrCode, {}, { headers: c.creds });
      expect(qr.code).toBe('200');
      expect(qr.data.qrUrl).toBe(`http://127.0.0.1:8080/sim/scan/${qr.data.instanceId}`);
      expect(qr.data.qrImage).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(qr.data.expiresIn).toBe(120);
      const { instanceId } = qr.data;

      const waiting = await t.call(messagingCalls.checkQrCode, { instanceId }, { headers: c.creds });
      expect(waiting.data).toMatchObject({ state: 'waiting', scanner: null, account: null });
      const page = await t.call(simCalls.scanStatus, { instanceId });
      expect(page.data).toMatchObject({ state: 'waiting', verifyCode: null });

      expect((await t.call(simCalls.scanAction, { instanceId, action: 'scan' })).data.state).toBe('scanned');
      const scanned = await t.call(messagingCalls.checkQrCode, { instanceId }, { headers: c.creds });
      expect(scanned.data.state).toBe('scanned');
      expect(scanned.data.scanner.nickname).toBe(page.data.person.nickname);

      expect((await t.call(simCalls.scanAction, { instanceId, action: 'confirm' })).data.state).toBe(
        'confirmed',
      );
      const done = await t.call(messagingCalls.checkQrCode, { instanceId }, { headers: c.creds });
      expect(done.data.state).toBe('confirmed');
      expect(done.data.account).toMatchObject({
        wxid: page.data.person.wxid,
        status: 'online',
        subAccountId: c.sub.id,
      });
      // The account as read with the login (one statement) is the account as read alone.
      const auth = await t.call(
        messagingCalls.getAuth,
        { wxid: page.data.person.wxid },
        { headers: c.creds },
      );
      expect(done.data.account).toEqual(auth.data);
      const looped = await t.call(
        messagingCalls.checkQrCodeLoop,
        { instanceId, lastState: 'scanned', waitSeconds: 1 },
        { headers: c.creds },
      );
      expect(looped.data).toEqual(done.data);

      const records = await t.call(recordCalls.queryWxLoginRecord, {}, { token: c.token });
      expect(records.data.list[0]).toMatchObject({
        id: instanceId,
        result: 'success',
        wxid: page.data.person.wxid,
      });
      const devices = await t.call(recordCalls.queryDeviceRecord, {}, { token: c.token });
      expect(devices.data.list[0]).toMatchObject({ deviceId: qr.data.deviceId, loginCount: 1 });
      const subs = await t.call(apiAccountCalls.queryApiAccount, {}, { token: c.token });
      expect(subs.data.list[0].usedNum).toBe(1);
    });

    it('long-polls: checkQrCodeLoop answers as soon as the state changes', async () => {
      const c = await customerWithSubAccount(t, cat);
      const { data } = await t.call(messagingCalls.getQrCode, {}, { token: c.token });
      const started = Date.now();
      const poll = t.call(
        messagingCalls.checkQrCodeLoop,
        { instanceId: data.instanceId, lastState: 'waiting', waitSeconds: 10 },
        { token: c.token },
      );
      await new Promise((r) => setTimeout(r, 50));
      await t.call(simCalls.scanAction, { instanceId: data.instanceId, action: 'scan' });
      const res = await poll;
      expect(res.data.state).toBe('scanned');
      expect(Date.now() - started).toBeLessThan(5000);
      const timeout = await t.call(
        messagingCalls.checkQrCodeLoop,
        { instanceId: data.instanceId, lastState: 'scanned', waitSeconds: 1 },
        { token: c.token },
      );
      expect(timeout.data.state).toBe('scanned');
    });

    it('need_verify: the phone shows a code, a wrong code is refused, the right one logs in', async () => {
      const c = await customerWithSubAccount(t, cat);
      const { data } = await t.call(messagingCalls.getQrCode, {}, { token: c.token });
      const id = data.instanceId;
      await t.call(simCalls.scanAction, { instanceId: id, action: 'scan' });
      expect(
        (await t.call(simCalls.scanAction, { instanceId: id, action: 'confirm_verify' })).data.state,
      ).toBe('need_verify');
      const page = await t.call(simCalls.scanStatus, { instanceId: id });
      expect(page.data.verifyCode).toMatch(/^\d{4}$/);
      const wrong = String((Number(page.data.verifyCode) + 1) % 10000).padStart(4, '0');
      expect(
        await t.call(simCalls.scanAction, { instanceId: id, action: 'verify', code: wrong }),
      ).toMatchObject({ status: 400, message: '验证码错误' });
      expect(
        (await t.call(simCalls.scanAction, { instanceId: id, action: 'verify', code: page.data.verifyCode }))
          .data.state,
      ).toBe('confirmed');
    });

    it("the phone's confirm button needs a scanned code: before the scan, while it waits for its verification code, after its time — 请先扫码, nothing written", async () => {
      const c = await customerWithSubAccount(t, cat);
      const confirm = (instanceId: string) => t.call(simCalls.scanAction, { instanceId, action: 'confirm' });
      const state = async (instanceId: string) =>
        (
          await t.database.db
            .selectFrom('wx_logins')
            .select('state')
            .where('id', '=', instanceId)
            .executeTakeFirst()
        )?.state;
      const notScanned = { status: 409, message: '请先扫码' };

      const waiting = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data.instanceId;
      expect(await confirm(waiting)).toMatchObject(notScanned);
      expect(await state(waiting)).toBe('waiting');

      const verifying = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data.instanceId;
      await t.call(simCalls.scanAction, { instanceId: verifying, action: 'scan' });
      await t.call(simCalls.scanAction, { instanceId: verifying, action: 'confirm_verify' });
      expect(await confirm(verifying)).toMatchObject(notScanned);
      expect(await state(verifying)).toBe('need_verify');

      const late = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data.instanceId;
      await t.call(simCalls.scanAction, { instanceId: late, action: 'scan' });
      await t.database.db
        .updateTable('wx_logins')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', late)
        .execute();
      expect(await confirm(late)).toMatchObject(notScanned);
      expect(await state(late)).toBe('expired');

      // None of them put an account online or touched a device.
      expect((await t.call(statisticsCalls.getOnlineCountNow, {}, { token: c.token })).data.value).toBe(0);
      const devices = await t.call(recordCalls.queryDeviceRecord, {}, { token: c.token });
      expect(devices.data.list.every((d: { loginCount: number }) => d.loginCount === 0)).toBe(true);

      // The code scanned after the refused confirmation still logs in with the button.
      await t.call(simCalls.scanAction, { instanceId: waiting, action: 'scan' });
      expect((await confirm(waiting)).data.state).toBe('confirmed');
      expect(await state(waiting)).toBe('confirmed');
    });

    it('cancelled and expired QR codes end without a login', async () => {
      const c = await customerWithSubAccount(t, cat);
      const a = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
      await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'scan' });
      // A second phone finds the code taken (秒没).
      expect(await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'scan' })).toMatchObject({
        status: 409,
        message: '二维码已被其他手机扫描（秒没），请刷新二维码后重试',
      });
      expect(
        (await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'cancel' })).data.state,
      ).toBe('cancelled');
      expect(
        await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'confirm' }),
      ).toMatchObject({ status: 409 });

      const b = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
      await t.database.db
        .updateTable('wx_logins')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', b.instanceId)
        .execute();
      expect(
        (await t.call(messagingCalls.checkQrCode, { instanceId: b.instanceId }, { token: c.token })).data,
      ).toMatchObject({ state: 'expired', expiresIn: 0 });
      expect(await t.call(simCalls.scanAction, { instanceId: b.instanceId, action: 'scan' })).toMatchObject({
        status: 409,
      });

      const d = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
      expect((await t.call(simCalls.expireQr, { instanceId: d.instanceId }, { token: c.token })).code).toBe(
        '200',
      );
      expect(
        (await t.call(messagingCalls.checkQrCode, { instanceId: d.instanceId }, { token: c.token })).data
          .state,
      ).toBe('expired');

      // Past its time but not yet marked (nobody polled): a scan expires it and says so.
      const e = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
      await t.database.db
        .updateTable('wx_logins')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', e.instanceId)
        .execute();
      expect(await t.call(simCalls.scanAction, { instanceId: e.instanceId, action: 'scan' })).toMatchObject({
        status: 409,
        message: '二维码已过期，请刷新二维码',
      });
      expect((await t.call(simCalls.scanStatus, { instanceId: e.instanceId })).data.state).toBe('expired');

      const records = await t.call(recordCalls.queryWxLoginRecord, {}, { token: c.token });
      expect(records.data.list.map((r: { result: string }) => r.result).sort()).toEqual([
        'cancelled',
        'expired',
        'expired',
        'expired',
      ]);
    });

    it('re-login on the same device brings back the same account', async () => {
      const c = await customerWithSubAccount(t, cat);
      const first = await loginAccount(t, { token: c.token });
      expect(
        await t.call(messagingCalls.getQrCode, { deviceId: first.deviceId }, { token: c.token }),
      ).toMatchObject({ status: 409 });
      await t.call(messagingCalls.logout, { wxid: first.account.wxid }, { token: c.token });
      const again = await loginAccount(t, { token: c.token }, { deviceId: first.deviceId });
      expect(again.account.wxid).toBe(first.account.wxid);
      const history = await t.call(recordCalls.queryHistoryWx, {}, { token: c.token });
      expect(history.data.total).toBe(1);
      const devices = await t.call(recordCalls.queryDeviceRecord, {}, { token: c.token });
      expect(devices.data.list[0].loginCount).toBe(2);
    });
  });

  describe('quota and package', () => {
    it('refuses logins beyond the sub-account allocation, or without a valid package', async () => {
      const c = await customerWithSubAccount(t, cat, 1);
      await loginAccount(t, { headers: c.creds });
      const before = await quietTableCounts(t.database);
      const over = await t.call(messagingCalls.getQrCode, {}, { headers: c.creds });
      expect(over).toMatchObject({ status: 400, code: '40020' });
      expect(over.message).toContain('在线 1 / 分配 1');
      expect(changedTables(before, await tableCounts(t.database))).toEqual({});

      // The company's slots, too: a package shrunk to what is online refuses a new login.
      const other = await customerWithSubAccount(t, cat, 3);
      await loginAccount(t, { headers: other.creds });
      await t.database.db
        .updateTable('subscriptions')
        .set({ slots: 1 })
        .where('company_id', '=', other.user.id)
        .execute();
      const full = await t.call(messagingCalls.getQrCode, {}, { headers: other.creds });
      expect(full).toMatchObject({ status: 400, code: '40020' });
      expect(full.message).toBe('公司套餐共 1 个账号额度，已全部在线，请购买更多额度');

      await t.database.db
        .updateTable('subscriptions')
        .set({ ends_at: Date.now() - 1 })
        .where('company_id', '=', c.user.id)
        .execute();
      expect(await t.call(messagingCalls.getQrCode, {}, { token: c.token })).toMatchObject({ code: '40021' });
      const online = (await t.call(recordCalls.queryHistoryWx, {}, { token: c.token })).data.list[0].wxid;
      expect(
        await t.call(
          messagingCalls.sendMsgText,
          { wxid: online, toWxid: 'x', content: 'hi' },
          { token: c.token },
        ),
      ).toMatchObject({ code: '40021' });
    });

    it('a QR issued while a slot was free is refused at confirmation when the slot is gone', async () => {
      const c = await customerWithSubAccount(t, cat, 1);
      const a = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
      await loginAccount(t, { token: c.token });
      await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'scan' });
      const refused = await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'confirm' });
      expect(refused).toMatchObject({ status: 400, code: '40020' });
      const page = await t.call(simCalls.scanStatus, { instanceId: a.instanceId });
      expect(page.data).toMatchObject({ state: 'cancelled' });
      expect(page.data.reason).toContain('额度已用完');
    });

    /** Why a new login is refused (each made true for customer `c`), with its code and what it says. */
    const loginRefusals = (): Array<{
      code: string;
      reason: string;
      make: (c: Awaited<ReturnType<typeof customerWithSubAccount>>) => Promise<unknown>;
    }> => {
      const { db } = t.database;
      return [
        {
          code: '40020',
          reason: '已全部在线',
          make: (c) =>
            db.updateTable('subscriptions').set({ slots: 1 }).where('company_id', '=', c.user.id).execute(),
        },
        {
          code: '40021',
          reason: '套餐已过期',
          make: (c) =>
            db
              .updateTable('subscriptions')
              .set({ ends_at: Date.now() - 1 })
              .where('company_id', '=', c.user.id)
              .execute(),
        },
        {
          code: '40020',
          reason: '在线 1 / 分配 1',
          make: (c) =>
            t.call(apiAccountCalls.updateAvailableNum, { id: c.sub.id, availableNum: 1 }, { token: c.token }),
        },
        {
          code: '40304',
          reason: '服务已到期',
          make: (c) =>
            db
              .insertInto('company_ops')
              .values({ company_id: c.user.id, service_expires_at: Date.now() - 1, updated_at: Date.now() })
              .onConflict((oc) => oc.column('company_id').doUpdateSet({ service_expires_at: Date.now() - 1 }))
              .execute(),
        },
      ];
    };

    it('a confirmation refused at its last step writes nothing: no account, no device login, the counts as they were', async () => {
      // Each refusal is made true between the scan and the confirmation.
      const { db } = t.database;
      const refusals = loginRefusals();
      for (const refusal of refusals) {
        const c = await customerWithSubAccount(t, cat, 2);
        await loginAccount(t, { token: c.token });
        const qr = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
        await t.call(simCalls.scanAction, { instanceId: qr.instanceId, action: 'scan' });
        await refusal.make(c);
        const state = async () => ({
          accounts: await db
            .selectFrom('wx_accounts')
            .select(['wxid', 'status'])
            .where('company_id', '=', c.user.id)
            .orderBy('wxid')
            .execute(),
          device: await db
            .selectFrom('wx_devices')
            .select(['wxid', 'login_count', 'last_login_at'])
            .where('id', '=', qr.deviceId)
            .executeTakeFirst(),
          counts: await db
            .selectFrom('wx_online_counts')
            .select(['scope', 'online'])
            .where('owner_id', 'in', [c.user.id, c.sub.id])
            .orderBy('scope')
            .execute(),
        });
        const before = await state();
        const refused = await t.call(simCalls.scanAction, { instanceId: qr.instanceId, action: 'confirm' });
        expect(refused, refusal.reason).toMatchObject({ code: refusal.code });
        expect(refused.message, refusal.reason).toContain(refusal.reason);
        expect(await state(), refusal.reason).toEqual(before);
        expect(before.accounts).toHaveLength(1);
        // Refused for the quota or the package, the attempt ends; the service's end leaves it as it was.
        const page = (await t.call(simCalls.scanStatus, { instanceId: qr.instanceId })).data;
        expect(page.state, refusal.reason).toBe(refusal.code === '40304' ? 'scanned' : 'cancelled');
      }
    });

    it("a confirmation refused for its account writes nothing: the account's expiry, its sub-account recovered (unless it is online already)", async () => {
      const { db } = t.database;
      // The phone's actions themselves, but for the refusals (its page is limited per address).
      const phone = t.app.services.simulator!.phone;
      const logIn = async (token: string) => {
        const qr = (await t.call(messagingCalls.getQrCode, {}, { token })).data;
        await phone.scan(qr.instanceId, qr.deviceId);
        await phone.confirm(qr.instanceId, qr.deviceId);
        return qr;
      };
      const state = async (c: Awaited<ReturnType<typeof customerWithSubAccount>>) => ({
        accounts: await db
          .selectFrom('wx_accounts')
          .select(['wxid', 'status', 'current_login_id', 'device_id'])
          .where('company_id', '=', c.user.id)
          .orderBy('wxid')
          .execute(),
        devices: await db
          .selectFrom('wx_devices')
          .select(['id', 'wxid', 'login_count', 'last_login_at'])
          .where('company_id', '=', c.user.id)
          .orderBy('id')
          .execute(),
        logins: await db
          .selectFrom('wx_logins')
          .select(['id', 'state', 'wx_account_id'])
          .where('company_id', '=', c.user.id)
          .orderBy('id')
          .execute(),
        // No count row is none online (PostgreSQL's confirmation makes them at 0 to lock them).
        counts: {
          company: 0,
          sub_account: 0,
          ...Object.fromEntries(
            (
              await db
                .selectFrom('wx_online_counts')
                .select(['scope', 'online'])
                .where('owner_id', 'in', [c.user.id, c.sub.id])
                .execute()
            ).map((r) => [r.scope, Number(r.online)]),
          ),
        },
      });

      // The account's time ran out while it was offline: the same person logging in again is refused.
      const expired = await customerWithSubAccount(t, cat, 2);
      const first = await logIn(expired.token);
      const wxid = (await db
        .selectFrom('wx_accounts')
        .select('wxid')
        .where('company_id', '=', expired.user.id)
        .executeTakeFirst())!.wxid;
      await t.call(messagingCalls.logout, { wxid }, { token: expired.token });
      await db
        .updateTable('wx_accounts')
        .set({ expire_at: Date.now() - 1 })
        .where('company_id', '=', expired.user.id)
        .execute();
      const again = (
        await t.call(messagingCalls.getQrCode, { deviceId: first.deviceId }, { token: expired.token })
      ).data;
      await phone.scan(again.instanceId, again.deviceId);
      let before = await state(expired);
      expect(before.accounts).toMatchObject([{ status: 'offline' }]);
      expect(
        await t.call(simCalls.scanAction, { instanceId: again.instanceId, action: 'confirm' }),
      ).toMatchObject({ status: 409, message: '该微信账号已到期，不能再登录' });
      expect(await state(expired)).toEqual(before);

      // Its sub-account recovered between the scan and the confirmation: a new account is refused.
      const recovered = await customerWithSubAccount(t, cat, 2);
      const qr = (await t.call(messagingCalls.getQrCode, {}, { token: recovered.token })).data;
      await phone.scan(qr.instanceId, qr.deviceId);
      await t.call(apiAccountCalls.recoveryApiAccount, { id: recovered.sub.id }, { token: recovered.token });
      before = await state(recovered);
      expect(
        await t.call(simCalls.scanAction, { instanceId: qr.instanceId, action: 'confirm' }),
      ).toMatchObject({ status: 404, message: '子账号已回收' });
      expect(await state(recovered)).toEqual(before);
      expect(before.accounts).toEqual([]);

      // An account online already moves to the new device all the same: it does not count again.
      const moving = await customerWithSubAccount(t, cat, 2);
      const online = await logIn(moving.token);
      const elsewhere = (await t.call(messagingCalls.getQrCode, {}, { token: moving.token })).data;
      await phone.scan(elsewhere.instanceId, elsewhere.deviceId);
      await t.call(apiAccountCalls.recoveryApiAccount, { id: moving.sub.id }, { token: moving.token });
      await phone.confirm(elsewhere.instanceId, online.deviceId);
      const after = await state(moving);
      expect(after.accounts).toMatchObject([{ status: 'online', current_login_id: elsewhere.instanceId }]);
      expect(after.accounts[0]!.device_id).toBe(elsewhere.deviceId);
      expect(after.counts).toEqual({ company: 1, sub_account: 1 });
    });

    it.runIf(dialect === 'postgres')(
      "a confirmation locks its account's row before its company's counts, as an account's write does: a logout racing it cannot deadlock",
      async () => {
        const { db } = t.database;
        const phone = t.app.services.simulator!.phone;
        const c = await customerWithSubAccount(t, cat, 2);
        const first = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
        await phone.scan(first.instanceId, first.deviceId);
        await phone.confirm(first.instanceId, first.deviceId);
        const account = (await db
          .selectFrom('wx_accounts')
          .select(['id', 'wxid'])
          .where('company_id', '=', c.user.id)
          .executeTakeFirst())!;
        await t.call(messagingCalls.logout, { wxid: account.wxid }, { token: c.token });
        const qr = (await t.call(messagingCalls.getQrCode, { deviceId: first.deviceId }, { token: c.token }))
          .data;
        await phone.scan(qr.instanceId, qr.deviceId);

        // Another transaction holds the account's row, as a logout's write does.
        let release!: () => void;
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let holding!: (xid: string) => void;
        const holder = new Promise<string>((resolve) => {
          holding = resolve;
        });
        const held = db.transaction().execute(async (trx) => {
          await sql`select id from wx_accounts where id = ${account.id} for update`.execute(trx);
          holding(
            (await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(trx)).rows[0]!.xid,
          );
          await released;
        });
        const xid = await holder;
        const confirming = phone.confirm(qr.instanceId, qr.deviceId);
        try {
          // The confirmation waits for that row…
          await until(async () => {
            const waiting = await sql<{ n: string }>`select count(*) as n from pg_locks
              where locktype = 'transactionid' and transactionid::text = ${xid} and not granted`.execute(db);
            return Number(waiting.rows[0]!.n) > 0;
          }, 'the confirmation waiting for the account');
          // …holding none of its company's counts, which that write would lock next.
          const counts = await db.transaction().execute((trx) =>
            sql`select online from wx_online_counts where owner_id in (${c.user.id}, ${c.sub.id})
              for update nowait`.execute(trx),
          );
          expect(counts.rows).toHaveLength(2);
        } finally {
          release();
          await held;
          await confirming.catch(() => {}); // seen below
        }
        await confirming;
        expect(
          await db
            .selectFrom('wx_accounts')
            .select(['status', 'current_login_id'])
            .where('id', '=', account.id)
            .execute(),
        ).toEqual([{ status: 'online', current_login_id: qr.instanceId }]);
      },
    );

    it('a QR code refused for the quota writes nothing: no device, no login; it says why', async () => {
      const { db } = t.database;
      const sim = t.app.services.simulator!;
      for (const refusal of loginRefusals()) {
        const c = await customerWithSubAccount(t, cat, 2);
        // One account online, by the phone's actions themselves (not its page, limited per address).
        const qr = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
        await sim.phone.scan(qr.instanceId, qr.deviceId);
        await sim.phone.confirm(qr.instanceId, qr.deviceId);
        await refusal.make(c);
        const rowsOf = async () => ({
          devices: await db
            .selectFrom('wx_devices')
            .select('id')
            .where('company_id', '=', c.user.id)
            .execute(),
          logins: await db.selectFrom('wx_logins').select('id').where('company_id', '=', c.user.id).execute(),
        });
        const before = await rowsOf();
        expect(before.logins).toHaveLength(1);
        const refused = await t.call(messagingCalls.getQrCode, {}, { token: c.token });
        expect(refused, refusal.reason).toMatchObject({ code: refusal.code });
        expect(refused.message, refusal.reason).toContain(refusal.reason);
        expect(await rowsOf(), refusal.reason).toEqual(before);
        // A known device too: refused before anything is read of it.
        const again = await t.call(
          messagingCalls.getQrCode,
          { deviceId: before.devices[0]!.id },
          { token: c.token },
        );
        expect(again, refusal.reason).toMatchObject({ code: refusal.code });
        expect(await rowsOf(), refusal.reason).toEqual(before);
      }
    });

    it('confirmations racing for the last slot: one goes online, the others are refused', async () => {
      const c = await customerWithSubAccount(t, cat, 1);
      const qrs = [];
      for (let i = 0; i < 4; i++)
        qrs.push((await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data);
      for (const q of qrs) await t.call(simCalls.scanAction, { instanceId: q.instanceId, action: 'scan' });
      const answers = await Promise.all(
        qrs.map((q) => t.call(simCalls.scanAction, { instanceId: q.instanceId, action: 'confirm' })),
      );
      expect(answers.filter((a) => a.status === 200 && a.data.state === 'confirmed')).toHaveLength(1);
      expect(answers.filter((a) => a.code === '40020')).toHaveLength(3);
      expect(await messagingRepo.countOnline(t.database.db, 'company', c.user.id)).toBe(1);
      const states = await Promise.all(
        qrs.map(async (q) => (await t.call(simCalls.scanStatus, { instanceId: q.instanceId })).data.state),
      );
      expect(states.sort()).toEqual(['cancelled', 'cancelled', 'cancelled', 'confirmed']);
    });

    it.runIf(dialect === 'postgres')(
      'confirmations of two sub-accounts that all reach the company’s counts together: one goes online in the last slot',
      async () => {
        const c = await customerWithSubAccount(t, cat, 2);
        const b = (
          await t.call(apiAccountCalls.openApiAccount, { name: 'B', availableNum: 2 }, { token: c.token })
        ).data.account.id as string;
        await loginAccount(t, { token: c.token }, { subAccountId: c.sub.id });
        // The company's package now holds one account more than it has online.
        const { db } = t.database;
        await db.updateTable('subscriptions').set({ slots: 2 }).where('company_id', '=', c.user.id).execute();
        const qrs: Array<{ instanceId: string }> = [];
        for (const subAccountId of [c.sub.id, b, b, c.sub.id])
          qrs.push((await t.call(messagingCalls.getQrCode, { subAccountId }, { token: c.token })).data);
        for (const q of qrs) await t.call(simCalls.scanAction, { instanceId: q.instanceId, action: 'scan' });
        // The company's count row held by another transaction until all four confirmations wait for
        // it: each must then read the count as the one before it left it, not as it was at its start.
        let confirming: Promise<Array<Awaited<ReturnType<typeof t.call>>>> | undefined;
        await db.transaction().execute(async (trx) => {
          await trx
            .selectFrom('wx_online_counts')
            .select('online')
            .where('scope', '=', 'company')
            .where('owner_id', '=', c.user.id)
            .forUpdate()
            .execute();
          confirming = Promise.all(
            qrs.map((q) => t.call(simCalls.scanAction, { instanceId: q.instanceId, action: 'confirm' })),
          );
          await waitFor('four confirmations waiting on a lock', async () => {
            // (pg_stat_activity keeps a statement's first 1,024 bytes: the counts' upsert leads it.)
            const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where wait_event_type = 'Lock' and query like '%insert into "wx_online_counts"%'`.execute(db);
            return rows[0]!.n >= 4;
          });
        }); // its commit lets them go
        const answers = await confirming!;
        expect(answers.filter((a) => a.status === 200 && a.data.state === 'confirmed')).toHaveLength(1);
        expect(answers.filter((a) => a.code === '40020')).toHaveLength(3);
        expect(await messagingRepo.countOnline(db, 'company', c.user.id)).toBe(2);
        const bySub =
          (await messagingRepo.countOnline(db, 'sub_account', c.sub.id)) +
          (await messagingRepo.countOnline(db, 'sub_account', b));
        expect(bySub).toBe(2);
      },
    );

    it('the database keeps the accounts online of a company and its sub-accounts as they log in, out, are kicked and move', async () => {
      const c = await customerWithSubAccount(t, cat, 2);
      const b = (
        await t.call(apiAccountCalls.openApiAccount, { name: 'B', availableNum: 1 }, { token: c.token })
      ).data.account.id as string;
      const { db } = t.database;
      const kept = async (scope: 'company' | 'sub_account', owners: string[]) =>
        Object.fromEntries(
          (
            await db
              .selectFrom('wx_online_counts')
              .select(['owner_id', 'online'])
              .where('scope', '=', scope)
              .where('owner_id', 'in', owners)
              .where('online', '<>', 0)
              .execute()
          ).map((r) => [r.owner_id, Number(r.online)]),
        );
      const counted = async () =>
        Object.fromEntries(
          (
            await db
              .selectFrom('wx_accounts')
              .select((eb) => ['api_account_id', eb.fn.countAll<number>().as('n')])
              .where('company_id', '=', c.user.id)
              .where('status', '=', 'online')
              .groupBy('api_account_id')
              .execute()
          ).map((r) => [r.api_account_id, Number(r.n)]),
        );
      const expectCounts = async (expected: Record<string, number>) => {
        expect(await counted()).toEqual(expected);
        expect(await kept('sub_account', [c.sub.id, b])).toEqual(expected);
        const total = Object.values(expected).reduce((sum, n) => sum + n, 0);
        expect(await kept('company', [c.user.id])).toEqual(total ? { [c.user.id]: total } : {});
      };
      const a1 = await loginAccount(t, { token: c.token }, { subAccountId: c.sub.id });
      const a2 = await loginAccount(t, { token: c.token }, { subAccountId: c.sub.id });
      const b1 = await loginAccount(t, { token: c.token }, { subAccountId: b });
      await expectCounts({ [c.sub.id]: 2, [b]: 1 });
      await t.call(messagingCalls.logout, { wxid: a1.account.wxid }, { token: c.token });
      await expectCounts({ [c.sub.id]: 1, [b]: 1 });
      await t.call(simCalls.kick, { wxid: a2.account.wxid, reason: '当前登录环境异常' }, { token: c.token });
      await expectCounts({ [b]: 1 });
      await t.call(messagingCalls.logout, { wxid: b1.account.wxid }, { token: c.token });
      await expectCounts({});
      // The first account again, on its device, now for sub-account B: it moves.
      await loginAccount(t, { token: c.token }, { subAccountId: b, deviceId: a1.deviceId });
      await expectCounts({ [b]: 1 });
      // B is full: the next login for it is refused, and the refusal leaves the counts as they were.
      expect(await t.call(messagingCalls.getQrCode, { subAccountId: b }, { token: c.token })).toMatchObject({
        code: '40020',
      });
      await expectCounts({ [b]: 1 });
    });

    it('two confirmations of one new account at once: both go through, the account is online once, the first session ends', async () => {
      const c = await customerWithSubAccount(t, cat, 2);
      const qrs: { instanceId: string; deviceId: string }[] = [];
      for (let i = 0; i < 2; i++)
        qrs.push((await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data);
      for (const q of qrs) await t.call(simCalls.scanAction, { instanceId: q.instanceId, action: 'scan' });
      // One phone (the person of the first QR's device) confirms both QR codes, each on its own
      // device: two new-account inserts of one wxid at once (on PostgreSQL the second waits for the
      // first's commit, then collides with it).
      const phone = t.app.services.simulator!.phone;
      const answers = await Promise.allSettled(qrs.map((q) => phone.confirm(q.instanceId, qrs[0]!.deviceId)));
      // A refusal's reason is in the failure message.
      expect(answers.map((a) => (a.status === 'fulfilled' ? 'ok' : String(a.reason)))).toEqual(['ok', 'ok']);
      const states = await Promise.all(
        qrs.map(async (q) => (await t.call(simCalls.scanStatus, { instanceId: q.instanceId })).data.state),
      );
      expect(states).toEqual(['confirmed', 'confirmed']);
      const accounts = await t.database.db
        .selectFrom('wx_accounts')
        .select(['status', 'current_login_id'])
        .where('company_id', '=', c.user.id)
        .execute();
      expect(accounts).toHaveLength(1);
      expect(accounts[0]!.status).toBe('online');
      const logins = await t.database.db
        .selectFrom('wx_logins')
        .select(['id', 'ended_at', 'logout_reason'])
        .where('company_id', '=', c.user.id)
        .execute();
      const current = logins.find((l) => l.id === accounts[0]!.current_login_id)!;
      const replaced = logins.find((l) => l.id !== accounts[0]!.current_login_id)!;
      expect(current.ended_at).toBeNull();
      expect(replaced).toMatchObject({ logout_reason: '在其他设备重新登录' });
      expect(replaced.ended_at).not.toBeNull();
    });

    /** A new account logged in through the simulator, as the provider sees it; nothing of its network read yet. */
    const newSimAccount = async () => {
      const c = await customerWithSubAccount(t, cat, 1);
      const { deviceId } = await loginAccount(t, { token: c.token });
      const account = (await t.database.db
        .selectFrom('wx_accounts')
        .select(['id', 'company_id', 'wxid'])
        .where('company_id', '=', c.user.id)
        .executeTakeFirst())!;
      return {
        account,
        deviceId,
        ref: { accountId: account.id, companyId: account.company_id, wxid: account.wxid, deviceId },
      };
    };
    /** As before its first read: the account's stored network gone. */
    const forgetNetwork = async (accountId: string) => {
      await t.database.db.deleteFrom('sim_room_members').where('wx_account_id', '=', accountId).execute();
      await t.database.db.deleteFrom('sim_contacts').where('wx_account_id', '=', accountId).execute();
    };

    it("the simulator stores a new account's address book at its first read, once when two reads find none at once", async () => {
      const { account, ref } = await newSimAccount();
      const contactsOf = () =>
        t.database.db
          .selectFrom('sim_contacts')
          .select('contact_wxid')
          .where('wx_account_id', '=', account.id)
          .execute();
      const membersOf = () =>
        t.database.db
          .selectFrom('sim_room_members')
          .select(['room_id', 'member_wxid'])
          .where('wx_account_id', '=', account.id)
          .execute();
      // Logged in, nothing read yet: nothing stored.
      expect(await contactsOf()).toEqual([]);
      expect(await membersOf()).toEqual([]);
      const provider = t.app.services.simulator!.provider;
      // Both find none and store it: the second's rows collide with the first's and are skipped (an
      // error, or a second copy of each room's members, without the unique keys). Both see all of it.
      const [first, second] = await Promise.all([provider.listContacts(ref), provider.listContacts(ref)]);
      const stored = await contactsOf();
      expect(stored.length).toBeGreaterThan(20);
      expect(first.map((x) => x.wxid).sort()).toEqual(stored.map((x) => x.contact_wxid).sort());
      expect(second).toEqual(first);
      const members = await membersOf();
      expect(members.length).toBeGreaterThan(0);
      expect(new Set(members.map((m) => `${m.room_id}/${m.member_wxid}`)).size).toBe(members.length);
      // Made from the device: the same network again once the stored one is gone.
      await forgetNetwork(account.id);
      expect(await provider.listContacts(ref)).toEqual(first);
      expect((await membersOf()).length).toBe(members.length);
    });

    it("every first read of a new account's network finds it: a send, a room, a contact made unreachable", async () => {
      const { account, deviceId, ref } = await newSimAccount();
      const net = networkForDevice(deviceId);
      const friend = net.friends[0]!.wxid;
      const room = net.rooms[0]!;
      const sim = t.app.services.simulator!;
      const fresh = () => forgetNetwork(account.id);
      expect(await sim.provider.hasContact(ref, friend)).toBe(true);
      await fresh();
      expect(await sim.provider.hasContact(ref, 'wxid_nobody')).toBe(false);
      expect(await sim.provider.hasContact(ref, friend)).toBe(true);
      await fresh();
      expect((await sim.provider.getRoom(ref, room.roomId))?.members.map((m) => m.wxid)).toEqual(
        [net.self, ...room.members].map((m) => m.wxid),
      );
      await fresh();
      expect((await sim.control.roomMembers(ref, room.roomId)).length).toBe(room.members.length + 1);
      await fresh();
      expect((await sim.provider.getContacts(ref, [friend, 'wxid_nobody'])).map((x) => x.wxid)).toEqual([
        friend,
      ]);
      await fresh();
      expect((await sim.provider.syncAddressList(ref)).friends).toContain(friend);
      await fresh();
      expect(await sim.control.setUnreachable(ref, friend, true)).toBe(true);
      expect(
        await sim.provider.send(ref, {
          msgId: 'm1',
          peer: friend,
          type: 1,
          appType: null,
          content: 'hi',
          media: null,
        }),
      ).toEqual({
        ok: false,
        error: '对方账号异常，消息发送失败',
      });
      await fresh();
      expect(await sim.control.setUnreachable(ref, 'wxid_nobody', true)).toBe(false);
    });

    it('checkQrCode and checkQrCodeLoop say why a refused login ended (the console needs no phone-side call)', async () => {
      const c = await customerWithSubAccount(t, cat, 1);
      const a = (await t.call(messagingCalls.getQrCode, {}, { token: c.token })).data;
      expect(
        (await t.call(messagingCalls.checkQrCode, { instanceId: a.instanceId }, { token: c.token })).data,
      ).toMatchObject({
        state: 'waiting',
        reason: null,
      });
      await loginAccount(t, { token: c.token });
      await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'scan' });
      await t.call(simCalls.scanAction, { instanceId: a.instanceId, action: 'confirm' });
      const checked = await t.call(
        messagingCalls.checkQrCode,
        { instanceId: a.instanceId },
        { token: c.token },
      );
      expect(checked.data).toMatchObject({ state: 'cancelled', account: null });
      expect(checked.data.reason).toContain('额度已用完');
      const looped = await t.call(
        messagingCalls.checkQrCodeLoop,
        { instanceId: a.instanceId, lastState: 'scanned', waitSeconds: 1 },
        { token: c.token },
      );
      expect(looped.data.reason).toBe(checked.data.reason);
    });

    it('without a sub-account the console is told to create one', async () => {
      const c = await registerCompany(t);
      expect(await t.call(messagingCalls.getQrCode, {}, { token: c.token })).toMatchObject({ code: '40024' });
    });
  });

  describe('sending and receiving', () => {
    it('sends every message type, and a text gets a reply that lands in the history', async () => {
      const c = await customerWithSubAccount(t, cat);
      const { account } = await loginAccount(t, { headers: c.creds });
      const wxid = account.wxid;
      const book = await t.call(messagingCalls.getAddressList, { wxid }, { headers: c.creds });
      const friend = book.data.list.find((x: { kind: string }) => x.kind === 'friend').wxid;
      const room = book.data.list.find((x: { kind: string }) => x.kind === 'chatroom').wxid;
      const base = { wxid, toWxid: friend };
      const sends = [
        [messagingCalls.sendMsgText, { ...base, content: '你好' }, 1],
        [messagingCalls.sendMsgImg, { ...base, imageUrl: 'https://example.com/a.jpg' }, 3],
        [
          messagingCalls.sendMsgVideo,
          {
            ...base,
            videoUrl: 'https://example.com/a.mp4',
            thumbUrl: 'https://example.com/a.jpg',
            duration: 3,
          },
          43,
        ],
        [
          messagingCalls.sendMsgFile,
          { ...base, fileUrl: 'https://example.com/a.pdf', fileName: '报价.pdf' },
          49,
        ],
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
        [messagingCalls.sendMsgEmoji, { ...base, md5: '4cc7540a85b5b6cf4ba14e9f4ae08b7c', size: 1024 }, 47],
        [
          messagingCalls.sendMsgVoice,
          { ...base, voiceUrl: 'https://example.com/v.silk', duration: 2000 },
          34,
        ],
        [messagingCalls.sendMsgText, { wxid, toWxid: room, content: '大家好', at: ['notify@all'] }, 1],
      ] as const;
      for (const [def, input, type] of sends) {
        // biome-ignore lint/suspicious/noExplicitAny: one loop over eight call shapes
        const res = await t.call(def as any, input as any, { headers: c.creds });
        expect(res.code, def.path).toBe('200');
        expect(res.data).toMatchObject({ type, status: 'sent' });
        expect(res.data.newMsgId).toMatch(/^\d{1,20}$/);
        expect(res.data.createTime).toBeLessThan(10_000_000_000);
      }
      const reply = await until(async () => {
        const h = await t.call(
          messagingCalls.showMsgConsole,
          { wxid, peer: friend, limit: 50 },
          { headers: c.creds },
        );
        return h.data.list.find(
          (m: { direction: string; content: string }) => m.direction === 'in' && m.content.includes('你好呀'),
        );
      }, 'the friend’s reply');
      expect(reply).toMatchObject({ sender: friend, peer: friend, type: 1 });
      const all = await t.call(messagingCalls.showMsgConsole, { wxid, limit: 100 }, { headers: c.creds });
      expect(all.data.list.filter((m: { direction: string }) => m.direction === 'out')).toHaveLength(9);
    });

    it('paces sends through a per-account queue when an interval is configured', async () => {
      const paced = await createTestApp(dialect, { ...MESSAGING_ENV, SEND_INTERVAL_MS: '200' });
      try {
        const pcat = await setUpCatalogue(paced);
        const c = await customerWithSubAccount(paced, pcat);
        const { account } = await loginAccount(paced, { token: c.token });
        const friend = (
          await paced.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token })
        ).data.list[0].wxid;
        const results = [];
        for (let i = 0; i < 3; i++) {
          results.push(
            await paced.call(
              messagingCalls.sendMsgText,
              { wxid: account.wxid, toWxid: friend, content: `第${i}条` },
              { token: c.token },
            ),
          );
        }
        // The first goes at once; the others wait for the interval unless the machine was slower
        // than it between two calls. What must hold either way: order, and the gaps below.
        expect(results[0]!.data.status).toBe('sent');
        for (const r of results) expect(['sent', 'queued']).toContain(r.data.status);
        const sent = await until(
          async () => {
            const h = await paced.call(
              messagingCalls.showMsgConsole,
              { wxid: account.wxid, peer: friend },
              { token: c.token },
            );
            const out = h.data.list.filter((m: { direction: string }) => m.direction === 'out');
            return out.every((m: { status: string }) => m.status === 'sent') && out;
          },
          'the paced queue to drain',
          5000,
        );
        expect(sent.map((m: { content: string }) => m.content).reverse()).toEqual([
          '第0条',
          '第1条',
          '第2条',
        ]);
        const times = (
          await paced.database.db
            .selectFrom('wx_messages')
            .select('sent_at')
            .where('direction', '=', 'out')
            .where('content', 'in', ['第0条', '第1条', '第2条'])
            .orderBy('seq')
            .execute()
        ).map((r) => Number(r.sent_at));
        for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(200);
      } finally {
        await paced.close();
      }
    });

    it('takes a claim back only when its lease ran out, never for the message’s age; an offline account’s stranded messages fail', async () => {
      const { c, account, friend, row } = await onlineWithFriend(t, cat);
      const db = t.database.db;
      const now = Date.now();
      let n = 0;
      const put = async (status: 'queued' | 'sending', claim: string | null, leaseUntil: number | null) => {
        const id = randomUUID();
        n += 1;
        await db
          .insertInto('wx_messages')
          .values({
            ...outgoingRow(row, account.wxid, friend, {
              new_msg_id: `lease-${n}-${now}`,
              content: `租约测试 ${n}`,
              status,
              claim_token: claim,
              lease_until: leaseUntil,
              // Queued ten minutes ago: a paced queue's long wait, which must not count.
              created_at: now - 600_000,
              seq: (now - 600_000) * 1000 + n,
            }),
            id,
          })
          .execute();
        return id;
      };
      const state = (id: string) =>
        db
          .selectFrom('wx_messages')
          .select(['status', 'claim_token', 'error'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();

      // Held: claimed a moment ago by a live process, whatever the message's age.
      const held = await put('sending', 'holder', now + 120_000);
      // Expired while the account is online: back to the queue, then sent once.
      const expired = await put('sending', 'dead-process', now - 1);
      await until(async () => (await state(expired)).status === 'sent', 'the expired claim to be sent', 5000);
      expect(await state(held)).toMatchObject({ status: 'sending', claim_token: 'holder' });

      // The account goes offline: an expired claim and a queued message fail with the reason.
      await t.call(simCalls.kick, { wxid: account.wxid, reason: '当前登录环境异常' }, { token: c.token });
      const stranded = await put('sending', 'dead-process', now - 1);
      const queued = await put('queued', null, null);
      await until(
        async () => (await state(stranded)).status === 'failed' && (await state(queued)).status === 'failed',
        'the stranded messages to fail',
        5000,
      );
      expect(await state(queued)).toMatchObject({ error: '账号已下线，消息未发送' });
      expect(await state(stranded)).toMatchObject({ error: '账号已下线，消息未发送', claim_token: null });
      // The live holder's claim is still its own.
      expect(await state(held)).toMatchObject({ status: 'sending', claim_token: 'holder' });
      // Nobody holds it really: gone, rather than failed by the sweep when its lease ends mid-file.
      await db.deleteFrom('wx_messages').where('id', '=', held).execute();
    });

    it('drains a backlog of queued messages: every message sent once, in queue order; a claimed message is nobody else’s', async () => {
      const { c, account, friend, row } = await onlineWithFriend(t, cat);
      const db = t.database.db;
      // 40 queued, then a send behind them drains the account.
      const now = Date.now();
      const backlog = Array.from({ length: 40 }, (_, i) =>
        outgoingRow(row, account.wxid, friend, {
          new_msg_id: `backlog-${now}-${i}`,
          content: `积压${i}`,
          status: 'queued',
          claim_token: null,
          lease_until: null,
          created_at: now,
          seq: now * 1000 + i,
        }),
      );
      await db.insertInto('wx_messages').values(backlog).execute();

      // A claim takes the oldest still queued, never one claimed already.
      const first = await messagingRepo.claimOldestQueued(db, row.id, 'probe', now + 60_000);
      expect(first?.content).toBe('积压0');
      const next = await messagingRepo.claimOldestQueued(db, row.id, 'other', now + 60_000);
      expect(next?.content).toBe('积压1');
      // Give them back, as an expired lease would.
      await db
        .updateTable('wx_messages')
        .set({ status: 'queued', claim_token: null, lease_until: null })
        .where('claim_token', 'in', ['probe', 'other'])
        .execute();

      const last = await t.call(
        messagingCalls.sendMsgText,
        { wxid: account.wxid, toWxid: friend, content: '积压之后' },
        { token: c.token },
      );
      expect(last.code).toBe('200');
      await until(
        async () => {
          const left = await db
            .selectFrom('wx_messages')
            .select('id')
            .where('wx_account_id', '=', row.id)
            .where('direction', '=', 'out')
            .where('status', 'in', ['queued', 'sending'])
            .execute();
          return left.length === 0;
        },
        'the backlog to be sent',
        15_000,
      );
      const sent = await db
        .selectFrom('wx_messages')
        .select(['content', 'status', 'sent_at', 'seq'])
        .where('wx_account_id', '=', row.id)
        .where('direction', '=', 'out')
        .where((eb) => eb('content', 'like', '积压%'))
        .orderBy('seq')
        .execute();
      expect(sent).toHaveLength(41);
      expect(sent.every((m) => m.status === 'sent')).toBe(true);
      const times = sent.map((m) => Number(m.sent_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // Each sent: the simulated contact answers each text. Its replies are stored on their own
      // path, so the last ones may land just after the sends they answer were settled.
      await until(async () => (await repliesTo(t, row.id)) >= 41, 'a reply to each message');
    });

    /** An app whose messages' callbacks go to a local receiver (answering 2xx), with an online account. */
    async function withCallbackReceiver(
      test: (
        h: { hooked: TestApp; onlineHooked: () => ReturnType<typeof onlineWithFriend> } & Awaited<
          ReturnType<typeof onlineWithFriend>
        >,
      ) => Promise<void>,
      app: TestAppOptions['app'] = {},
      env: Record<string, string> = {},
    ) {
      const receiver = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const hooked = await createTestApp(
        dialect,
        { ...MESSAGING_ENV, CALLBACK_ALLOW_PRIVATE: 'true', ...env },
        { app },
      );
      /** A new company's online account, its sub-account's callbacks to the receiver. */
      const onlineHooked = async () => {
        const online = await onlineWithFriend(hooked, await setUpCatalogue(hooked));
        const { api_account_id: subAccountId } = await hooked.database.db
          .selectFrom('wx_accounts')
          .select('api_account_id')
          .where('id', '=', online.row.id)
          .executeTakeFirstOrThrow();
        const set = await hooked.call(
          callbackCalls.resetCallbackUrl,
          { callbackUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`, subAccountId },
          { token: online.c.token },
        );
        expect(set.code, set.message).toBe('200');
        return online;
      };
      try {
        await test({ hooked, onlineHooked, ...(await onlineHooked()) });
      } finally {
        await hooked.close();
        await new Promise((r) => receiver.close(r));
      }
    }

    /**
     * Every send of each account answered `sent`, stored as its account's outgoing messages (no more,
     * no fewer), each `sent`, and settled once: one "sent" event each, none lost, none twice.
     */
    async function expectEachSentOnce(
      t: TestApp,
      byAccount: Array<[accountId: string, answers: Awaited<ReturnType<typeof sendAtOnce>>]>,
    ) {
      const all = byAccount.flatMap(([, answers]) => answers);
      expect(all.map((a) => a.data.status)).toEqual(Array(all.length).fill('sent'));
      const { db } = t.database;
      for (const [id, answers] of byAccount) {
        const stored = await db
          .selectFrom('wx_messages')
          .select(['id', 'status'])
          .where('wx_account_id', '=', id)
          .where('direction', '=', 'out')
          .execute();
        expect(stored.map((m) => m.id).sort()).toEqual(answers.map((a) => a.data.msgId as string).sort());
        expect(stored.every((m) => m.status === 'sent')).toBe(true);
      }
      const ids = all.map((a) => a.data.msgId as string);
      expect(await sentEventsOf(db)).toEqual(Object.fromEntries(ids.map((msgId) => [msgId, 1])));
    }

    /** The "sent" message_status events stored, counted by message. */
    async function sentEventsOf(db: TestApp['database']['db']) {
      const events = await db
        .selectFrom('callback_events')
        .select('payload')
        .where('type', '=', 'message_status')
        .execute();
      const sent = new Map<string, number>();
      for (const e of events) {
        const data = (JSON.parse(e.payload) as { data: { msgId: string; status: string } }).data;
        if (data.status === 'sent') sent.set(data.msgId, (sent.get(data.msgId) ?? 0) + 1);
      }
      return Object.fromEntries(sent);
    }

    it('concurrent sends of two companies: each settled with its own account\'s "sent" callback', () =>
      withCallbackReceiver(async ({ hooked, onlineHooked, c, account, friend, row }) => {
        // A second company's account on the same app, its callbacks to the same receiver.
        const other = await onlineHooked();
        const { db } = hooked.database;
        const [mine, theirs] = await Promise.all([
          sendAtOnce(hooked, c.token, account.wxid, friend, 12, '甲'),
          sendAtOnce(hooked, other.c.token, other.account.wxid, other.friend, 12, '乙'),
        ]);
        expect([...mine, ...theirs].map((a) => a.data.status)).toEqual(Array(24).fill('sent'));
        const events = await db
          .selectFrom('callback_events')
          .select(['company_id', 'wxid', 'payload'])
          .where('type', '=', 'message_status')
          .execute();
        for (const [a, answers] of [
          [{ company: c.user.id, wxid: account.wxid, id: row.id }, mine],
          [{ company: other.c.user.id, wxid: other.account.wxid, id: other.row.id }, theirs],
        ] as const) {
          const ids = answers.map((x) => x.data.msgId as string);
          const told = events.filter((e) => ids.includes(JSON.parse(e.payload).data.msgId));
          expect(told).toHaveLength(12);
          expect(told.every((e) => e.company_id === a.company && e.wxid === a.wxid)).toBe(true);
          const stored = await db
            .selectFrom('wx_messages')
            .select(['wx_account_id', 'status'])
            .where('id', 'in', ids)
            .execute();
          expect(stored.every((m) => m.wx_account_id === a.id && m.status === 'sent')).toBe(true);
        }
      }));

    it('a loop that runs behind (settles sent as soon as they are made, PostgreSQL): concurrent sends of two accounts, each settled once with its own callback', () =>
      withCallbackReceiver(
        async ({ hooked, onlineHooked, c, account, friend, row }) => {
          const other = await onlineHooked();
          const [mine, theirs] = await Promise.all([
            sendAtOnce(hooked, c.token, account.wxid, friend, 15, '甲'),
            sendAtOnce(hooked, other.c.token, other.account.wxid, other.friend, 15, '乙'),
          ]);
          await expectEachSentOnce(hooked, [
            [row.id, mine],
            [other.row.id, theirs],
          ]);
        },
        { loopLag: { ms: () => 50, stop: async () => {} } },
      ));

    it('requests that wait in line for a slice (lib/request-slices.ts): concurrent sends of two accounts and reads, each answered, sent once, one "sent" callback each', () =>
      withCallbackReceiver(
        async ({ hooked, onlineHooked, c, account, friend, row }) => {
          const other = await onlineHooked();
          // A clock that moves 2 ms at every reading: past the first request of a poll phase its
          // 1 ms is spent, and every request after it waits in line; a slice serves one at a time.
          const clock = performance.now.bind(performance);
          let skew = 0;
          vi.spyOn(performance, 'now').mockImplementation(() => {
            skew += 2;
            return clock() + skew;
          });
          let mostInLine = 0;
          const sampler = setInterval(() => {
            mostInLine = Math.max(mostInLine, requestsInLine());
          }, 1);
          type Answers = Awaited<ReturnType<typeof sendAtOnce>>;
          let answers: [Answers, Answers];
          let reads: Array<{ code: string }>;
          try {
            [answers, reads] = await Promise.all([
              Promise.all([
                sendAtOnce(hooked, c.token, account.wxid, friend, 15, '甲'),
                sendAtOnce(hooked, other.c.token, other.account.wxid, other.friend, 15, '乙'),
              ]),
              Promise.all(
                Array.from({ length: 10 }, () =>
                  hooked.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token }),
                ),
              ),
            ]);
          } finally {
            clearInterval(sampler);
            vi.restoreAllMocks();
          }
          expect(mostInLine).toBeGreaterThan(0); // the line was used
          expect(requestsInLine()).toBe(0);
          expect(reads.map((r) => r.code)).toEqual(Array(10).fill('200'));
          const [mine, theirs] = answers;
          await expectEachSentOnce(hooked, [
            [row.id, mine],
            [other.row.id, theirs],
          ]);
        },
        {},
        { REQUEST_SLICE_MS: '1' },
      ));

    it('concurrent sends of one account: each answered sent, sent once, one "sent" callback each', () =>
      withCallbackReceiver(async ({ hooked, c, account, friend, row }) => {
        // Sent together: each waits for its turn in the account's drain, none is lost or sent twice.
        const answers = await sendAtOnce(hooked, c.token, account.wxid, friend, 30, '并发');
        for (const a of answers) expect(a.code, a.message).toBe('200');
        expect(answers.map((a) => a.data.status)).toEqual(Array(30).fill('sent'));
        const db = hooked.database.db;
        const sent = await db
          .selectFrom('wx_messages')
          .select(['id', 'status'])
          .where('wx_account_id', '=', row.id)
          .where('direction', '=', 'out')
          .execute();
        expect(sent).toHaveLength(30);
        expect(sent.every((m) => m.status === 'sent')).toBe(true);
        // (Concurrent calls have no order among themselves: on PostgreSQL their inserts commit in any.)
        // Each sent once: the simulated contact answered each text once.
        await until(async () => (await repliesTo(hooked, row.id)) >= 30, 'a reply to each message');
        expect(await sentEventsOf(db)).toEqual(Object.fromEntries(sent.map((m) => [m.id, 1])));
      }));

    it('a send whose outcome cannot be written with its event is still settled once, its event stored alone', () =>
      withCallbackReceiver(async ({ hooked, c, account, friend, row }) => {
        // The outbox refuses events written together with a change, once (SQLite: inside the
        // transaction; PostgreSQL: the one statement); an event stored on its own still goes in.
        const sink = hooked.app.services.callbacks;
        const { store, storeAbout } = sink;
        let refused = 0;
        sink.store = (event, within) => {
          if (within && refused === 0) {
            refused += 1;
            throw new Error('the outbox is down');
          }
          return store(event, within);
        };
        sink.storeAbout = (change, events) => {
          if (refused === 0) {
            refused += 1;
            return Promise.reject(new Error('the outbox is down'));
          }
          return storeAbout(change, events);
        };
        try {
          const sent = await hooked.call(
            messagingCalls.sendMsgText,
            { wxid: account.wxid, toWxid: friend, content: '回调表暂时不可用' },
            { token: c.token },
          );
          expect(sent.code, sent.message).toBe('200');
          expect(sent.data.status).toBe('sent');
          expect(refused).toBe(1);
          const rows = await hooked.database.db
            .selectFrom('wx_messages')
            .select(['id', 'status', 'claim_token'])
            .where('wx_account_id', '=', row.id)
            .where('direction', '=', 'out')
            .execute();
          expect(rows).toEqual([{ id: sent.data.msgId, status: 'sent', claim_token: null }]);
          await until(
            async () => (await sentEventsOf(hooked.database.db))[sent.data.msgId] === 1,
            'its event',
          );
        } finally {
          sink.store = store;
          sink.storeAbout = storeAbout;
        }
      }));

    it('a message stored already claimed renews a lease that would not outlast its send, and is sent once; only the holder renews', async () => {
      // A lease shorter than a send's timeout plus the margin: every claimed message renews before it goes.
      const short = await createTestApp(
        dialect,
        { ...MESSAGING_ENV, SEND_TIMEOUT_MS: '1000' },
        { app: { sendLeaseMs: 20_000 } },
      );
      try {
        const c = await customerWithSubAccount(short, await setUpCatalogue(short));
        const { account } = await loginAccount(short, { token: c.token });
        const friend = (
          await short.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token })
        ).data.list[0].wxid;
        // Five at once: all but the first wait their turn behind the account's other sends.
        const answers = await sendAtOnce(short, c.token, account.wxid, friend, 5, '续租');
        expect(answers.map((r) => r.data.status)).toEqual(Array(5).fill('sent'));
        const db = short.database.db;
        const out = await db
          .selectFrom('wx_messages')
          .select(['id', 'status', 'claim_token', 'wx_account_id', 'company_id'])
          .where('direction', '=', 'out')
          .where('content', 'like', '续租%')
          .execute();
        expect(out.map((m) => [m.status, m.claim_token])).toEqual(Array(5).fill(['sent', null]));

        // Only the claim's holder renews, and only while the message is being sent.
        const id = randomUUID();
        const now = Date.now();
        await db
          .insertInto('wx_messages')
          .values({
            id,
            company_id: out[0]!.company_id,
            wx_account_id: out[0]!.wx_account_id,
            new_msg_id: `renew-${now}`,
            direction: 'out',
            peer: friend,
            sender: account.wxid,
            type: 1,
            app_type: null,
            content: '续租检查',
            media: null,
            status: 'sending',
            error: null,
            claim_token: 'holder',
            lease_until: now + 1000,
            create_time: Math.floor(now / 1000),
            created_at: now,
            seq: now * 1000,
          })
          .execute();
        expect(await messagingRepo.renewClaim(db, id, 'someone-else', now + 60_000)).toBe(false);
        expect(await messagingRepo.renewClaim(db, id, 'holder', now + 60_000)).toBe(true);
        const renewed = await db
          .selectFrom('wx_messages')
          .select('lease_until')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(Number(renewed.lease_until)).toBe(now + 60_000);
        await messagingRepo.settleMessage(db, id, 'holder', 'sent', null);
        expect(await messagingRepo.renewClaim(db, id, 'holder', now + 120_000)).toBe(false);
      } finally {
        await short.close();
      }
    });

    it('a QR code made by one process is scanned and confirmed through another, as the same person', async () => {
      const shared = await sharedDatabase(dialect);
      const apps: TestApp[] = [];
      try {
        for (let i = 0; i < 2; i++) apps.push(await createTestApp(dialect, MESSAGING_ENV, shared.options));
        const [maker, phone] = apps as [TestApp, TestApp];
        const c = await customerWithSubAccount(maker, await setUpCatalogue(maker));
        const { instanceId } = (await maker.call(messagingCalls.getQrCode, {}, { headers: c.creds })).data;
        const page = (await maker.call(simCalls.scanStatus, { instanceId })).data;
        // The phone's process never made this code: it reads which device the code is for.
        expect((await phone.call(simCalls.scanAction, { instanceId, action: 'scan' })).data.state).toBe(
          'scanned',
        );
        const again = await phone.call(simCalls.scanAction, { instanceId, action: 'scan' });
        expect(again).toMatchObject({ status: 409 });
        expect(again.message).toContain('秒没');
        expect((await phone.call(simCalls.scanAction, { instanceId, action: 'confirm' })).data.state).toBe(
          'confirmed',
        );
        const done = (await maker.call(messagingCalls.checkQrCode, { instanceId }, { headers: c.creds }))
          .data;
        expect(done.scanner.nickname).toBe(page.person.nickname);
        expect(done.account).toMatchObject({ wxid: page.person.wxid, status: 'online' });
      } finally {
        for (const x of apps) await x.close();
        await shared.dispose();
      }
    });

    it('paces one account’s sends exactly, sent by three processes on one database', async () => {
      const shared = await sharedDatabase(dialect);
      const interval = 150;
      const apps: TestApp[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          apps.push(
            await createTestApp(
              dialect,
              { ...MESSAGING_ENV, SEND_INTERVAL_MS: String(interval) },
              shared.options,
            ),
          );
        }
        const a = apps[0]!;
        const c = await customerWithSubAccount(a, await setUpCatalogue(a));
        const { account } = await loginAccount(a, { token: c.token });
        const friend = (
          await a.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token })
        ).data.list[0].wxid;
        const answers = await Promise.all(
          Array.from({ length: 9 }, (_, i) =>
            apps[i % 3]!.call(
              messagingCalls.sendMsgText,
              { wxid: account.wxid, toWxid: friend, content: `第${i}条` },
              { token: c.token },
            ),
          ),
        );
        expect(answers.map((r) => r.code)).toEqual(Array(9).fill('200'));
        const rows = await until(
          async () => {
            const out = await a.database.db
              .selectFrom('wx_messages')
              .innerJoin('wx_accounts', 'wx_accounts.id', 'wx_messages.wx_account_id')
              .select(['wx_messages.status', 'wx_messages.sent_at'])
              .where('wx_accounts.wxid', '=', account.wxid)
              .where('wx_messages.direction', '=', 'out')
              .execute();
            return out.length === 9 && out.every((m) => m.status === 'sent') && out;
          },
          'the nine messages to be sent',
          15_000,
        );
        const times = rows.map((m) => Number(m.sent_at)).sort((x, y) => x - y);
        const gaps = times.slice(1).map((t, i) => t - times[i]!);
        expect(Math.min(...gaps)).toBeGreaterThanOrEqual(interval);
      } finally {
        for (const x of apps) await x.close();
        await shared.dispose();
      }
    });

    it('an unreachable contact makes the send fail; a kicked account stops sending', async () => {
      const c = await customerWithSubAccount(t, cat);
      const { account } = await loginAccount(t, { token: c.token });
      const friend = (await t.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token }))
        .data.list[0].wxid;
      const send = () =>
        t.call(
          messagingCalls.sendMsgText,
          { wxid: account.wxid, toWxid: friend, content: 'hi' },
          { token: c.token },
        );
      // Sent first: the simulator keeps a copy of the contact, which the change must drop.
      expect((await send()).data.status).toBe('sent');
      await t.call(
        simCalls.setUnreachable,
        { wxid: account.wxid, contactWxid: friend, unreachable: true },
        { token: c.token },
      );
      const failed = await t.call(
        messagingCalls.sendMsgText,
        { wxid: account.wxid, toWxid: friend, content: 'hi' },
        { token: c.token },
      );
      expect(failed.data.status).toBe('failed');
      const h = await t.call(
        messagingCalls.showMsgConsole,
        { wxid: account.wxid, peer: friend },
        { token: c.token },
      );
      expect(h.data.list[0]).toMatchObject({ status: 'failed', error: '对方账号异常，消息发送失败' });
      await t.call(
        simCalls.setUnreachable,
        { wxid: account.wxid, contactWxid: friend, unreachable: false },
        { token: c.token },
      );
      expect((await send()).data.status).toBe('sent');

      await t.call(simCalls.kick, { wxid: account.wxid, reason: '当前登录环境异常' }, { token: c.token });
      const auth = await t.call(messagingCalls.getAuth, { wxid: account.wxid }, { token: c.token });
      expect(auth.data).toMatchObject({ status: 'offline', logoutReason: '当前登录环境异常' });
      expect(
        await t.call(
          messagingCalls.sendMsgText,
          { wxid: account.wxid, toWxid: friend, content: 'hi' },
          { token: c.token },
        ),
      ).toMatchObject({ code: '40023' });
      const rec = await t.call(recordCalls.queryWxLoginRecord, {}, { token: c.token });
      expect(rec.data.list[0]).toMatchObject({ logoutReason: '当前登录环境异常' });
      expect(rec.data.list[0].endedAt).toBeGreaterThan(0);
    });

    it('sends and received messages start from the account as this process last stored one for it; a change made elsewhere counts at the next', async () => {
      // Changes made by hand, as another process (or an operator's SQL) would make them: nothing
      // tells this process, the inserts themselves find out.
      const app = await createTestApp(dialect, { ...MESSAGING_ENV, ...PRIVATE_OK });
      const rec = await receiver();
      try {
        const c = await customerWithSubAccount(app, await setUpCatalogue(app));
        const opened = await app.call(
          apiAccountCalls.openApiAccount,
          { name: 'B', availableNum: 1, callbackUrl: rec.url },
          { token: c.token },
        );
        const subB = opened.data.account.id as string;
        const credsB = { 'x-app-key': opened.data.account.appKey, 'x-app-secret': opened.data.appSecret };
        const { account } = await loginAccount(app, { headers: c.creds });
        const wxid = account.wxid;
        const book = await app.call(messagingCalls.getAddressList, { wxid }, { token: c.token });
        const friend = book.data.list.find((x: { kind: string }) => x.kind === 'friend').wxid as string;
        const { db } = app.database;
        const row = await db
          .selectFrom('wx_accounts')
          .select('id')
          .where('wxid', '=', wxid)
          .executeTakeFirstOrThrow();
        const setAccount = (patch: {
          status?: 'online' | 'offline';
          api_account_id?: string;
          current_login_id?: string;
        }) => db.updateTable('wx_accounts').set(patch).where('id', '=', row.id).execute();
        const send = (headers: Record<string, string>) =>
          app.call(messagingCalls.sendMsgText, { wxid, toWxid: friend, content: 'hi' }, { headers });
        const events = () =>
          rec.got.map(
            (r) => JSON.parse(r.body) as { type: string; subAccountId: string; data: { content?: string } },
          );
        expect((await send(c.creds)).data.status).toBe('sent'); // known here now, under sub-account A

        // Logged in again elsewhere, under sub-account B (which has a callback URL): a message
        // received is told to B, A's credentials no longer reach the account, B's send from it.
        await setAccount({ api_account_id: subB, current_login_id: 'a-login-elsewhere' });
        const inj = await app.call(
          simCalls.injectMessage,
          { wxid, fromWxid: friend, content: '换了子账号' },
          { token: c.token },
        );
        expect(inj.code).toBe('200');
        expect(
          await waitFor('the message event at B', () =>
            events().find((e) => e.type === 'message' && e.data.content === '换了子账号'),
          ),
        ).toMatchObject({ subAccountId: subB });
        expect(await send(c.creds)).toMatchObject({ status: 404 });
        const delivered = rec.got.length;
        expect((await send(credsB)).data.status).toBe('sent');
        // Its "sent" callback and the contact's reply (stored, with its callback) land after the
        // answer: let them, so the counts below change only by what a refused send would write.
        await waitFor(
          'the send’s callbacks delivered and settled',
          async () =>
            rec.got.length >= delivered + 2 &&
            Number(
              (
                await db
                  .selectFrom('callback_events')
                  .select((eb) => eb.fn.countAll().as('n'))
                  .where('status', '=', 'pending')
                  .executeTakeFirstOrThrow()
              ).n,
            ) === 0,
        );

        // Taken offline elsewhere: refused as offline, nothing stored; a message for it is dropped.
        await setAccount({ status: 'offline' });
        const before = await tableCounts(app.database);
        expect(await send(credsB)).toMatchObject({ code: '40023' });
        expect(await tableCounts(app.database)).toEqual(before);
        await setAccount({ status: 'online' });

        // The package ended (by hand): refused for that, nothing stored.
        const subscription = await db
          .selectFrom('subscriptions')
          .select(['id', 'ends_at'])
          .where('company_id', '=', c.user.id)
          .executeTakeFirstOrThrow();
        await db
          .updateTable('subscriptions')
          .set({ ends_at: Date.now() - 1 })
          .where('id', '=', subscription.id)
          .execute();
        expect(await send(credsB)).toMatchObject({ code: '40021' });
        expect(await tableCounts(app.database)).toEqual(before);
        await db
          .updateTable('subscriptions')
          .set({ ends_at: subscription.ends_at })
          .where('id', '=', subscription.id)
          .execute();
        expect((await send(credsB)).data.status).toBe('sent');
      } finally {
        await rec.close();
        await app.close();
      }
    });

    it('a text with half an emoji is stored with U+FFFD in its place, and the sends beside it are not affected', async () => {
      const { c, account, friend, row } = await onlineWithFriend(t, cat);
      const contents = ['之前', '半个\ud83d表情', '之后'];
      const answers = await Promise.all(
        contents.map((content) =>
          t.call(
            messagingCalls.sendMsgText,
            { wxid: account.wxid, toWxid: friend, content },
            { token: c.token },
          ),
        ),
      );
      expect(answers.map((a) => a.data?.status)).toEqual(['sent', 'sent', 'sent']);
      const stored = await t.database.db
        .selectFrom('wx_messages')
        .select(['id', 'content'])
        .where('wx_account_id', '=', row.id)
        .where(
          'id',
          'in',
          answers.map((a) => a.data.msgId as string),
        )
        .execute();
      expect(stored.map((m) => m.content).sort()).toEqual(['之前', '之后', '半个\ufffd表情'].sort());
    });

    it('messages received at once by several accounts are each stored by their own account state', async () => {
      const withFriend = async () => {
        const a = await onlineWithFriend(t, cat);
        const book = await t.call(
          messagingCalls.getAddressList,
          { wxid: a.account.wxid },
          { token: a.c.token },
        );
        return {
          ...a,
          friend: book.data.list.find((k: { kind: string }) => k.kind === 'friend').wxid as string,
        };
      };
      const x = await withFriend();
      const y = await withFriend();
      // Both known to this process (a message stored for each), then Y logged in again elsewhere by
      // hand: its messages are refused under the login this process knows, read again, and stored.
      for (const a of [x, y])
        await t.call(
          simCalls.injectMessage,
          { wxid: a.account.wxid, fromWxid: a.friend, content: '先来一条' },
          { token: a.c.token },
        );
      await t.database.db
        .updateTable('wx_accounts')
        .set({ current_login_id: 'a-login-elsewhere' })
        .where('id', '=', y.row.id)
        .execute();
      // Counted from the friend only: the simulated rooms may chatter meanwhile.
      const fromFriend = async (a: typeof x) =>
        Number(
          (
            await t.database.db
              .selectFrom('wx_messages')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('wx_account_id', '=', a.row.id)
              .where('direction', '=', 'in')
              .where('peer', '=', a.friend)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = [await fromFriend(x), await fromFriend(y)];
      const calls = [x, x, x, y, y].map((a, i) =>
        t.call(
          simCalls.injectMessage,
          { wxid: a.account.wxid, fromWxid: a.friend, content: `同时 ${i}` },
          { token: a.c.token },
        ),
      );
      for (const r of await Promise.all(calls)) expect(r.data.msgId).not.toBe('');
      expect([await fromFriend(x), await fromFriend(y)]).toEqual([before[0]! + 3, before[1]! + 2]);
    });

    it.runIf(dialect === 'postgres')(
      'stores many received messages in one statement, each only under its login',
      async () => {
        const x = await onlineWithFriend(t, cat);
        const y = await onlineWithFriend(t, cat);
        const { db } = t.database;
        const logins = await db
          .selectFrom('wx_accounts')
          .select(['id', 'current_login_id'])
          .where('id', 'in', [x.row.id, y.row.id])
          .execute();
        const loginOf = (id: string) => logins.find((l) => l.id === id)!.current_login_id;
        const now = Date.now();
        const message = (a: typeof x, i: number) => ({
          id: randomUUID(),
          company_id: a.row.company_id,
          wx_account_id: a.row.id,
          new_msg_id: String(9_000_000_000 + i),
          direction: 'in' as const,
          peer: a.friend,
          sender: a.friend,
          type: 1,
          app_type: null,
          content: `一起 "${i}" 😀`,
          media: null,
          status: 'sent' as const,
          error: null,
          claim_token: null,
          lease_until: null,
          sent_at: null,
          create_time: Math.floor(now / 1000),
          created_at: now,
          seq: now * 1000 + i,
        });
        const rows = [
          { row: message(x, 1), loginId: loginOf(x.row.id) },
          { row: message(y, 2), loginId: 'not-its-login' },
          { row: message(x, 3), loginId: loginOf(x.row.id) },
          { row: message(y, 4), loginId: loginOf(y.row.id) },
        ];
        const change = messagingRepo.insertReceivedManyStatement(rows);
        const stored = await sql<{ id: string }>`${change.build(db, ...change.args)}`.execute(db);
        const ids = [rows[0]!, rows[2]!, rows[3]!].map((r) => r.row.id);
        expect(stored.rows.map((r) => r.id).sort()).toEqual([...ids].sort());
        const kept = await db
          .selectFrom('wx_messages')
          .selectAll()
          .where(
            'id',
            'in',
            rows.map((r) => r.row.id),
          )
          .execute();
        expect(kept.map((m) => m.id).sort()).toEqual([...ids].sort());
        expect(kept.find((m) => m.id === rows[0]!.row.id)).toEqual(rows[0]!.row);
      },
    );

    it.runIf(dialect === 'postgres')(
      'stores many sends in one statement, each decided as it would be alone',
      async () => {
        // Its own app without the gateway's worker: the rows written here stay as written. In the
        // shared app the sweep would send Z's queued messages at once and the claimed ones when their
        // leases end, a minute later, with a reply each landing in whichever test runs then.
        const still = await createTestApp(dialect, MESSAGING_ENV, { app: { gatewayWorker: false } });
        try {
          await storesManySends(still, await setUpCatalogue(still));
        } finally {
          await still.close();
        }
      },
    );

    /** insertClaimedManyUnlessQueuedWith on an app whose queues nothing drains (see its caller). */
    async function storesManySends(app: TestApp, catalogue: Catalogue) {
      const [x, y, z] = [
        await onlineWithFriend(app, catalogue),
        await onlineWithFriend(app, catalogue),
        await onlineWithFriend(app, catalogue),
      ];
      const { db } = app.database;
      const logins = await db
        .selectFrom('wx_accounts')
        .select(['id', 'current_login_id'])
        .where('id', 'in', [x.row.id, y.row.id, z.row.id])
        .execute();
      const loginOf = (id: string) => logins.find((l) => l.id === id)!.current_login_id;
      const now = Date.now();
      // Z has an older message waiting in its queue.
      await db
        .insertInto('wx_messages')
        .values(
          outgoingRow(z.row, z.account.wxid, z.friend, {
            new_msg_id: `older-${now}`,
            content: '排队中',
            status: 'queued',
            claim_token: null,
            lease_until: null,
            created_at: now - 1000,
            seq: (now - 1000) * 1000,
          }),
        )
        .execute();
      const send = (a: typeof x, i: number, loginId = loginOf(a.row.id)) => ({
        row: {
          ...outgoingRow(a.row, a.account.wxid, a.friend, {
            new_msg_id: String(8_000_000_000 + i),
            content: `批量 "${i}" 😀`,
            status: 'queued',
            claim_token: null,
            lease_until: null,
            created_at: now,
            seq: now * 1000 + i,
          }),
          sent_at: null,
        },
        claim: { token: `token-${i}`, leaseUntil: now + 60_000 + i, loginId },
      });
      const insertMany = messagingRepo.insertClaimedManyUnlessQueuedWith(packagesRepo.activeSlotsOf);
      const sends = [send(x, 1), send(y, 2, 'not-its-login'), send(x, 3), send(z, 4)];
      expect(await insertMany(db, sends, now)).toEqual(['sending', undefined, 'sending', 'queued']);
      const kept = await db
        .selectFrom('wx_messages')
        .select(['id', 'status', 'claim_token', 'lease_until', 'content'])
        .where(
          'id',
          'in',
          sends.map((s) => s.row.id),
        )
        .orderBy('seq')
        .execute();
      expect(kept).toEqual([
        {
          id: sends[0]!.row.id,
          status: 'sending',
          claim_token: 'token-1',
          lease_until: now + 60_001,
          content: '批量 "1" 😀',
        },
        {
          id: sends[2]!.row.id,
          status: 'sending',
          claim_token: 'token-3',
          lease_until: now + 60_003,
          content: '批量 "3" 😀',
        },
        {
          id: sends[3]!.row.id,
          status: 'queued',
          claim_token: null,
          lease_until: null,
          content: '批量 "4" 😀',
        },
      ]);
      // No package in force at that time: nothing stored.
      const later = [send(x, 5)];
      expect(await insertMany(db, later, now + 100 * 365 * 86_400_000)).toEqual([undefined]);
    }

    it('incoming pictures are downloadable through a signed, expiring link', async () => {
      const c = await customerWithSubAccount(t, cat);
      const { account } = await loginAccount(t, { token: c.token });
      const friend = (await t.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token }))
        .data.list[0].wxid;
      await t.call(
        messagingCalls.sendMsgText,
        { wxid: account.wxid, toWxid: friend, content: '发张图片看看' },
        { token: c.token },
      );
      const pic = await until(async () => {
        const h = await t.call(
          messagingCalls.showMsgConsole,
          { wxid: account.wxid, peer: friend },
          { token: c.token },
        );
        return h.data.list.find(
          (m: { type: number; direction: string }) => m.type === 3 && m.direction === 'in',
        );
      }, 'a picture from the friend');
      const link = await t.call(
        messagingCalls.getMsgImg,
        { wxid: account.wxid, msgId: pic.msgId },
        { token: c.token },
      );
      expect(link.data.mime).toBe('image/svg+xml');
      const path = link.data.url.replace('http://127.0.0.1:8080', '');
      const file = await t.app.inject({ method: 'GET', url: path });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-security-policy']).toContain('sandbox');
      expect(file.body).toContain('<svg');
      expect(
        (await t.app.inject({ method: 'GET', url: path.replace(/sig=[0-9a-f]{4}/, 'sig=0000') })).statusCode,
      ).toBe(404);
      expect(
        await t.call(
          messagingCalls.getMsgVideo,
          { wxid: account.wxid, msgId: pic.msgId },
          { token: c.token },
        ),
      ).toMatchObject({ status: 400 });
    });
  });

  describe('contacts', () => {
    it('syncs the address list asynchronously, and reads contacts and group members', async () => {
      const c = await customerWithSubAccount(t, cat);
      const { account } = await loginAccount(t, { token: c.token });
      const wxid = account.wxid;
      expect(
        (await t.call(messagingCalls.getInitAddressListRes, { wxid }, { token: c.token })).data.status,
      ).toBe('none');
      const job = await t.call(messagingCalls.syncInitAddressList, { wxid }, { token: c.token });
      expect(job.data.status).toBe('running');
      const res = await until(async () => {
        const r = await t.call(messagingCalls.getInitAddressListRes, { wxid }, { token: c.token });
        return r.data.status === 'done' && r.data;
      }, 'the address list sync');
      expect(res.friends.length).toBeGreaterThan(5);
      expect(res.chatrooms.every((id: string) => id.endsWith('@chatroom'))).toBe(true);
      const detail = await t.call(
        messagingCalls.getContact,
        { wxid, ids: [res.friends[0], 'wxid_nobody'] },
        { token: c.token },
      );
      expect(detail.data.list).toHaveLength(1);
      const room = await t.call(
        messagingCalls.getChatRoomMember,
        { wxid, roomId: res.chatrooms[0] },
        { token: c.token },
      );
      expect(room.data.members.length).toBeGreaterThan(3);
      expect(room.data.members.map((m: { wxid: string }) => m.wxid)).toContain(wxid);
      expect(
        await t.call(messagingCalls.getChatRoomMember, { wxid, roomId: '1@chatroom' }, { token: c.token }),
      ).toMatchObject({ status: 404 });
    });
  });

  describe('who may call', () => {
    it('sub-account A cannot see or drive sub-account B’s accounts; another company gets not-found', async () => {
      const c = await customerWithSubAccount(t, cat, 1);
      const b = await t.call(
        apiAccountCalls.openApiAccount,
        { name: 'B', availableNum: 1 },
        { token: c.token },
      );
      const credsB = { 'x-app-key': b.data.account.appKey, 'x-app-secret': b.data.appSecret };
      const { account, instanceId } = await loginAccount(t, { headers: c.creds });
      const other = await customerWithSubAccount(t, cat);
      for (const auth of [{ headers: credsB }, { token: other.token }, { headers: other.creds }]) {
        expect(await t.call(messagingCalls.getAuth, { wxid: account.wxid }, auth)).toMatchObject({
          status: 404,
        });
        expect(await t.call(messagingCalls.logout, { wxid: account.wxid }, auth)).toMatchObject({
          status: 404,
        });
        expect(
          await t.call(messagingCalls.sendMsgText, { wxid: account.wxid, toWxid: 'x', content: 'x' }, auth),
        ).toMatchObject({ status: 404 });
        expect(await t.call(messagingCalls.checkQrCode, { instanceId }, auth)).toMatchObject({ status: 404 });
        expect(await t.call(simCalls.kick, { wxid: account.wxid }, auth)).toMatchObject({ status: 404 });
      }
      expect(
        (await t.call(messagingCalls.getAuth, { wxid: account.wxid }, { token: c.token })).data.status,
      ).toBe('online');
      expect(
        await t.call(messagingCalls.getQrCode, { subAccountId: c.sub.id }, { headers: credsB }),
      ).toMatchObject({ status: 404 });
    });

    it('refuses bad, recovered and missing credentials, and operators', async () => {
      const c = await customerWithSubAccount(t, cat);
      expect(await t.call(messagingCalls.proxyList, {})).toMatchObject({ status: 401, code: '403' });
      expect(
        await t.call(
          messagingCalls.proxyList,
          {},
          { headers: { 'x-app-key': c.sub.appKey, 'x-app-secret': 'sk_wrong' } },
        ),
      ).toMatchObject({ code: '403' });
      expect(
        (await t.call(messagingCalls.proxyList, {}, { headers: c.creds })).data.list.length,
      ).toBeGreaterThan(0);
      await t.call(apiAccountCalls.recoveryApiAccount, { id: c.sub.id }, { token: c.token });
      expect(await t.call(messagingCalls.proxyList, {}, { headers: c.creds })).toMatchObject({ code: '403' });
      expect(await t.call(messagingCalls.proxyList, {}, { token: cat.admin.token })).toMatchObject({
        status: 403,
        code: '40300',
      });
    });

    it('accepts signed requests once (nonce) within the time window', async () => {
      const c = await customerWithSubAccount(t, cat);
      const body = '{}';
      const send = (ts: string, nonce: string, sig?: string) =>
        t.app.inject({
          method: 'POST',
          url: messagingCalls.proxyList.path,
          headers: {
            'content-type': 'application/json',
            ...signedHeaders(c, body, { timestamp: ts, nonce }),
            ...(sig ? { 'x-signature': sig } : {}),
          },
          payload: body,
        });
      const now = String(Math.floor(Date.now() / 1000));
      expect((await send(now, 'nonce-0001')).json().code).toBe('200');
      expect((await send(now, 'nonce-0001')).json().message).toContain('nonce 已使用');
      expect((await send(now, 'nonce-0002', '0'.repeat(64))).json().message).toBe('签名错误');
      expect((await send(String(Number(now) - 600), 'nonce-0003')).json().message).toContain('超过 5 分钟');
    });

    it('signs the exact body bytes: the same JSON spelt differently is refused', async () => {
      const c = await customerWithSubAccount(t, cat);
      const res = await t.app.inject({
        method: 'POST',
        url: messagingCalls.proxyList.path,
        headers: { 'content-type': 'application/json', ...signedHeaders(c, '{}') },
        payload: '{ }',
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: '403', message: '签名错误' });
    });

    it('a signature binds method and path: the same signed body sent to another call is refused', async () => {
      const c = await customerWithSubAccount(t, cat);
      const headers = { 'content-type': 'application/json', ...signedHeaders(c, '{}') }; // signed for proxyList
      const other = await t.app.inject({
        method: 'POST',
        url: callbackCalls.listDeliveries.path,
        headers,
        payload: '{}',
      });
      expect(other.json()).toMatchObject({ code: '403', message: '签名错误' });
      // An encoded spelling of the signed call's own address is the same call.
      const encoded = await t.app.inject({
        method: 'POST',
        url: '/%61pi/msg/proxyList',
        headers: { 'content-type': 'application/json', ...signedHeaders(c, '{}') },
        payload: '{}',
      });
      expect(encoded.json().code).toBe('200');
    });

    it('accepts a signed request with an empty body (with or without a content type)', async () => {
      const c = await customerWithSubAccount(t, cat);
      for (const contentType of [{ 'content-type': 'application/json' }, {}]) {
        const res = await t.app.inject({
          method: 'POST',
          url: messagingCalls.proxyList.path,
          headers: { ...contentType, ...signedHeaders(c, '') },
        });
        expect(res.json().code, JSON.stringify(contentType)).toBe('200');
      }
    });

    it('a signed upload covers the file: a swapped file is refused and nothing is stored', async () => {
      const c = await customerWithSubAccount(t, cat);
      const boundary = '----wxc-signed';
      const form = (file: Buffer) =>
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          file,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
      const png = (fill: string) =>
        Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(fill.repeat(64))]);
      const signedFor = form(png('a'));
      const swapped = form(png('b')); // same length, other bytes
      const upload = (payload: Buffer, headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: fileCalls.getSourceUrl.path,
          headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload,
        });
      const before = await quietTableCounts(t.database);

      const refused = await upload(
        swapped,
        signedHeaders(c, signedFor, { path: fileCalls.getSourceUrl.path }),
      );
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: '403', message: '签名错误' });
      // The old string to sign put "{}" in place of any multipart body: that must not authorise a file.
      const nonce = `old-${randomUUID()}`;
      const timestamp = String(Math.floor(Date.now() / 1000));
      const legacy = createHmac('sha256', sha256hex(c.creds['x-app-secret']))
        .update(`${c.sub.appKey}\n${timestamp}\n${nonce}\n{}`)
        .digest('hex');
      const old = await upload(signedFor, {
        'x-app-key': c.sub.appKey,
        'x-timestamp': timestamp,
        'x-nonce': nonce,
        'x-signature': legacy,
      });
      expect(old.json()).toMatchObject({ code: '403', message: '签名错误' });
      expect(changedTables(before, await tableCounts(t.database))).toEqual({});

      const accepted = await upload(
        signedFor,
        signedHeaders(c, signedFor, { path: fileCalls.getSourceUrl.path }),
      );
      expect(accepted.json().code).toBe('200');
      expect(accepted.json().data).toMatchObject({ mime: 'image/png', size: png('a').length });
      const file = await t.app.inject({
        method: 'GET',
        url: accepted.json().data.url.replace('http://127.0.0.1:8080', ''),
      });
      expect(file.rawPayload.equals(png('a'))).toBe(true);
    });

    it('a signed upload over a real connection (the request stream, not an injected one)', async () => {
      const c = await customerWithSubAccount(t, cat);
      const boundary = '----wxc-socket';
      const file = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(256 * 1024, 7)]);
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const server = http.createServer((req, res) => t.app.routing(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${fileCalls.getSourceUrl.path}`;
        const send = (headers: Record<string, string>) =>
          fetch(url, {
            method: 'POST',
            headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
            body: payload,
          }).then((r) => r.json());
        expect(await send(signedHeaders(c, payload, { path: fileCalls.getSourceUrl.path }))).toMatchObject({
          code: '200',
          data: { size: file.length },
        });
        const other = Buffer.from(payload);
        other.writeUInt8(other.readUInt8(other.length - 100) ^ 1, other.length - 100); // one bit of the file
        expect(await send(signedHeaders(c, other, { path: fileCalls.getSourceUrl.path }))).toMatchObject({
          code: '403',
          message: '签名错误',
        });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('refuses a signed request with an unknown key or a stale timestamp before reading its body', async () => {
      const c = await customerWithSubAccount(t, cat);
      const server = http.createServer((req, res) => t.app.routing(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      // Announces 10 MB and sends a few bytes: the answer must come without the rest.
      const answer = (headers: Record<string, string>) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request({
            host: '127.0.0.1',
            port: (server.address() as AddressInfo).port,
            method: 'POST',
            path: fileCalls.getSourceUrl.path,
            headers: {
              ...headers,
              'content-type': 'multipart/form-data; boundary=x',
              'content-length': String(10 * 1024 * 1024),
            },
          });
          req.on('response', (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.write('--x\r\n');
        });
      try {
        const stranger = await answer(signedHeaders({ ...c, sub: { appKey: 'ak_nobody' } }, 'x'));
        expect(stranger.status).toBe(401);
        expect(JSON.parse(stranger.body).message).toContain('API 凭证无效');
        const stale = await answer(
          signedHeaders(c, 'x', { timestamp: String(Math.floor(Date.now() / 1000) - 3600) }),
        );
        expect(JSON.parse(stale.body).message).toContain('超过 5 分钟');
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('refuses a signed body over the size limit with 413', async () => {
      const c = await customerWithSubAccount(t, cat);
      const body = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) });
      const res = await t.app.inject({
        method: 'POST',
        url: messagingCalls.proxyList.path,
        headers: { 'content-type': 'application/json', ...signedHeaders(c, body) },
        payload: body,
      });
      expect(res.statusCode).toBe(413);
    });

    it('enforces the company IP allow-list for credentials, not for the console', async () => {
      const c = await customerWithSubAccount(t, cat);
      await t.call(
        apiAccountCalls.configCompanyInfo,
        { defaultCallbackUrl: null, ipAllowlist: ['203.0.113.0/24'] },
        { token: c.token },
      );
      expect(
        await t.call(messagingCalls.proxyList, {}, { headers: c.creds, ip: '198.51.100.7' }),
      ).toMatchObject({
        status: 403,
        code: '40300',
      });
      expect((await t.call(messagingCalls.proxyList, {}, { headers: c.creds, ip: '203.0.113.9' })).code).toBe(
        '200',
      );
      expect((await t.call(messagingCalls.proxyList, {}, { token: c.token, ip: '198.51.100.7' })).code).toBe(
        '200',
      );
    });
  });

  describe('bad input', () => {
    it('refuses malformed sends with a clear 400 and stores nothing', async () => {
      const c = await customerWithSubAccount(t, cat);
      const { account } = await loginAccount(t, { token: c.token });
      const friend = (await t.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token }))
        .data.list[0].wxid;
      const before = await quietTableCounts(t.database);
      const bad: [unknown, unknown, RegExp][] = [
        [messagingCalls.sendMsgText, { wxid: account.wxid, content: 'hi' }, /toWxid/],
        [messagingCalls.sendMsgText, { wxid: account.wxid, toWxid: friend, content: '' }, /请输入消息内容/],
        [
          messagingCalls.sendMsgText,
          { wxid: account.wxid, toWxid: friend, content: '长'.repeat(700) },
          /2048 字节/,
        ],
        [
          messagingCalls.sendMsgText,
          { wxid: account.wxid, toWxid: 'wxid_stranger', content: 'hi' },
          /不在该账号的通讯录中/,
        ],
        [
          messagingCalls.sendMsgImg,
          { wxid: account.wxid, toWxid: friend, imageUrl: 'ftp://x/y.jpg' },
          /imageUrl/,
        ],
        [
          messagingCalls.sendMsgImg,
          { wxid: account.wxid, toWxid: friend, imageUrl: 'javascript:alert(1)' },
          /imageUrl/,
        ],
        [
          messagingCalls.sendMsgFile,
          { wxid: account.wxid, toWxid: friend, fileUrl: 'https://e.com/a', fileName: '../etc/passwd' },
          /fileName/,
        ],
        [
          messagingCalls.sendMsgVoice,
          { wxid: account.wxid, toWxid: friend, voiceUrl: 'https://e.com/v.silk', duration: 61_000 },
          /60 秒/,
        ],
        [messagingCalls.sendMsgEmoji, { wxid: account.wxid, toWxid: friend, md5: 'xyz', size: 1 }, /md5/],
        [
          messagingCalls.getContact,
          { wxid: account.wxid, ids: Array.from({ length: 21 }, (_, i) => `wxid_${i}`) },
          /最多查询 20/,
        ],
        [messagingCalls.checkQrCodeLoop, { instanceId: 'x', waitSeconds: 31 }, /waitSeconds/],
        [messagingCalls.getQrCode, { proxy: 'mars' }, /未知的登录地区/],
      ];
      for (const [def, input, message] of bad) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await t.call(def as any, input as any, { token: c.token });
        expect(res.status, JSON.stringify(input).slice(0, 60)).toBe(400);
        expect(res.message).toMatch(message);
      }
      expect(changedTables(before, await tableCounts(t.database))).toEqual({});
    });
  });

  describe('uploads', () => {
    it('stores an upload with its sniffed type and returns a link to send', async () => {
      const c = await customerWithSubAccount(t, cat);
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const boundary = '----wxc';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../evil.png"\r\nContent-Type: text/html\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: fileCalls.getSourceUrl.path,
        headers: { ...c.creds, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      const body = res.json();
      expect(body.code).toBe('200');
      expect(body.data).toMatchObject({ mime: 'image/png', size: png.length, fileName: 'evil.png' });
      const file = await t.app.inject({
        method: 'GET',
        url: body.data.url.replace('http://127.0.0.1:8080', ''),
      });
      expect(file.headers['content-type']).toBe('image/png');
      const json = await t.app.inject({
        method: 'POST',
        url: fileCalls.getSourceUrl.path,
        headers: c.creds,
        payload: {},
      });
      expect(json.json()).toMatchObject({ code: '400' });
    });
  });

  it('streams the company’s live events over SSE, and only to that company', async () => {
    const c = await customerWithSubAccount(t, cat);
    const other = await customerWithSubAccount(t, cat);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const read = async (token: string, until: (text: string) => boolean) => {
      const controller = new AbortController();
      const res = await fetch(`${address}/api/events`, {
        headers: { authorization: token },
        signal: controller.signal,
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      let text = '';
      const deadline = Date.now() + 3000;
      return {
        async next() {
          while (!until(text) && Date.now() < deadline) {
            const chunk = await Promise.race([
              reader.read(),
              new Promise<null>((r) => setTimeout(() => r(null), 200)),
            ]);
            if (chunk && !chunk.done) text += new TextDecoder().decode(chunk.value);
          }
          controller.abort();
          return text;
        },
      };
    };
    const mine = await read(c.token, (x) => x.includes('event: account'));
    const theirs = await read(other.token, () => false);
    const { account } = await loginAccount(t, { token: c.token });
    const text = await mine.next();
    expect(text).toContain('event: qr');
    expect(text).toContain('"state":"confirmed"');
    expect(text).toContain(
      `event: account\ndata: {"kind":"account","wxid":"${account.wxid}","status":"online"}`,
    );
    expect(text).not.toContain('companyId');
    expect(await theirs.next()).not.toContain(account.wxid);
    const denied = await fetch(`${address}/api/events`);
    expect(denied.status).toBe(401);
  });

  it('statistics follow the records: online now and total', async () => {
    const c = await customerWithSubAccount(t, cat);
    await loginAccount(t, { token: c.token });
    const second = await loginAccount(t, { token: c.token });
    await t.call(messagingCalls.logout, { wxid: second.account.wxid }, { token: c.token });
    expect((await t.call(statisticsCalls.getOnlineCountNow, {}, { token: c.token })).data.value).toBe(1);
    expect((await t.call(statisticsCalls.getTotalCount, {}, { token: c.token })).data.value).toBe(2);
    expect((await t.call(statisticsCalls.getMaxOnlineCountNow, {}, { token: c.token })).data.value).toBe(2);
    expect((await t.call(packageCalls.openService, {}, { token: c.token })).code).toBe('200');
  });
});
