import { randomUUID } from 'node:crypto';
import {
  apiAccountCalls,
  type CallDef,
  messagingCalls,
  operatorCalls,
  orderCalls,
  packageCalls,
  realNameCalls,
  simCalls,
  visitorCalls,
} from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, DAY, setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, registerCompany, type TestApp, tableCounts } from './helpers.js';
import { customerWithSubAccount, MESSAGING_ENV } from './messaging-helpers.js';
import { bothImages, upload } from './realname-helpers.js';

describe.each(dialects)('operator area (%s)', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV);
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());
  const admin = () => cat.admin.token;

  it('every operator call refuses customers (40300) and writes nothing', async () => {
    const c = await registerCompany(t);
    const calls: [CallDef, unknown][] = [
      [operatorCalls.agentPanel, {}],
      [operatorCalls.registeUser, {}],
      [visitorCalls.visitors, {}],
      [operatorCalls.updateCompanyRemarks, { userId: c.user.id, remark: 'x' }],
      [operatorCalls.updateCompanyExpireTime, { userId: c.user.id, expireAt: 1 }],
      [operatorCalls.companyPackages, { userId: c.user.id }],
      [operatorCalls.companySubAccounts, { userId: c.user.id }],
      [realNameCalls.adminReviewList, {}],
      [realNameCalls.passRealNameAuth, { userId: c.user.id }],
      [realNameCalls.refuseRealNameAuth, { userId: c.user.id, reason: '不清晰' }],
      [realNameCalls.openRealName, { open: true }],
    ];
    const before = await tableCounts(t.database);
    for (const [def, input] of calls) {
      const res = await t.call(def, input as never, { token: c.token });
      expect({ path: def.path, status: res.status, code: res.code }).toEqual({
        path: def.path,
        status: 403,
        code: '40300',
      });
      const anon = await t.call(def, input as never);
      expect(anon.code).toBe('403');
    }
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('registeUser lists companies with their package state; search and filters', async () => {
    const tag = randomUUID().slice(0, 6);
    const none = await registerCompany(t, { companyName: `无套餐${tag}公司` });
    const paying = await registerCompany(t, { companyName: `付费${tag}公司` });
    await buyAndPay(t, paying.token, cat.business.id);
    const lapsed = await registerCompany(t, { companyName: `过期${tag}公司` });
    await buyAndPay(t, lapsed.token, cat.basic.id);
    await t.database.db
      .updateTable('subscriptions')
      .set({ ends_at: Date.now() - DAY })
      .where('company_id', '=', lapsed.user.id)
      .execute();
    await upload(t, realNameCalls.uploadRealNameSource.path, paying.token, bothImages());

    const all = await t.call(operatorCalls.registeUser, { keyword: tag }, { token: admin() });
    expect(all.data.total).toBe(3);
    // newest first
    expect(all.data.list.map((c: { id: string }) => c.id)).toEqual([
      lapsed.user.id,
      paying.user.id,
      none.user.id,
    ]);
    const byId = Object.fromEntries(all.data.list.map((c: { id: string }) => [c.id, c]));
    expect(byId[none.user.id]).toMatchObject({
      packageState: 'none',
      activeSlots: 0,
      packageEndsAt: null,
      realNameStatus: 0,
    });
    expect(byId[paying.user.id]).toMatchObject({
      packageState: 'active',
      activeSlots: 20,
      realNameStatus: 2,
      companyAccount: paying.phone,
      remark: '',
      serviceExpiresAt: null,
    });
    expect(byId[lapsed.user.id]).toMatchObject({ packageState: 'expired', activeSlots: 0 });

    const filter = async (f: Record<string, unknown>) =>
      (await t.call(operatorCalls.registeUser, { keyword: tag, ...f }, { token: admin() })).data.list.map(
        (c: { id: string }) => c.id,
      );
    expect(await filter({ packageState: 'active' })).toEqual([paying.user.id]);
    expect(await filter({ packageState: 'expired' })).toEqual([lapsed.user.id]);
    expect(await filter({ packageState: 'none' })).toEqual([none.user.id]);
    expect(await filter({ realNameStatus: 2 })).toEqual([paying.user.id]);
    expect(await filter({ realNameStatus: 0 })).toEqual([lapsed.user.id, none.user.id]);
    expect(await filter({ pageSize: 1, page: 2 })).toEqual([paying.user.id]);
    // by account (phone), case-insensitive name, wildcard characters are literal
    expect(
      (await t.call(operatorCalls.registeUser, { keyword: paying.phone }, { token: admin() })).data.total,
    ).toBe(1);
    expect(
      (await t.call(operatorCalls.registeUser, { keyword: `%${tag}` }, { token: admin() })).data.total,
    ).toBe(0);
    // operators are not companies
    const ops = await t.call(operatorCalls.registeUser, { keyword: 'ops-admin' }, { token: admin() });
    expect(ops.data.total).toBe(0);
    const bad = await t.call(operatorCalls.registeUser, { realNameStatus: 9 } as never, { token: admin() });
    expect(bad).toMatchObject({ status: 400, code: '400' });
  });

  it('remarks and service expiry; past expiry: no buying, no API opening, no new logins (40304)', async () => {
    const c = await customerWithSubAccount(t, cat, 2);
    const remark = await t.call(
      operatorCalls.updateCompanyRemarks,
      { userId: c.user.id, remark: '  重点客户，月底续费  ' },
      { token: admin() },
    );
    expect(remark.data).toMatchObject({ id: c.user.id, remark: '重点客户，月底续费' });
    const found = await t.call(operatorCalls.registeUser, { keyword: '重点客户' }, { token: admin() });
    expect(found.data.list.map((x: { id: string }) => x.id)).toEqual([c.user.id]);
    const tooLong = await t.call(
      operatorCalls.updateCompanyRemarks,
      { userId: c.user.id, remark: 'x'.repeat(101) },
      { token: admin() },
    );
    expect(tooLong).toMatchObject({ status: 400, code: '400' });
    for (const userId of ['no-such-company', cat.admin.user.id]) {
      const missing = await t.call(
        operatorCalls.updateCompanyRemarks,
        { userId, remark: 'x' },
        { token: admin() },
      );
      expect(missing).toMatchObject({ status: 404, code: '404' });
    }

    // A QR code issued and scanned while the service ran, confirmed after it expired.
    const early = (await t.call(messagingCalls.getQrCode, {}, { headers: c.creds })).data;
    await t.call(simCalls.scanAction, { instanceId: early.instanceId, action: 'scan' });

    const past = Date.now() - 1000;
    const expired = await t.call(
      operatorCalls.updateCompanyExpireTime,
      { userId: c.user.id, expireAt: past },
      { token: admin() },
    );
    expect(expired.data).toMatchObject({ serviceExpiresAt: past, remark: '重点客户，月底续费' });
    const listed = await t.call(
      operatorCalls.registeUser,
      { keyword: c.phone, serviceExpired: true },
      { token: admin() },
    );
    expect(listed.data.total).toBe(1);

    const buy = await t.call(
      orderCalls.buy,
      { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
      { token: c.token },
    );
    expect(buy).toMatchObject({ status: 403, code: '40304', message: '服务已到期，请联系客服续期' });
    const open = await t.call(
      apiAccountCalls.openApiAccount,
      { name: '第二个', availableNum: 0 },
      { token: c.token },
    );
    expect(open).toMatchObject({ code: '40304' });
    const qr = await t.call(messagingCalls.getQrCode, {}, { headers: c.creds });
    expect(qr).toMatchObject({ status: 403, code: '40304' });
    const confirmed = await t.call(simCalls.scanAction, { instanceId: early.instanceId, action: 'confirm' });
    expect(confirmed).toMatchObject({ status: 403, code: '40304' });
    // the console stays readable
    expect((await t.call(packageCalls.queryPackage, {}, { token: c.token })).code).toBe('200');

    const lifted = await t.call(
      operatorCalls.updateCompanyExpireTime,
      { userId: c.user.id, expireAt: null },
      { token: admin() },
    );
    expect(lifted.data.serviceExpiresAt).toBeNull();
    expect((await t.call(messagingCalls.getQrCode, {}, { headers: c.creds })).code).toBe('200');
    const future = Date.now() + 30 * DAY;
    await t.call(
      operatorCalls.updateCompanyExpireTime,
      { userId: c.user.id, expireAt: future },
      { token: admin() },
    );
    await buyAndPay(t, c.token, cat.basic.id);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', cat.admin.user.id)
      .where('action', 'like', 'company.%')
      .where('detail', 'like', `%${c.user.id}%`)
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual([
      'company.expireAt',
      'company.expireAt',
      'company.expireAt',
      'company.remark',
    ]);
  });

  it("a company's packages and sub-accounts, read-only, as the customer sees them", async () => {
    const c = await customerWithSubAccount(t, cat, 2);
    await t.call(apiAccountCalls.recoveryApiAccount, { id: c.sub.id }, { token: c.token });
    await t.call(apiAccountCalls.openApiAccount, { name: '新应用', availableNum: 1 }, { token: c.token });
    const packages = await t.call(operatorCalls.companyPackages, { userId: c.user.id }, { token: admin() });
    const mine = await t.call(packageCalls.queryPackage, {}, { token: c.token });
    expect(packages.data).toEqual(mine.data);
    const subs = await t.call(operatorCalls.companySubAccounts, { userId: c.user.id }, { token: admin() });
    expect(subs.data.list.map((s: { name: string; status: string }) => [s.name, s.status]).sort()).toEqual([
      ['新应用', 'active'],
      ['机器人', 'recovered'],
    ]);
    expect(JSON.stringify(subs.data)).not.toMatch(/secret/i);
    const unknown = await t.call(operatorCalls.companySubAccounts, { userId: 'nobody' }, { token: admin() });
    expect(unknown).toMatchObject({ status: 404, code: '404' });
  });
});

describe.each(dialects)('agent panel (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV);
  });
  afterAll(() => t.close());

  it('totals and a daily trend from the database', async () => {
    const cat = await setUpCatalogue(t);
    const empty = await t.call(operatorCalls.agentPanel, {}, { token: cat.admin.token });
    expect(empty.data).toMatchObject({
      companies: 0,
      verified: 0,
      reviewing: 0,
      paying: 0,
      onlineAccounts: 0,
      revenueMonthFen: 0,
    });
    expect(empty.data.trend).toHaveLength(30);

    const a = await registerCompany(t);
    const b = await registerCompany(t);
    await registerCompany(t);
    await buyAndPay(t, a.token, cat.basic.id); // 29 900
    await buyAndPay(t, a.token, cat.business.id, 2); // 199 800
    await buyAndPay(t, b.token, cat.basic.id); // 29 900
    await upload(t, realNameCalls.uploadRealNameSource.path, a.token, bothImages());
    await upload(t, realNameCalls.uploadRealNameSource.path, b.token, bothImages());
    await t.call(realNameCalls.passRealNameAuth, { userId: b.user.id }, { token: cat.admin.token });
    // an unpaid order counts for nothing
    await t.call(
      orderCalls.buy,
      { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
      { token: b.token },
    );

    const panel = await t.call(operatorCalls.agentPanel, { days: 7 }, { token: cat.admin.token });
    expect(panel.data).toMatchObject({
      companies: 3,
      verified: 1,
      reviewing: 1,
      paying: 2,
      onlineAccounts: 0,
      revenueMonthFen: 259_600,
    });
    expect(panel.data.trend).toHaveLength(7);
    const today = panel.data.trend[6];
    expect(today).toMatchObject({ registered: 3, paidOrders: 3, revenueFen: 259_600 });
    expect(panel.data.trend.slice(0, 6).every((d: { registered: number }) => d.registered === 0)).toBe(true);
    expect((await t.call(operatorCalls.agentPanel, { days: 3 }, { token: cat.admin.token })).status).toBe(
      400,
    );
  });
});
