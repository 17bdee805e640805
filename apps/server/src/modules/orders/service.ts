import { DAY_MS, ORDER_PAY_WINDOW_MS, type Order } from '@wxc/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB, OrderRow } from '../../db/schema.js';
import { newId, randomDigits } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { withLock } from '../../lib/lock.js';
import type { AuditService } from '../audit/service.js';
import type { CompanyGate } from '../company/service.js';
import type { PackageService } from '../packages/service.js';
import * as repo from './repo.js';

export function toOrder(row: OrderRow): Order {
  return {
    orderNo: row.order_no,
    kind: row.kind,
    packageId: row.package_id,
    packageName: row.package_name,
    tier: row.tier,
    quantity: row.quantity,
    durationDays: row.duration_days,
    slots: row.slots,
    amountFen: Number(row.amount_fen),
    state: row.state,
    payMethod: row.pay_method,
    subscriptionId: row.subscription_id,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    payDeadline: row.pay_deadline,
  };
}

/** Order numbers people can read out on the phone: WX + UTC date-time + 6 random digits. */
function newOrderNo(now: number): string {
  const stamp = new Date(now).toISOString().replace(/\D/g, '').slice(0, 14);
  return `WX${stamp}${randomDigits(6)}`;
}

const CLOSED_MESSAGES: Record<string, string> = {
  cancelled: '订单已取消，请重新下单',
  expired: '订单已超时未支付，请重新下单',
};

/** An order row of the operator's list, with its company. */
function toAdminOrder(row: OrderRow & { company_name: string; company_account: string }) {
  return {
    ...toOrder(row),
    companyId: row.company_id,
    companyName: row.company_name,
    companyAccount: row.company_account,
  };
}

export type PaymentMethod = 'sandbox' | 'offline';

export interface OrderDeps {
  db: Kysely<DB>;
  audit: AuditService;
  /** The packages orders snapshot, and the subscriptions a payment grants or extends. */
  packages: Pick<PackageService, 'findPackage' | 'findSubscription' | 'grant' | 'extend'>;
  /** Operator rules (real-name switch, service expiry, tier vs access mode) checked before an order is placed. */
  gate?: Pick<CompanyGate, 'assertMayTrade' | 'assertTierFits'> | undefined;
}

/** Orders (table `orders`): placed once per idempotency key, paid under the company's quota lock. */
export function createOrderService({ db, audit, packages, gate }: OrderDeps) {
  type Draft = Omit<
    OrderRow,
    | 'id'
    | 'order_no'
    | 'company_id'
    | 'idempotency_key'
    | 'state'
    | 'created_at'
    | 'pay_deadline'
    | 'pay_method'
    | 'paid_at'
    | 'closed_at'
    | 'note'
  >;

  /**
   * Creates a pending order once per idempotency key: a repeat with the same request answers the
   * first order; the same key for a different request is a conflict.
   */
  async function place(
    companyId: string,
    key: string,
    same: (o: OrderRow) => boolean,
    build: () => Promise<Draft>,
  ): Promise<Order> {
    const existing = await repo.findByIdempotencyKey(db, companyId, key);
    if (existing) {
      if (!same(existing)) throw new AppError('CONFLICT', '该 idempotencyKey 已用于另一笔订单');
      return toOrder(existing);
    }
    const draft = await build();
    const now = Date.now();
    try {
      await repo.insert(db, {
        ...draft,
        id: newId(),
        order_no: newOrderNo(now),
        company_id: companyId,
        idempotency_key: key,
        state: 'pending',
        pay_method: null,
        created_at: now,
        pay_deadline: now + ORDER_PAY_WINDOW_MS,
        paid_at: null,
        closed_at: null,
      });
    } catch (err) {
      // A double click raced us: the unique (company, key) index kept one order; answer with it.
      const winner = await repo.findByIdempotencyKey(db, companyId, key);
      if (winner && same(winner)) return toOrder(winner);
      throw err;
    }
    return toOrder((await repo.findByIdempotencyKey(db, companyId, key))!);
  }

  /** Marks the order paid and grants or extends its package, all in one transaction. */
  async function settle(order: OrderRow, method: PaymentMethod, note: string): Promise<OrderRow> {
    return withLock(db, `quota:${order.company_id}`, async (trx: Transaction<DB>) => {
      const now = Date.now();
      const fresh = (await repo.findByNo(trx, order.order_no))!;
      if (fresh.state === 'paid') return fresh;
      const allowed: OrderRow['state'][] = method === 'offline' ? ['pending', 'expired'] : ['pending'];
      if (!allowed.includes(fresh.state) || (method === 'sandbox' && fresh.pay_deadline <= now)) {
        throw new AppError('CONFLICT', CLOSED_MESSAGES[fresh.state] ?? CLOSED_MESSAGES.expired);
      }
      const spanMs = fresh.duration_days * fresh.quantity * DAY_MS;
      let subscriptionId = fresh.subscription_id;
      if (fresh.kind === 'buy') {
        subscriptionId = await packages.grant(
          trx,
          {
            companyId: fresh.company_id,
            packageId: fresh.package_id,
            packageName: fresh.package_name,
            tier: fresh.tier,
            slots: fresh.slots,
            spanMs,
          },
          now,
        );
      } else {
        const sub = await packages.findSubscription(fresh.company_id, fresh.subscription_id!, trx);
        if (!sub) throw new AppError('NOT_FOUND', '要续费的套餐不存在');
        await packages.extend(trx, sub, spanMs, now);
      }
      const moved = await repo.transition(trx, fresh.id, allowed, {
        state: 'paid',
        pay_method: method,
        paid_at: now,
        closed_at: now,
        subscription_id: subscriptionId,
        note,
      });
      if (!moved) throw new AppError('CONFLICT');
      return (await repo.findByNo(trx, fresh.order_no))!;
    });
  }

  async function ownOrder(companyId: string, orderNo: string): Promise<OrderRow> {
    const row = await repo.findByNo(db, orderNo);
    if (!row || row.company_id !== companyId) throw new AppError('NOT_FOUND', '订单不存在');
    return row;
  }

  return {
    async buy(companyId: string, input: { packageId: string; quantity: number; idempotencyKey: string }) {
      await gate?.assertMayTrade(companyId);
      const same = (o: OrderRow) =>
        o.kind === 'buy' && o.package_id === input.packageId && o.quantity === input.quantity;
      return place(companyId, input.idempotencyKey, same, async () => {
        const pkg = await packages.findPackage(input.packageId);
        if (pkg?.on_sale !== 1) throw new AppError('NOT_FOUND', '套餐不存在或已下架');
        await gate?.assertTierFits(companyId, [pkg.tier], 'buy');
        return {
          kind: 'buy' as const,
          package_id: pkg.id,
          subscription_id: null,
          package_name: pkg.name,
          tier: pkg.tier,
          slots: pkg.slots,
          duration_days: pkg.duration_days,
          quantity: input.quantity,
          amount_fen: Number(pkg.price_fen) * input.quantity,
        };
      });
    },

    async renew(
      companyId: string,
      input: { subscriptionId: string; quantity: number; idempotencyKey: string },
    ) {
      await gate?.assertMayTrade(companyId);
      const same = (o: OrderRow) =>
        o.kind === 'renew' && o.subscription_id === input.subscriptionId && o.quantity === input.quantity;
      return place(companyId, input.idempotencyKey, same, async () => {
        const sub = await packages.findSubscription(companyId, input.subscriptionId);
        if (!sub) throw new AppError('NOT_FOUND', '已购套餐不存在');
        const pkg = await packages.findPackage(sub.package_id);
        if (!pkg) throw new AppError('NOT_FOUND', '套餐不存在');
        await gate?.assertTierFits(companyId, [sub.tier], 'buy');
        // The renewal keeps the subscription's slots and takes the package's current period and price.
        return {
          kind: 'renew' as const,
          package_id: pkg.id,
          subscription_id: sub.id,
          package_name: sub.package_name,
          tier: sub.tier,
          slots: sub.slots,
          duration_days: pkg.duration_days,
          quantity: input.quantity,
          amount_fen: Number(pkg.price_fen) * input.quantity,
        };
      });
    },

    async paySandbox(companyId: string, orderNo: string, ip: string) {
      await repo.expireOverdue(db, Date.now());
      const paid = await settle(await ownOrder(companyId, orderNo), 'sandbox', '');
      await audit.record({
        userId: companyId,
        action: 'order.paid',
        ip,
        detail: { orderNo, method: 'sandbox' },
      });
      return toOrder(paid);
    },

    async cancel(companyId: string, orderNo: string) {
      await repo.expireOverdue(db, Date.now());
      const row = await ownOrder(companyId, orderNo);
      if (row.state !== 'pending') {
        throw new AppError(
          'CONFLICT',
          row.state === 'paid' ? '订单已支付，不能取消' : (CLOSED_MESSAGES[row.state] ?? ''),
        );
      }
      if (!(await repo.transition(db, row.id, ['pending'], { state: 'cancelled', closed_at: Date.now() }))) {
        throw new AppError('CONFLICT');
      }
      return toOrder((await repo.findByNo(db, orderNo))!);
    },

    /** A company's orders, newest first. */
    async list(filter: repo.OrderFilter, page: number, pageSize: number) {
      await repo.expireOverdue(db, Date.now());
      const { rows, total } = await repo.page(db, filter, page, pageSize, 'created_at');
      return { list: rows.map(toOrder), total, page, pageSize };
    },

    /** Every company's orders (operator), newest first. */
    async adminList(filter: repo.OrderFilter, page: number, pageSize: number) {
      await repo.expireOverdue(db, Date.now());
      const { rows, total } = await repo.page(db, filter, page, pageSize, 'created_at');
      return { list: rows.map(toAdminOrder), total, page, pageSize };
    },

    async consumeRecords(companyId: string, page: number, pageSize: number) {
      const { rows, total } = await repo.page(db, { companyId, state: 'paid' }, page, pageSize, 'paid_at');
      return {
        list: rows.map(toOrder),
        total,
        page,
        pageSize,
        totalFen: await repo.paidTotal(db, companyId),
      };
    },

    async markPaidOffline(orderNo: string, note: string, operatorId: string, ip: string) {
      await repo.expireOverdue(db, Date.now());
      const row = await repo.findByNo(db, orderNo);
      if (!row) throw new AppError('NOT_FOUND', '订单不存在');
      if (row.state === 'paid') throw new AppError('CONFLICT', '订单已支付');
      await settle(row, 'offline', note);
      await audit.record({
        userId: operatorId,
        action: 'order.markPaid',
        ip,
        detail: { orderNo, companyId: row.company_id },
      });
      const { rows } = await repo.page(db, { orderNo }, 1, 1, 'created_at');
      return toAdminOrder(rows[0]!);
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
