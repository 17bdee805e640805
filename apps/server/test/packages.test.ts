import { randomUUID } from 'node:crypto';
import { orderCalls, packageCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, commerceCounts, DAY, setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';

describe.each(dialects)('packages and orders (%s)', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());

  describe('catalogue', () => {
    it('lists packages on sale by tier then price, with the access modes of each tier', async () => {
      const c = await registerCompany(t);
      const res = await t.call(packageCalls.list, {}, { token: c.token });
      expect(res.code).toBe('200');
      const tiers = res.data.list.map((p: { tier: string }) => p.tier);
      expect(tiers).toEqual(
        [...tiers].sort(
          (a, b) =>
            ['basic', 'business', 'enterprise'].indexOf(a) - ['basic', 'business', 'enterprise'].indexOf(b),
        ),
      );
      const byName = Object.fromEntries(res.data.list.map((p: { name: string }) => [p.name, p]));
      expect(byName.测试基础版.accessModes).toEqual([1]);
      expect(byName.测试商务版.accessModes).toEqual([1, 2]);
      expect(byName.测试企业版.accessModes).toEqual([1, 2, 3, 4]);
      expect(byName.测试企业版.priceFen).toBe(3_999_000);
    });

    it('needs a session', async () => {
      expect(await t.call(packageCalls.list, {})).toMatchObject({ status: 401, code: '403' });
    });

    it('hides packages taken off sale from the catalogue and from packageById unless owned', async () => {
      const c = await registerCompany(t);
      const owner = await registerCompany(t);
      const pkg = (
        await t.call(
          packageCalls.adminSavePackage,
          { name: '即将下架', tier: 'basic', slots: 1, durationDays: 7, priceFen: 100, onSale: true },
          { token: cat.admin.token },
        )
      ).data;
      await buyAndPay(t, owner.token, pkg.id);
      await t.call(
        packageCalls.adminSavePackage,
        {
          id: pkg.id,
          name: '即将下架',
          tier: 'basic',
          slots: 1,
          durationDays: 7,
          priceFen: 100,
          onSale: false,
        },
        { token: cat.admin.token },
      );
      const list = await t.call(packageCalls.list, {}, { token: c.token });
      expect(list.data.list.map((p: { id: string }) => p.id)).not.toContain(pkg.id);
      expect(await t.call(packageCalls.packageById, { id: pkg.id }, { token: c.token })).toMatchObject({
        status: 404,
        code: '404',
      });
      expect(
        (await t.call(packageCalls.packageById, { id: pkg.id }, { token: owner.token })).data.onSale,
      ).toBe(false);
      const buy = await t.call(
        orderCalls.buy,
        { packageId: pkg.id, quantity: 1, idempotencyKey: randomUUID() },
        { token: c.token },
      );
      expect(buy).toMatchObject({ status: 404, code: '404' });
    });
  });

  describe('buy and the sandbox payment', () => {
    it('creates one pending order whose total is price × quantity in fen, payable for 30 minutes', async () => {
      const c = await registerCompany(t);
      const res = await t.call(
        orderCalls.buy,
        { packageId: cat.basic.id, quantity: 3, idempotencyKey: randomUUID() },
        { token: c.token },
      );
      expect(res.code).toBe('200');
      expect(res.data).toMatchObject({
        state: 'pending',
        kind: 'buy',
        quantity: 3,
        amountFen: 89_700,
        slots: 5,
        durationDays: 30,
        paidAt: null,
      });
      expect(res.data.orderNo).toMatch(/^WX\d{20}$/);
      expect(res.data.payDeadline - res.data.createdAt).toBe(30 * 60_000);
      expect((await t.call(packageCalls.showByRecord, {}, { token: c.token })).data.show).toBe(false);
    });

    it('makes one order of a double click (same idempotency key), even when the requests race', async () => {
      const c = await registerCompany(t);
      const key = randomUUID();
      const input = { packageId: cat.basic.id, quantity: 1, idempotencyKey: key };
      const results = await Promise.all(
        Array.from({ length: 5 }, () => t.call(orderCalls.buy, input, { token: c.token })),
      );
      expect(results.every((r) => r.code === '200')).toBe(true);
      expect(new Set(results.map((r) => r.data.orderNo)).size).toBe(1);
      const orders = await t.call(orderCalls.queryOrders, {}, { token: c.token });
      expect(orders.data.total).toBe(1);
      const other = await t.call(orderCalls.buy, { ...input, quantity: 2 }, { token: c.token });
      expect(other).toMatchObject({ status: 409, code: '409' });
    });

    it('refuses bad quantities, unknown packages and malformed keys, writing nothing', async () => {
      const c = await registerCompany(t);
      const before = await commerceCounts(t);
      const bad: [unknown, RegExp][] = [
        [{ packageId: cat.basic.id, quantity: 0, idempotencyKey: randomUUID() }, /quantity/],
        [{ packageId: cat.basic.id, quantity: -1, idempotencyKey: randomUUID() }, /quantity/],
        [{ packageId: cat.basic.id, quantity: 37, idempotencyKey: randomUUID() }, /最多购买 36/],
        [{ packageId: cat.basic.id, quantity: 1.5, idempotencyKey: randomUUID() }, /quantity/],
        [{ packageId: cat.basic.id, quantity: '2', idempotencyKey: randomUUID() }, /quantity/],
        [{ packageId: cat.basic.id, quantity: 1e12, idempotencyKey: randomUUID() }, /quantity/],
        [{ packageId: cat.basic.id, quantity: 1, idempotencyKey: 'short' }, /idempotencyKey/],
        [{ packageId: cat.basic.id, quantity: 1, idempotencyKey: 'has space in it' }, /idempotencyKey/],
        [{ packageId: cat.basic.id, quantity: 1 }, /idempotencyKey/],
        [
          { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID(), priceFen: 1 },
          /不支持的参数：priceFen/,
        ],
      ];
      for (const [payload, message] of bad) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await t.call(orderCalls.buy, payload as any, { token: c.token });
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.message).toMatch(message);
      }
      const unknown = await t.call(
        orderCalls.buy,
        { packageId: 'nope', quantity: 1, idempotencyKey: randomUUID() },
        { token: c.token },
      );
      expect(unknown).toMatchObject({ status: 404, code: '404' });
      expect(await commerceCounts(t)).toEqual(before);
    });

    it('pays through the sandbox: the package starts now for days × quantity, once', async () => {
      const c = await registerCompany(t);
      const order = (
        await t.call(
          orderCalls.buy,
          { packageId: cat.business.id, quantity: 2, idempotencyKey: randomUUID() },
          { token: c.token },
        )
      ).data;
      const paid = await t.call(orderCalls.paySandbox, { orderNo: order.orderNo }, { token: c.token });
      expect(paid.data).toMatchObject({ state: 'paid', payMethod: 'sandbox' });
      expect(paid.data.subscriptionId).toBeTruthy();
      const again = await t.call(orderCalls.paySandbox, { orderNo: order.orderNo }, { token: c.token });
      expect(again.data.subscriptionId).toBe(paid.data.subscriptionId);

      const mine = await t.call(packageCalls.queryPackage, {}, { token: c.token });
      expect(mine.data.list).toHaveLength(1);
      const sub = mine.data.list[0];
      expect(sub).toMatchObject({
        status: 'active',
        slots: 20,
        tier: 'business',
        daysLeft: 60,
        expiringSoon: false,
      });
      expect(sub.endsAt - sub.startsAt).toBe(60 * DAY);
      expect(mine.data).toMatchObject({ totalSlots: 20, allocatedSlots: 0, freeSlots: 20 });
      const show = await t.call(packageCalls.showByRecord, {}, { token: c.token });
      expect(show.data).toEqual({ show: true, api: 'http://127.0.0.1:8080' });
    });

    it('two concurrent payments of one order grant one package', async () => {
      const c = await registerCompany(t);
      const order = (
        await t.call(
          orderCalls.buy,
          { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
          { token: c.token },
        )
      ).data;
      const results = await Promise.all(
        [1, 2, 3].map(() => t.call(orderCalls.paySandbox, { orderNo: order.orderNo }, { token: c.token })),
      );
      expect(results.every((r) => r.code === '200')).toBe(true);
      expect((await t.call(packageCalls.queryPackage, {}, { token: c.token })).data.list).toHaveLength(1);
    });

    it('refuses paying a cancelled or overdue order, and another company’s order', async () => {
      const c = await registerCompany(t);
      const other = await registerCompany(t);
      const buy = async () =>
        (
          await t.call(
            orderCalls.buy,
            { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
            { token: c.token },
          )
        ).data;
      const cancelled = await buy();
      expect(
        (await t.call(orderCalls.cancelOrder, { orderNo: cancelled.orderNo }, { token: c.token })).data.state,
      ).toBe('cancelled');
      expect(
        await t.call(orderCalls.paySandbox, { orderNo: cancelled.orderNo }, { token: c.token }),
      ).toMatchObject({
        status: 409,
        message: '订单已取消，请重新下单',
      });

      const overdue = await buy();
      await t.database.db
        .updateTable('orders')
        .set({ pay_deadline: Date.now() - 1 })
        .where('order_no', '=', overdue.orderNo)
        .execute();
      expect(
        await t.call(orderCalls.paySandbox, { orderNo: overdue.orderNo }, { token: c.token }),
      ).toMatchObject({
        status: 409,
        message: '订单已超时未支付，请重新下单',
      });
      const listed = await t.call(orderCalls.queryOrders, { state: 'expired' }, { token: c.token });
      expect(listed.data.list.map((o: { orderNo: string }) => o.orderNo)).toEqual([overdue.orderNo]);

      const mine = await buy();
      const before = await commerceCounts(t);
      expect(
        await t.call(orderCalls.paySandbox, { orderNo: mine.orderNo }, { token: other.token }),
      ).toMatchObject({ status: 404 });
      expect(
        await t.call(orderCalls.cancelOrder, { orderNo: mine.orderNo }, { token: other.token }),
      ).toMatchObject({ status: 404 });
      expect(await commerceCounts(t)).toEqual(before);
      expect((await t.call(orderCalls.queryOrders, {}, { token: other.token })).data.total).toBe(0);
    });

    it('cannot cancel a paid order', async () => {
      const c = await registerCompany(t);
      const paid = await buyAndPay(t, c.token, cat.basic.id);
      expect(
        await t.call(orderCalls.cancelOrder, { orderNo: paid.orderNo }, { token: c.token }),
      ).toMatchObject({
        status: 409,
        message: '订单已支付，不能取消',
      });
    });
  });

  describe('renew', () => {
    it('extends an active package from its current end', async () => {
      const c = await registerCompany(t);
      const first = await buyAndPay(t, c.token, cat.basic.id);
      const before = (await t.call(packageCalls.queryPackage, {}, { token: c.token })).data.list[0];
      const order = await t.call(
        orderCalls.renew,
        { subscriptionId: first.subscriptionId, quantity: 2, idempotencyKey: randomUUID() },
        { token: c.token },
      );
      expect(order.data).toMatchObject({
        kind: 'renew',
        amountFen: 59_800,
        subscriptionId: first.subscriptionId,
      });
      await t.call(orderCalls.paySandbox, { orderNo: order.data.orderNo }, { token: c.token });
      const after = (await t.call(packageCalls.queryPackage, {}, { token: c.token })).data.list;
      expect(after).toHaveLength(1);
      expect(after[0].endsAt - before.endsAt).toBe(60 * DAY);
      expect(after[0].startsAt).toBe(before.startsAt);
    });

    it('restarts a lapsed package from the payment time', async () => {
      const c = await registerCompany(t);
      const first = await buyAndPay(t, c.token, cat.basic.id);
      await t.database.db
        .updateTable('subscriptions')
        .set({ starts_at: Date.now() - 40 * DAY, ends_at: Date.now() - 10 * DAY })
        .where('id', '=', first.subscriptionId)
        .execute();
      const lapsed = await t.call(packageCalls.queryPackage, {}, { token: c.token });
      expect(lapsed.data.list[0]).toMatchObject({ status: 'expired', daysLeft: 0 });
      expect(lapsed.data.totalSlots).toBe(0);
      expect((await t.call(packageCalls.showByRecord, {}, { token: c.token })).data.show).toBe(false);

      const order = (
        await t.call(
          orderCalls.renew,
          { subscriptionId: first.subscriptionId, quantity: 1, idempotencyKey: randomUUID() },
          { token: c.token },
        )
      ).data;
      const paid = (await t.call(orderCalls.paySandbox, { orderNo: order.orderNo }, { token: c.token })).data;
      const sub = (await t.call(packageCalls.queryPackage, {}, { token: c.token })).data.list[0];
      expect(sub.status).toBe('active');
      expect(sub.startsAt).toBe(paid.paidAt);
      expect(sub.endsAt).toBe(paid.paidAt + 30 * DAY);
    });

    it('refuses renewing a package the company does not own', async () => {
      const owner = await registerCompany(t);
      const other = await registerCompany(t);
      const paid = await buyAndPay(t, owner.token, cat.basic.id);
      const before = await commerceCounts(t);
      const res = await t.call(
        orderCalls.renew,
        { subscriptionId: paid.subscriptionId, quantity: 1, idempotencyKey: randomUUID() },
        { token: other.token },
      );
      expect(res).toMatchObject({ status: 404, code: '404' });
      expect(await commerceCounts(t)).toEqual(before);
    });
  });

  describe('records', () => {
    it('pages and filters orders by state and creation time, newest first', async () => {
      const c = await registerCompany(t);
      for (let i = 0; i < 3; i++) await buyAndPay(t, c.token, cat.basic.id);
      // A later millisecond: orders of the same one have no order between them (CI once had a tie).
      await new Promise((resolve) => setTimeout(resolve, 2));
      const pending = (
        await t.call(
          orderCalls.buy,
          { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
          { token: c.token },
        )
      ).data;
      const page1 = await t.call(orderCalls.queryOrders, { page: 1, pageSize: 2 }, { token: c.token });
      expect(page1.data).toMatchObject({ total: 4, page: 1, pageSize: 2 });
      expect(page1.data.list[0].orderNo).toBe(pending.orderNo);
      const page2 = await t.call(orderCalls.queryOrders, { page: 2, pageSize: 2 }, { token: c.token });
      expect(page2.data.list).toHaveLength(2);
      expect((await t.call(orderCalls.queryOrders, { state: 'paid' }, { token: c.token })).data.total).toBe(
        3,
      );
      expect(
        (await t.call(orderCalls.queryOrders, { from: pending.createdAt }, { token: c.token })).data.total,
      ).toBeGreaterThanOrEqual(1);
      expect((await t.call(orderCalls.queryOrders, { to: 0 }, { token: c.token })).data.total).toBe(0);
      expect(await t.call(orderCalls.queryOrders, { pageSize: 101 }, { token: c.token })).toMatchObject({
        status: 400,
      });
      expect(
        await t.call(orderCalls.queryOrders, { state: 'weird' as 'paid' }, { token: c.token }),
      ).toMatchObject({ status: 400 });
    });

    it('consumeRecord lists paid orders with the total spent; openService the packages in force', async () => {
      const c = await registerCompany(t);
      await buyAndPay(t, c.token, cat.basic.id, 2);
      await buyAndPay(t, c.token, cat.business.id);
      await t.call(
        orderCalls.buy,
        { packageId: cat.basic.id, quantity: 1, idempotencyKey: randomUUID() },
        { token: c.token },
      );
      const records = await t.call(orderCalls.consumeRecord, {}, { token: c.token });
      expect(records.data).toMatchObject({ total: 2, totalFen: 2 * 29_900 + 99_900 });
      const services = await t.call(packageCalls.openService, {}, { token: c.token });
      expect(services.data.services).toHaveLength(2);
      expect(services.data).toMatchObject({ apiOpened: false, subAccountCount: 0 });
      expect(services.data.serviceEndsAt).toBe(
        Math.max(...services.data.services.map((s: { endsAt: number }) => s.endsAt)),
      );
    });
  });

  describe('operator', () => {
    it('customers cannot manage the catalogue or confirm payments', async () => {
      const c = await registerCompany(t);
      const before = await commerceCounts(t);
      const save = await t.call(
        packageCalls.adminSavePackage,
        { name: '偷偷加的', tier: 'basic', slots: 1, durationDays: 1, priceFen: 0, onSale: true },
        { token: c.token },
      );
      expect(save).toMatchObject({ status: 403, code: '40300' });
      expect(await t.call(orderCalls.adminMarkPaid, { orderNo: 'x' }, { token: c.token })).toMatchObject({
        code: '40300',
      });
      expect(await t.call(orderCalls.adminQueryOrders, {}, { token: c.token })).toMatchObject({
        code: '40300',
      });
      expect(await commerceCounts(t)).toEqual(before);
    });

    it('validates packages: integer fen, positive slots and days', async () => {
      const base = {
        name: '价格测试',
        tier: 'basic' as const,
        slots: 1,
        durationDays: 30,
        priceFen: 100,
        onSale: true,
      };
      for (const patch of [
        { priceFen: 1.5 },
        { priceFen: -1 },
        { slots: 0 },
        { durationDays: 0 },
        { tier: 'gold' },
        { name: 'x' },
      ]) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await t.call(packageCalls.adminSavePackage, { ...base, ...patch } as any, {
          token: cat.admin.token,
        });
        expect(res.status, JSON.stringify(patch)).toBe(400);
      }
      expect(
        await t.call(packageCalls.adminSavePackage, { ...base, id: 'nope' }, { token: cat.admin.token }),
      ).toMatchObject({ status: 404 });
    });

    it('marks an offline transfer paid (even after the sandbox window), which grants the package', async () => {
      const c = await registerCompany(t, { companyName: '线下转账公司' });
      const order = (
        await t.call(
          orderCalls.buy,
          { packageId: cat.enterprise.id, quantity: 1, idempotencyKey: randomUUID() },
          { token: c.token },
        )
      ).data;
      await t.database.db
        .updateTable('orders')
        .set({ pay_deadline: Date.now() - 1 })
        .where('order_no', '=', order.orderNo)
        .execute();
      const listed = await t.call(
        orderCalls.adminQueryOrders,
        { keyword: '线下转账' },
        { token: cat.admin.token },
      );
      expect(listed.data.list.map((o: { orderNo: string }) => o.orderNo)).toContain(order.orderNo);
      const res = await t.call(
        orderCalls.adminMarkPaid,
        { orderNo: order.orderNo, note: '工行转账 0012' },
        { token: cat.admin.token },
      );
      expect(res.data).toMatchObject({
        state: 'paid',
        payMethod: 'offline',
        companyName: '线下转账公司',
        companyAccount: c.phone,
      });
      expect((await t.call(packageCalls.queryPackage, {}, { token: c.token })).data.totalSlots).toBe(100);
      expect(
        await t.call(orderCalls.adminMarkPaid, { orderNo: order.orderNo }, { token: cat.admin.token }),
      ).toMatchObject({ status: 409 });
    });
  });
});
