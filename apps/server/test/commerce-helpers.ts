import { randomUUID } from 'node:crypto';
import { DAY_MS, OK_CODE, orderCalls, packageCalls } from '@wxc/contract';
import type { DB } from '../src/db/schema.js';
import { createAdmin, registerCompany, type TestApp } from './helpers.js';

export const DAY = DAY_MS;

/** Row counts of the commerce tables: "bad input writes nothing" compares two of these. */
export async function commerceCounts(t: TestApp) {
  const tables: (keyof DB)[] = [
    'packages',
    'subscriptions',
    'orders',
    'api_accounts',
    'company_api_settings',
    'audit_log',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await t.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** An operator token, and a catalogue: the operator creates the packages the tests buy. */
export async function setUpCatalogue(t: TestApp) {
  const admin = await createAdmin(t);
  const make = async (
    name: string,
    tier: 'basic' | 'business' | 'enterprise',
    slots: number,
    durationDays: number,
    priceFen: number,
  ) => {
    const res = await t.call(
      packageCalls.adminSavePackage,
      { name, tier, slots, durationDays, priceFen, onSale: true, description: '' },
      { token: admin.token },
    );
    if (res.code !== OK_CODE) throw new Error(`savePackage failed: ${res.message}`);
    return res.data as { id: string; priceFen: number; slots: number; durationDays: number };
  };
  return {
    admin,
    basic: await make('测试基础版', 'basic', 5, 30, 29_900),
    business: await make('测试商务版', 'business', 20, 30, 99_900),
    enterprise: await make('测试企业版', 'enterprise', 100, 365, 3_999_000),
  };
}

/** Buys and pays a package through the sandbox; returns the paid order. */
export async function buyAndPay(t: TestApp, token: string, packageId: string, quantity = 1) {
  const order = await t.call(
    orderCalls.buy,
    { packageId, quantity, idempotencyKey: randomUUID() },
    { token },
  );
  if (order.code !== OK_CODE) throw new Error(`buy failed: ${order.message}`);
  const paid = await t.call(orderCalls.paySandbox, { orderNo: order.data.orderNo }, { token });
  if (paid.code !== OK_CODE) throw new Error(`pay failed: ${paid.message}`);
  return paid.data as { orderNo: string; subscriptionId: string; paidAt: number; amountFen: number };
}

/** A company that owns a paid package of `slots` slots. */
export async function payingCompany(t: TestApp, packageId: string) {
  const company = await registerCompany(t);
  const order = await buyAndPay(t, company.token, packageId);
  return { ...company, order };
}
