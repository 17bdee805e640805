import { authCalls, statisticsCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdmin, createTestApp, dialects, type TestApp, tableCounts } from './helpers.js';
import {
  cst,
  NOW,
  otherCompanyHistory,
  type SeedCompany,
  scriptedHistory,
  seedCompany,
  seedMessage,
} from './records-seed.js';

const FIGURES = {
  getOnlineCountNow: statisticsCalls.getOnlineCountNow,
  getMaxOnlineCountNow: statisticsCalls.getMaxOnlineCountNow,
  getAddedToday: statisticsCalls.getAddedToday,
  onlineDays: statisticsCalls.onlineDays,
  getOnlineYesterday: statisticsCalls.getOnlineYesterday,
  getMaxOnlineCountYesterday: statisticsCalls.getMaxOnlineCountYesterday,
  getAddedYesterday: statisticsCalls.getAddedYesterday,
  getMaxOnline: statisticsCalls.getMaxOnline,
  getTotalCount: statisticsCalls.getTotalCount,
};

describe.each(dialects)('statistics from the records (%s)', (dialect) => {
  let t: TestApp;
  let a: SeedCompany;
  let b: SeedCompany;
  let empty: SeedCompany;

  beforeAll(async () => {
    // "Now" is fixed at 2026-03-15 14:00 China time so days and midnights are known.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    t = await createTestApp(dialect);
    a = await seedCompany(t, ['客服一号', '营销二号'], '甲公司');
    b = await seedCompany(t, ['乙应用'], '乙公司');
    empty = await seedCompany(t, [], '丙公司');
    await scriptedHistory(t, a);
    await otherCompanyHistory(t, b);
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  const figures = async (token: string) => {
    const out: Record<string, number> = {};
    for (const [name, def] of Object.entries(FIGURES)) {
      const res = await t.call(def, {}, { token });
      expect(res.code, name).toBe('200');
      out[name] = res.data.value;
    }
    return out;
  };

  it('computes every figure of the scripted history (company B never counts for A)', async () => {
    expect(await figures(a.token)).toEqual({
      // a1, a2, a5
      getOnlineCountNow: 3,
      // a5 open since 03-13 + a2 since 00:30 + a1's 09:00 session; a3's session ends as a1's begins
      getMaxOnlineCountNow: 3,
      // a3
      getAddedToday: 1,
      // 02-28, 03-01 (across midnight), 03-10, 03-11, 03-13, 03-14, 03-15
      onlineDays: 7,
      // a1 (22:00-), a2, a5 (all day), a6
      getOnlineYesterday: 4,
      // 22:00-22:30 on 03-14: a1, a2, a5, a6
      getMaxOnlineCountYesterday: 4,
      // a2, a6
      getAddedYesterday: 2,
      getMaxOnline: 4,
      getTotalCount: 6,
    });
  });

  it('company B sees only its own figures', async () => {
    expect(await figures(b.token)).toEqual({
      getOnlineCountNow: 5,
      getMaxOnlineCountNow: 5,
      getAddedToday: 2,
      onlineDays: 24, // 02-20 .. 03-15
      getOnlineYesterday: 3,
      getMaxOnlineCountYesterday: 3,
      getAddedYesterday: 0,
      getMaxOnline: 5,
      getTotalCount: 5,
    });
  });

  it('a company without records gets zeros everywhere', async () => {
    const all = await figures(empty.token);
    expect(Object.values(all).every((v) => v === 0)).toBe(true);
    const month = await t.call(statisticsCalls.statisticsMonth, { month: '2026-03' }, { token: empty.token });
    expect(month.data.days.every((d: { maxOnline: number }) => d.maxOnline === 0)).toBe(true);
  });

  it('statisticsMonth: one row per China-time day, future days zero', async () => {
    const res = await t.call(statisticsCalls.statisticsMonth, { month: '2026-03' }, { token: a.token });
    expect(res.code).toBe('200');
    expect(res.data.month).toBe('2026-03');
    expect(res.data.days).toHaveLength(31);
    const nonZero = Object.fromEntries(
      res.data.days
        .filter(
          (d: { maxOnline: number; added: number; logins: number }) => d.maxOnline + d.added + d.logins > 0,
        )
        .map((d: { date: string; maxOnline: number; added: number; logins: number }) => [
          d.date,
          [d.maxOnline, d.added, d.logins],
        ]),
    );
    expect(nonZero).toEqual({
      '2026-03-01': [1, 0, 0], // a1's session from 02-28 23:00 runs past midnight China time
      '2026-03-10': [1, 1, 1],
      '2026-03-11': [1, 0, 0],
      '2026-03-13': [1, 1, 1],
      '2026-03-14': [4, 2, 3],
      '2026-03-15': [3, 1, 3],
    });
    expect(res.data.days[0].date).toBe('2026-03-01');
    expect(res.data.days[30]).toEqual({ date: '2026-03-31', maxOnline: 0, added: 0, logins: 0 });

    const feb = await t.call(statisticsCalls.statisticsMonth, { month: '2026-02' }, { token: a.token });
    expect(feb.data.days).toHaveLength(28);
    expect(feb.data.days[27]).toEqual({ date: '2026-02-28', maxOnline: 1, added: 1, logins: 1 });
    expect(feb.data.days.slice(0, 27).every((d: { maxOnline: number }) => d.maxOnline === 0)).toBe(true);

    const april = await t.call(statisticsCalls.statisticsMonth, { month: '2026-04' }, { token: a.token });
    expect(april.data.days).toHaveLength(30);
    expect(
      april.data.days.every(
        (d: { maxOnline: number; added: number; logins: number }) => d.maxOnline + d.added + d.logins === 0,
      ),
    ).toBe(true);
  });

  it('statisticsMonth refuses a bad month with a 400 naming the field, writing nothing', async () => {
    const before = await tableCounts(t.database);
    for (const month of ['2026-13', '2026-00', '2026-3', '202603', '']) {
      const res = await t.call(statisticsCalls.statisticsMonth, { month }, { token: a.token });
      expect(res, month).toMatchObject({ status: 400, code: '400' });
      expect(res.message, month).toContain('月份格式为 YYYY-MM');
    }
    const missing = await t.call(statisticsCalls.statisticsMonth, {} as never, { token: a.token });
    expect(missing).toMatchObject({ status: 400, message: 'month：缺少必填参数' });
    const extra = await t.call(statisticsCalls.statisticsMonth, { month: '2026-03', day: 1 } as never, {
      token: a.token,
    });
    expect(extra).toMatchObject({ status: 400, message: '不支持的参数：day' });
    const figure = await t.call(statisticsCalls.getOnlineCountNow, { companyId: b.companyId } as never, {
      token: a.token,
    });
    expect(figure).toMatchObject({ status: 400, message: '不支持的参数：companyId' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('accountDetails: the page of accounts with today’s messages counted per account', async () => {
    const db = t.database.db;
    await seedMessage(t, a, 'wxid_a1', { at: cst('2026-03-15T00:00:00'), direction: 'out' });
    await seedMessage(t, a, 'wxid_a1', {
      at: cst('2026-03-15T10:00:00'),
      direction: 'out',
      status: 'queued',
    });
    await seedMessage(t, a, 'wxid_a1', {
      at: cst('2026-03-15T10:01:00'),
      direction: 'out',
      status: 'failed',
    });
    await seedMessage(t, a, 'wxid_a1', { at: cst('2026-03-15T11:00:00'), direction: 'in' });
    await seedMessage(t, a, 'wxid_a1', { at: cst('2026-03-14T23:59:59.999'), direction: 'in' });
    await seedMessage(t, a, 'wxid_a1', { at: cst('2026-03-14T23:59:59.999'), direction: 'out' });
    await seedMessage(t, a, 'wxid_a2', { at: cst('2026-03-15T13:00:00'), direction: 'in' });
    await seedMessage(t, a, 'wxid_a3', { at: cst('2026-03-16T00:00:00'), direction: 'in' }); // tomorrow
    try {
      const res = await t.call(statisticsCalls.accountDetails, { status: 'online' }, { token: a.token });
      expect(res.code).toBe('200');
      expect(res.data).toMatchObject({ total: 3, page: 1, pageSize: 10 });
      expect(
        res.data.list.map((r: { wxid: string; sentToday: number; receivedToday: number }) => [
          r.wxid,
          r.sentToday,
          r.receivedToday,
        ]),
      ).toEqual([
        ['wxid_a1', 2, 1],
        ['wxid_a2', 0, 1],
        ['wxid_a5', 0, 0],
      ]);
      expect(res.data.list[0]).toMatchObject({
        subAccountName: '客服一号',
        nickname: '张三',
        status: 'online',
      });

      const page2 = await t.call(
        statisticsCalls.accountDetails,
        { page: 2, pageSize: 4 },
        { token: a.token },
      );
      expect(page2.data).toMatchObject({ total: 6, page: 2, pageSize: 4 });
      expect(page2.data.list.map((r: { wxid: string }) => r.wxid)).toEqual(['wxid_a5', 'wxid_a4']);
      expect(page2.data.list.every((r: { receivedToday: number }) => r.receivedToday === 0)).toBe(true);

      // company B's messages are counted for B's wxid_a1, never A's
      const other = await t.call(statisticsCalls.accountDetails, {}, { token: b.token });
      const bA1 = other.data.list.find((r: { wxid: string }) => r.wxid === 'wxid_a1');
      expect(bA1).toMatchObject({ sentToday: 1, receivedToday: 1 });

      const zero = await t.call(statisticsCalls.accountDetails, { pageSize: 0 }, { token: a.token });
      expect(zero).toMatchObject({ status: 400, code: '400' });
      expect(zero.message).toContain('pageSize');
    } finally {
      await db.deleteFrom('wx_messages').where('company_id', '=', a.companyId).execute();
    }
  });

  it('operators get 40300 and callers without a session 403', async () => {
    const admin = await createAdmin(t);
    for (const def of [...Object.values(FIGURES), statisticsCalls.accountDetails]) {
      expect(await t.call(def, {}, { token: admin.token }), def.path).toMatchObject({
        status: 403,
        code: '40300',
      });
      expect(await t.call(def, {}), def.path).toMatchObject({ status: 401, code: '403' });
    }
    expect(
      await t.call(statisticsCalls.statisticsMonth, { month: '2026-03' }, { token: admin.token }),
    ).toMatchObject({ code: '40300' });
    expect(await t.call(statisticsCalls.statisticsMonth, { month: '2026-03' })).toMatchObject({
      code: '403',
    });
    // a logged-out customer session is no session
    await t.call(authCalls.logout, {}, { token: empty.token });
    expect(await t.call(statisticsCalls.getTotalCount, {}, { token: empty.token })).toMatchObject({
      code: '403',
    });
  });
});
