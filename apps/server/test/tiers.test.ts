import { randomUUID } from 'node:crypto';
import { apiAccountCalls, orderCalls, packageCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, commerceCounts, setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';

/**
 * Spec §9: a package tier serves some access modes only: SaaS basic and above, local deployment
 * business and above, hosted and private enterprise. Checked by the service, not just shown.
 */
describe.each(dialects)('package tier vs access mode (%s)', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());

  /** A company of the given access mode (registration takes extAccountType; the helper uses SaaS). */
  const companyOf = async (accountType: 1 | 2 | 3 | 4) => {
    const c = await registerCompany(t);
    await t.database.db
      .updateTable('users')
      .set({ account_type: accountType })
      .where('id', '=', c.user.id)
      .execute();
    return c;
  };
  const buy = (token: string, packageId: string) =>
    t.call(orderCalls.buy, { packageId, quantity: 1, idempotencyKey: randomUUID() }, { token });

  it('a local-deployment company cannot buy 基础版: a clear 40025 naming what it needs, and no order', async () => {
    const c = await companyOf(2);
    const before = await commerceCounts(t);
    const res = await buy(c.token, cat.basic.id);
    expect(res).toMatchObject({ status: 400, code: '40025' });
    expect(res.message).toContain('「本地部署」接入方式需要商务版及以上套餐');
    expect(await commerceCounts(t)).toEqual(before);
    expect((await buy(c.token, cat.business.id)).code).toBe('200');
  });

  it('hosted and private companies need 企业版; SaaS takes any tier', async () => {
    for (const mode of [3, 4] as const) {
      const c = await companyOf(mode);
      const res = await buy(c.token, cat.business.id);
      expect(res.code).toBe('40025');
      expect(res.message).toContain('需要企业版套餐');
      expect((await buy(c.token, cat.enterprise.id)).code).toBe('200');
    }
    const saas = await companyOf(1);
    for (const pkg of [cat.basic, cat.business, cat.enterprise])
      expect((await buy(saas.token, pkg.id)).code).toBe('200');
  });

  it('opening the API needs a package in force that fits the access mode', async () => {
    // A company that bought 基础版 as SaaS and is now local deployment (the operator changed it).
    const c = await registerCompany(t);
    await buyAndPay(t, c.token, cat.basic.id);
    await t.database.db.updateTable('users').set({ account_type: 2 }).where('id', '=', c.user.id).execute();
    const before = await commerceCounts(t);
    const applied = await t.call(apiAccountCalls.applyApis, {}, { token: c.token });
    expect(applied).toMatchObject({ code: '40025' });
    expect(applied.message).toContain('请先购买符合的套餐再开通 API');
    const opened = await t.call(
      apiAccountCalls.openApiAccount,
      { name: '应用', availableNum: 0 },
      { token: c.token },
    );
    expect(opened.code).toBe('40025');
    expect(await commerceCounts(t)).toEqual(before);
    // Renewing the package that does not fit is refused too.
    const subs = await t.call(packageCalls.queryPackage, {}, { token: c.token });
    const renew = await t.call(
      orderCalls.renew,
      { subscriptionId: subs.data.list[0].id, quantity: 1, idempotencyKey: randomUUID() },
      { token: c.token },
    );
    expect(renew.code).toBe('40025');

    await buyAndPay(t, c.token, cat.business.id);
    expect(await t.call(apiAccountCalls.applyApis, {}, { token: c.token })).toMatchObject({
      code: '200',
      message: '申请成功',
    });
  });
});
