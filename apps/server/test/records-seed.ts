import { apiAccountCalls } from '@wxc/contract';
import type { Insertable } from 'kysely';
import type { WxLoginsTable, WxMessagesTable } from '../src/db/schema.js';
import { newId } from '../src/lib/crypto.js';
import { registerCompany, type TestApp } from './helpers.js';

// Rows of the messaging tables written directly with controlled times: the records and statistics
// only read them, and only direct rows can place sessions across a chosen midnight.

/** An instant given in China time (UTC+8), e.g. cst('2026-03-15T14:00'). */
export const cst = (iso: string) => Date.parse(`${iso}+08:00`);

/** "Now" of the scripted history: 2026-03-15 14:00 China time. */
export const NOW = cst('2026-03-15T14:00:00');

export async function subAccount(t: TestApp, token: string, name: string): Promise<string> {
  const res = await t.call(apiAccountCalls.openApiAccount, { name }, { token });
  if (res.code !== '200') throw new Error(`openApiAccount failed: ${res.message}`);
  return res.data.account.id;
}

export interface SeedCompany {
  token: string;
  companyId: string;
  subs: Record<string, string>;
  /** wx_accounts.id by wxid */
  accounts: Record<string, string>;
  /** wx_devices.id by wxid */
  devices: Record<string, string>;
}

export async function seedCompany(
  t: TestApp,
  subNames: string[],
  companyName?: string,
): Promise<SeedCompany> {
  const c = await registerCompany(t, companyName ? { companyName } : {});
  const subs: Record<string, string> = {};
  for (const name of subNames) subs[name] = await subAccount(t, c.token, name);
  return { token: c.token, companyId: c.user.id, subs, accounts: {}, devices: {} };
}

export async function seedAccount(
  t: TestApp,
  c: SeedCompany,
  a: {
    wxid: string;
    sub: string;
    nickname: string;
    status: 'online' | 'offline';
    firstLoginAt: number;
    lastLoginAt: number;
    remark?: string;
    deviceName?: string;
  },
) {
  const db = t.database.db;
  const deviceId = newId();
  await db
    .insertInto('wx_devices')
    .values({
      id: deviceId,
      company_id: c.companyId,
      api_account_id: c.subs[a.sub]!,
      name: a.deviceName ?? `iPad-${a.wxid}`,
      proxy: 'sh',
      wxid: a.wxid,
      login_count: 1,
      created_at: a.firstLoginAt - 60_000,
      last_login_at: a.lastLoginAt,
    })
    .execute();
  const id = newId();
  await db
    .insertInto('wx_accounts')
    .values({
      id,
      company_id: c.companyId,
      api_account_id: c.subs[a.sub]!,
      wxid: a.wxid,
      nickname: a.nickname,
      avatar: `https://example.com/${a.wxid}.png`,
      alias: '',
      device_id: deviceId,
      status: a.status,
      online_since: a.status === 'online' ? a.lastLoginAt : null,
      last_offline_at: a.status === 'offline' ? a.lastLoginAt + 1000 : null,
      logout_reason: a.status === 'offline' ? '主动退出' : null,
      remark: a.remark ?? '',
      expire_at: null,
      current_login_id: null,
      first_login_at: a.firstLoginAt,
      last_login_at: a.lastLoginAt,
      updated_at: a.lastLoginAt,
    })
    .execute();
  c.accounts[a.wxid] = id;
  c.devices[a.wxid] = deviceId;
  return id;
}

/** A login record; `loggedIn`/`ended` given means a successful login session. */
export async function seedLogin(
  t: TestApp,
  c: SeedCompany,
  wxid: string,
  l: {
    loggedIn?: number;
    ended?: number | null;
    result?: WxLoginsTable['result'];
    started?: number;
    reason?: string;
    deviceOf?: string;
  },
) {
  const result = l.result ?? 'success';
  const started = l.started ?? (l.loggedIn ?? 0) - 30_000;
  const account = await t.database.db
    .selectFrom('wx_accounts')
    .select(['id', 'api_account_id'])
    .where('company_id', '=', c.companyId)
    .where('wxid', '=', wxid)
    .executeTakeFirstOrThrow();
  const row: Insertable<WxLoginsTable> = {
    id: newId(),
    company_id: c.companyId,
    api_account_id: account.api_account_id,
    device_id: c.devices[l.deviceOf ?? wxid]!,
    proxy: 'sh',
    state:
      result === 'success'
        ? 'confirmed'
        : result === 'pending'
          ? 'waiting'
          : result === 'refused'
            ? 'cancelled'
            : result,
    result,
    verify_code: null,
    scanner_nickname: null,
    scanner_avatar: null,
    wx_account_id: result === 'success' ? account.id : null,
    wxid: result === 'success' ? wxid : null,
    expires_at: started + 120_000,
    started_at: started,
    scanned_at: null,
    logged_in_at: result === 'success' ? (l.loggedIn ?? null) : null,
    ended_at: result === 'success' ? (l.ended ?? null) : null,
    logout_reason: l.ended ? (l.reason ?? '主动退出') : null,
  };
  await t.database.db.insertInto('wx_logins').values(row).execute();
  return row.id;
}

let seq = 0;
export async function seedMessage(
  t: TestApp,
  c: SeedCompany,
  wxid: string,
  m: { at: number; direction: 'in' | 'out'; status?: WxMessagesTable['status'] },
) {
  seq += 1;
  await t.database.db
    .insertInto('wx_messages')
    .values({
      id: newId(),
      company_id: c.companyId,
      wx_account_id: c.accounts[wxid]!,
      new_msg_id: String(9_000_000_000_000_000 + seq),
      direction: m.direction,
      peer: 'wxid_friend_01',
      sender: m.direction === 'out' ? wxid : 'wxid_friend_01',
      type: 1,
      app_type: null,
      content: `消息 ${seq}`,
      media: null,
      status: m.status ?? 'sent',
      error: null,
      create_time: Math.floor(m.at / 1000),
      created_at: m.at,
      seq: m.at * 1000 + seq,
    })
    .execute();
}

/**
 * Company A's scripted history (now = 2026-03-15 14:00 China time), sub-accounts 客服一号 and 营销二号:
 *
 * | wxid    | sub  | first login      | sessions (China time)                                 | now     |
 * |---------|------|------------------|-------------------------------------------------------|---------|
 * | wxid_a1 | 客服 | 02-28 23:00      | 02-28 23:00-03-01 00:30; 03-14 22:00-03-15 01:00; 03-15 09:00- | online |
 * | wxid_a2 | 客服 | 03-14 20:00      | 03-14 20:00-23:30; 03-15 00:30-                       | online  |
 * | wxid_a3 | 营销 | 03-15 08:00      | 03-15 08:00-09:00 (touches a1's 09:00 start)          | offline |
 * | wxid_a4 | 营销 | 03-10 12:00      | 03-10 12:00-03-11 12:00                               | offline |
 * | wxid_a5 | 客服 | 03-13 10:00      | 03-13 10:00- (still open)                             | online  |
 * | wxid_a6 | 营销 | 03-14 21:00      | 03-14 21:00-22:30                                     | offline |
 *
 * plus an expired, a cancelled and a pending QR that never logged in.
 */
export async function scriptedHistory(t: TestApp, c: SeedCompany) {
  const A = '客服一号';
  const B = '营销二号';
  await seedAccount(t, c, {
    wxid: 'wxid_a1',
    sub: A,
    nickname: '张三',
    status: 'online',
    firstLoginAt: cst('2026-02-28T23:00:00'),
    lastLoginAt: cst('2026-03-15T09:00:00'),
    remark: '大客户',
  });
  await seedAccount(t, c, {
    wxid: 'wxid_a2',
    sub: A,
    nickname: '李四',
    status: 'online',
    firstLoginAt: cst('2026-03-14T20:00:00'),
    lastLoginAt: cst('2026-03-15T00:30:00'),
  });
  await seedAccount(t, c, {
    wxid: 'wxid_a3',
    sub: B,
    nickname: '王五',
    status: 'offline',
    firstLoginAt: cst('2026-03-15T08:00:00'),
    lastLoginAt: cst('2026-03-15T08:00:00'),
  });
  await seedAccount(t, c, {
    wxid: 'wxid_a4',
    sub: B,
    nickname: 'Zhao Liu',
    status: 'offline',
    firstLoginAt: cst('2026-03-10T12:00:00'),
    lastLoginAt: cst('2026-03-10T12:00:00'),
  });
  await seedAccount(t, c, {
    wxid: 'wxid_a5',
    sub: A,
    nickname: '孙七',
    status: 'online',
    firstLoginAt: cst('2026-03-13T10:00:00'),
    lastLoginAt: cst('2026-03-13T10:00:00'),
  });
  await seedAccount(t, c, {
    wxid: 'wxid_a6',
    sub: B,
    nickname: '周八',
    status: 'offline',
    firstLoginAt: cst('2026-03-14T21:00:00'),
    lastLoginAt: cst('2026-03-14T21:00:00'),
  });
  const s = (wxid: string, from: string, to: string | null) =>
    seedLogin(t, c, wxid, { loggedIn: cst(from), ended: to === null ? null : cst(to) });
  await s('wxid_a1', '2026-02-28T23:00:00', '2026-03-01T00:30:00');
  await s('wxid_a1', '2026-03-14T22:00:00', '2026-03-15T01:00:00');
  await s('wxid_a1', '2026-03-15T09:00:00', null);
  await s('wxid_a2', '2026-03-14T20:00:00', '2026-03-14T23:30:00');
  await s('wxid_a2', '2026-03-15T00:30:00', null);
  await s('wxid_a3', '2026-03-15T08:00:00', '2026-03-15T09:00:00');
  await s('wxid_a4', '2026-03-10T12:00:00', '2026-03-11T12:00:00');
  await s('wxid_a5', '2026-03-13T10:00:00', null);
  await s('wxid_a6', '2026-03-14T21:00:00', '2026-03-14T22:30:00');
  await seedLogin(t, c, 'wxid_a1', { result: 'expired', started: cst('2026-03-15T10:00:00') });
  await seedLogin(t, c, 'wxid_a2', { result: 'cancelled', started: cst('2026-03-15T11:00:00') });
  await seedLogin(t, c, 'wxid_a3', { result: 'pending', started: cst('2026-03-15T13:59:00') });
}

/**
 * Company B: busy whenever company A is measured (five accounts online, three of them since before
 * A's first login, two added today), messages today, and one wxid equal to one of A's.
 */
export async function otherCompanyHistory(t: TestApp, c: SeedCompany) {
  const sub = Object.keys(c.subs)[0]!;
  for (const [i, wxid] of ['wxid_a1', 'wxid_b2', 'wxid_b3', 'wxid_b4', 'wxid_b5'].entries()) {
    const at = i < 2 ? cst('2026-03-15T01:00:00') : cst('2026-02-20T01:00:00');
    await seedAccount(t, c, {
      wxid,
      sub,
      nickname: `别家${i}`,
      status: 'online',
      firstLoginAt: at,
      lastLoginAt: at,
      remark: '别家的备注',
    });
    await seedLogin(t, c, wxid, { loggedIn: at, ended: null });
    await seedMessage(t, c, wxid, { at: cst('2026-03-15T10:00:00'), direction: 'out' });
    await seedMessage(t, c, wxid, { at: cst('2026-03-15T10:00:01'), direction: 'in' });
  }
}
