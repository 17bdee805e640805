import { recordCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdmin, createTestApp, dialects, type TestApp, tableCounts } from './helpers.js';
import {
  cst,
  NOW,
  otherCompanyHistory,
  type SeedCompany,
  scriptedHistory,
  seedCompany,
} from './records-seed.js';

const wxids = (res: { data: { list: { wxid: string | null }[] } }) => res.data.list.map((r) => r.wxid);

describe.each(dialects)('records: accounts, logins, devices (%s)', (dialect) => {
  let t: TestApp;
  let a: SeedCompany;
  let b: SeedCompany;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    t = await createTestApp(dialect);
    a = await seedCompany(t, ['客服一号', '营销二号'], '甲公司');
    b = await seedCompany(t, ['乙应用'], '乙公司');
    await scriptedHistory(t, a);
    await otherCompanyHistory(t, b);
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  describe('queryHistoryWx', () => {
    it('lists the company’s accounts, newest login first, with the sub-account name', async () => {
      const res = await t.call(recordCalls.queryHistoryWx, {}, { token: a.token });
      expect(res.code).toBe('200');
      expect(res.data).toMatchObject({ total: 6, page: 1, pageSize: 10 });
      expect(wxids(res)).toEqual(['wxid_a1', 'wxid_a3', 'wxid_a2', 'wxid_a6', 'wxid_a5', 'wxid_a4']);
      expect(res.data.list[0]).toEqual({
        wxid: 'wxid_a1',
        nickname: '张三',
        avatar: 'https://example.com/wxid_a1.png',
        alias: '',
        subAccountId: a.subs.客服一号,
        subAccountName: '客服一号',
        deviceId: a.devices.wxid_a1,
        status: 'online',
        onlineSince: cst('2026-03-15T09:00:00'),
        lastOfflineAt: null,
        logoutReason: null,
        remark: '大客户',
        expireAt: null,
        firstLoginAt: cst('2026-02-28T23:00:00'),
        lastLoginAt: cst('2026-03-15T09:00:00'),
      });
      expect(res.data.list[1]).toMatchObject({
        subAccountName: '营销二号',
        status: 'offline',
        logoutReason: '主动退出',
      });
    });

    it('pages', async () => {
      const p2 = await t.call(recordCalls.queryHistoryWx, { page: 2, pageSize: 2 }, { token: a.token });
      expect(p2.data).toMatchObject({ total: 6, page: 2, pageSize: 2 });
      expect(wxids(p2)).toEqual(['wxid_a2', 'wxid_a6']);
      const past = await t.call(recordCalls.queryHistoryWx, { page: 9, pageSize: 5 }, { token: a.token });
      expect(past.data).toMatchObject({ total: 6, list: [] });
    });

    it('filters by status, sub-account and keyword (wxid, nickname, remark; any case; wildcards literal)', async () => {
      const q = (input: object) => t.call(recordCalls.queryHistoryWx, input, { token: a.token });
      expect(wxids(await q({ status: 'online' }))).toEqual(['wxid_a1', 'wxid_a2', 'wxid_a5']);
      expect(wxids(await q({ status: 'offline' }))).toEqual(['wxid_a3', 'wxid_a6', 'wxid_a4']);
      expect(wxids(await q({ subAccountId: a.subs.营销二号 }))).toEqual(['wxid_a3', 'wxid_a6', 'wxid_a4']);
      expect(wxids(await q({ subAccountId: a.subs.营销二号, status: 'online' }))).toEqual([]);
      expect(wxids(await q({ keyword: 'WXID_A2' }))).toEqual(['wxid_a2']);
      expect(wxids(await q({ keyword: '李四' }))).toEqual(['wxid_a2']);
      expect(wxids(await q({ keyword: 'zhao' }))).toEqual(['wxid_a4']);
      expect(wxids(await q({ keyword: '大客' }))).toEqual(['wxid_a1']);
      expect((await q({ keyword: 'wxid_a' })).data.total).toBe(6);
      expect((await q({ keyword: 'wxid%' })).data.total).toBe(0);
      expect((await q({ keyword: 'wxid_' })).data.total).toBe(6);
      expect((await q({ keyword: 'wxid\\' })).data.total).toBe(0);
      // another company's sub-account id or remark finds nothing
      expect((await q({ subAccountId: b.subs.乙应用 })).data.total).toBe(0);
      expect((await q({ keyword: '别家' })).data.total).toBe(0);
    });

    it('another company sees only its own accounts, including its own wxid_a1', async () => {
      const res = await t.call(recordCalls.queryHistoryWx, { pageSize: 100 }, { token: b.token });
      expect(res.data.total).toBe(5);
      expect(res.data.list.find((r: { wxid: string }) => r.wxid === 'wxid_a1')).toMatchObject({
        nickname: '别家0',
        subAccountName: '乙应用',
      });
    });
  });

  describe('queryWxLoginRecord', () => {
    it('lists every login attempt, newest first, with the account nickname', async () => {
      const res = await t.call(recordCalls.queryWxLoginRecord, { pageSize: 100 }, { token: a.token });
      expect(res.data.total).toBe(12);
      const started = res.data.list.map((r: { startedAt: number }) => r.startedAt);
      expect(started).toEqual([...started].sort((x, y) => y - x));
      expect(res.data.list[0]).toMatchObject({
        result: 'pending',
        wxid: null,
        nickname: null,
        loggedInAt: null,
      });
      const open = res.data.list.find(
        (r: { wxid: string; loggedInAt: number }) =>
          r.wxid === 'wxid_a1' && r.loggedInAt === cst('2026-03-15T09:00:00'),
      );
      expect(open).toMatchObject({
        nickname: '张三',
        result: 'success',
        subAccountId: a.subs.客服一号,
        deviceId: a.devices.wxid_a1,
        proxy: 'sh',
        endedAt: null,
        logoutReason: null,
      });
      expect(Object.keys(open).sort()).toEqual(
        [
          'id',
          'wxid',
          'nickname',
          'subAccountId',
          'deviceId',
          'proxy',
          'result',
          'startedAt',
          'loggedInAt',
          'endedAt',
          'logoutReason',
        ].sort(),
      );
    });

    it('filters by wxid and pages', async () => {
      const res = await t.call(recordCalls.queryWxLoginRecord, { wxid: 'wxid_a1' }, { token: a.token });
      expect(res.data.total).toBe(3);
      expect(res.data.list.map((r: { loggedInAt: number }) => r.loggedInAt)).toEqual([
        cst('2026-03-15T09:00:00'),
        cst('2026-03-14T22:00:00'),
        cst('2026-02-28T23:00:00'),
      ]);
      const p = await t.call(recordCalls.queryWxLoginRecord, { page: 2, pageSize: 5 }, { token: a.token });
      expect(p.data).toMatchObject({ total: 12, page: 2, pageSize: 5 });
      expect(p.data.list).toHaveLength(5);
      const other = await t.call(recordCalls.queryWxLoginRecord, { wxid: 'wxid_b2' }, { token: a.token });
      expect(other.data.total).toBe(0);
      const own = await t.call(recordCalls.queryWxLoginRecord, { wxid: 'wxid_a1' }, { token: b.token });
      expect(own.data.list.map((r: { nickname: string }) => r.nickname)).toEqual(['别家0']);
    });
  });

  describe('queryDeviceRecord', () => {
    it('lists devices, most recently used first, and filters by wxid', async () => {
      const res = await t.call(recordCalls.queryDeviceRecord, {}, { token: a.token });
      expect(res.data.total).toBe(6);
      expect(wxids(res)).toEqual(['wxid_a1', 'wxid_a3', 'wxid_a2', 'wxid_a6', 'wxid_a5', 'wxid_a4']);
      expect(res.data.list[0]).toEqual({
        deviceId: a.devices.wxid_a1,
        name: 'iPad-wxid_a1',
        subAccountId: a.subs.客服一号,
        wxid: 'wxid_a1',
        nickname: '张三',
        proxy: 'sh',
        loginCount: 1,
        createdAt: cst('2026-02-28T22:59:00'),
        lastLoginAt: cst('2026-03-15T09:00:00'),
      });
      const one = await t.call(recordCalls.queryDeviceRecord, { wxid: 'wxid_a2' }, { token: a.token });
      expect(one.data.list.map((d: { deviceId: string }) => d.deviceId)).toEqual([a.devices.wxid_a2]);
      const paged = await t.call(recordCalls.queryDeviceRecord, { page: 3, pageSize: 2 }, { token: a.token });
      expect(wxids(paged)).toEqual(['wxid_a5', 'wxid_a4']);
      const bees = await t.call(recordCalls.queryDeviceRecord, { wxid: 'wxid_a1' }, { token: b.token });
      expect(bees.data.list.map((d: { deviceId: string }) => d.deviceId)).toEqual([b.devices.wxid_a1]);
    });
  });

  describe('updateRemarks and updateExpireTime', () => {
    const row = (c: SeedCompany, wxid: string) =>
      t.database.db
        .selectFrom('wx_accounts')
        .selectAll()
        .where('company_id', '=', c.companyId)
        .where('wxid', '=', wxid)
        .executeTakeFirstOrThrow();

    it('sets the remark of the company’s own account only (same wxid elsewhere untouched)', async () => {
      const res = await t.call(
        recordCalls.updateRemarks,
        { wxid: 'wxid_a1', remark: '  重点维护  ' },
        { token: a.token },
      );
      expect(res.code).toBe('200');
      expect(res.data).toMatchObject({ wxid: 'wxid_a1', remark: '重点维护', subAccountName: '客服一号' });
      expect((await row(a, 'wxid_a1')).remark).toBe('重点维护');
      expect((await row(a, 'wxid_a1')).updated_at).toBe(NOW);
      expect((await row(b, 'wxid_a1')).remark).toBe('别家的备注');
      const found = await t.call(recordCalls.queryHistoryWx, { keyword: '重点' }, { token: a.token });
      expect(wxids(found)).toEqual(['wxid_a1']);
      expect(
        (await t.call(recordCalls.updateRemarks, { wxid: 'wxid_a1', remark: '' }, { token: a.token })).data
          .remark,
      ).toBe('');
    });

    it('sets and clears the expiry; a time in the past is allowed', async () => {
      const past = cst('2026-03-01T00:00:00');
      const res = await t.call(
        recordCalls.updateExpireTime,
        { wxid: 'wxid_a2', expireAt: past },
        { token: a.token },
      );
      expect(res.data).toMatchObject({ wxid: 'wxid_a2', expireAt: past });
      expect((await row(a, 'wxid_a2')).expire_at).toBe(past);
      const later = cst('2026-12-31T23:59:59');
      expect(
        (await t.call(recordCalls.updateExpireTime, { wxid: 'wxid_a2', expireAt: later }, { token: a.token }))
          .data.expireAt,
      ).toBe(later);
      const cleared = await t.call(
        recordCalls.updateExpireTime,
        { wxid: 'wxid_a2', expireAt: null },
        { token: a.token },
      );
      expect(cleared.data.expireAt).toBeNull();
      expect((await row(a, 'wxid_a2')).expire_at).toBeNull();
    });

    it('another company’s wxid or an unknown one: 404 微信账号不存在, nothing changes', async () => {
      const before = await row(b, 'wxid_b2');
      const counts = await tableCounts(t.database);
      for (const res of [
        await t.call(recordCalls.updateRemarks, { wxid: 'wxid_b2', remark: '抢过来' }, { token: a.token }),
        await t.call(recordCalls.updateExpireTime, { wxid: 'wxid_b2', expireAt: 0 }, { token: a.token }),
        await t.call(recordCalls.updateRemarks, { wxid: 'wxid_nobody', remark: 'x' }, { token: a.token }),
      ]) {
        expect(res).toMatchObject({ status: 404, code: '404', message: '微信账号不存在' });
      }
      expect(await row(b, 'wxid_b2')).toEqual(before);
      expect(await tableCounts(t.database)).toEqual(counts);
    });

    it('bad input: 400 naming the field, nothing written', async () => {
      const before = await row(a, 'wxid_a3');
      const counts = await tableCounts(t.database);
      const cases: [
        typeof recordCalls.updateRemarks | typeof recordCalls.updateExpireTime,
        unknown,
        string,
      ][] = [
        [
          recordCalls.updateRemarks,
          { wxid: 'wxid_a3', remark: 'x'.repeat(51) },
          'remark：备注不能超过 50 个字符',
        ],
        [recordCalls.updateRemarks, { wxid: 'wxid_a3' }, 'remark：缺少必填参数'],
        [recordCalls.updateRemarks, { remark: 'x' }, 'wxid：缺少必填参数'],
        [
          recordCalls.updateRemarks,
          { wxid: 'wxid a3', remark: 'x' },
          'wxid：wxid 只能包含字母、数字、_ - . @',
        ],
        [
          recordCalls.updateRemarks,
          { wxid: 'wxid_a3', remark: 'x', companyId: b.companyId },
          '不支持的参数：companyId',
        ],
        [recordCalls.updateExpireTime, { wxid: 'wxid_a3', expireAt: -1 }, 'expireAt'],
        [recordCalls.updateExpireTime, { wxid: 'wxid_a3', expireAt: '2026-01-01' }, 'expireAt'],
        [recordCalls.updateExpireTime, { wxid: 'wxid_a3' }, 'expireAt：缺少必填参数'],
        [recordCalls.updateExpireTime, { wxid: 'wxid_a3', expireAt: 1.5 }, 'expireAt'],
      ];
      for (const [def, input, message] of cases) {
        const res = await t.call(def, input as never, { token: a.token });
        expect(res, JSON.stringify(input)).toMatchObject({ status: 400, code: '400' });
        expect(res.message, JSON.stringify(input)).toContain(message);
      }
      expect(await row(a, 'wxid_a3')).toEqual(before);
      expect(await tableCounts(t.database)).toEqual(counts);
    });
  });

  it('list calls refuse bad paging and unknown fields with a 400 naming the field', async () => {
    const cases: [typeof recordCalls.queryHistoryWx, unknown, string][] = [
      [recordCalls.queryHistoryWx, { pageSize: 0 }, 'pageSize：pageSize 须为 1-100 的整数'],
      [recordCalls.queryHistoryWx, { pageSize: 101 }, 'pageSize'],
      [recordCalls.queryHistoryWx, { page: 0 }, 'page：page 须为正整数'],
      [recordCalls.queryHistoryWx, { status: 'away' }, 'status'],
      [recordCalls.queryHistoryWx, { keyword: 'x'.repeat(51) }, 'keyword'],
      [recordCalls.queryHistoryWx, { companyId: 'x' }, '不支持的参数：companyId'],
      [recordCalls.queryWxLoginRecord as never, { pageSize: 0 }, 'pageSize'],
      [recordCalls.queryWxLoginRecord as never, { wxid: '' }, 'wxid'],
      [recordCalls.queryDeviceRecord as never, { pageSize: 'ten' }, 'pageSize'],
      [recordCalls.queryDeviceRecord as never, { extra: true }, '不支持的参数：extra'],
    ];
    for (const [def, input, message] of cases) {
      const res = await t.call(def, input as never, { token: a.token });
      expect(res, `${def.path} ${JSON.stringify(input)}`).toMatchObject({ status: 400, code: '400' });
      expect(res.message).toContain(message);
    }
  });

  it('operators get 40300, callers without a session 403', async () => {
    const admin = await createAdmin(t);
    const calls: [typeof recordCalls.queryHistoryWx, unknown][] = [
      [recordCalls.queryHistoryWx, {}],
      [recordCalls.queryWxLoginRecord as never, {}],
      [recordCalls.queryDeviceRecord as never, {}],
      [recordCalls.updateRemarks as never, { wxid: 'wxid_a1', remark: '运营改的' }],
      [recordCalls.updateExpireTime as never, { wxid: 'wxid_a1', expireAt: null }],
    ];
    const before = await tableCounts(t.database);
    for (const [def, input] of calls) {
      expect(await t.call(def, input as never, { token: admin.token }), def.path).toMatchObject({
        status: 403,
        code: '40300',
      });
      expect(await t.call(def, input as never), def.path).toMatchObject({ status: 401, code: '403' });
      expect(await t.call(def, input as never, { token: 'not-a-token' }), def.path).toMatchObject({
        code: '403',
      });
    }
    expect(
      (await t.call(recordCalls.queryHistoryWx, { keyword: '运营改的' }, { token: a.token })).data.total,
    ).toBe(0);
    // createAdmin wrote the operator and its session; the calls themselves wrote nothing more
    expect(await tableCounts(t.database)).toEqual(before);
  });
});
