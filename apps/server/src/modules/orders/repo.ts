import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, OrdersTable } from '../../db/schema.js';

export const insert = (db: Kysely<DB>, row: Insertable<OrdersTable>) =>
  db.insertInto('orders').values(row).execute();

export const findByNo = (db: Kysely<DB>, orderNo: string) =>
  db.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();

export const findByIdempotencyKey = (db: Kysely<DB>, companyId: string, key: string) =>
  db
    .selectFrom('orders')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();

/** Moves `id` from one of `from` states to the patch's state; false when another request won. */
export async function transition(
  db: Kysely<DB>,
  id: string,
  from: OrdersTable['state'][],
  patch: Updateable<OrdersTable>,
): Promise<boolean> {
  const res = await db
    .updateTable('orders')
    .set(patch)
    .where('id', '=', id)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Pending orders past their pay deadline become expired-unpaid. */
export const expireOverdue = (db: Kysely<DB>, now: number) =>
  db
    .updateTable('orders')
    .set({ state: 'expired', closed_at: now })
    .where('state', '=', 'pending')
    .where('pay_deadline', '<=', now)
    .execute();

export interface OrderFilter {
  companyId?: string;
  orderNo?: string;
  state?: OrdersTable['state'];
  from?: number;
  to?: number;
  keyword?: string;
}

function filtered(db: Kysely<DB>, f: OrderFilter) {
  let q = db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.company_id');
  if (f.companyId) q = q.where('orders.company_id', '=', f.companyId);
  if (f.orderNo) q = q.where('orders.order_no', '=', f.orderNo);
  if (f.state) q = q.where('orders.state', '=', f.state);
  if (f.from !== undefined) q = q.where('orders.created_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('orders.created_at', '<=', f.to);
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[%_\\]/g, '\\$&')}%`;
    q = q.where((eb) =>
      eb.or([
        eb('orders.order_no', 'like', like),
        eb('users.company_name', 'like', like),
        eb('users.account', 'like', like),
      ]),
    );
  }
  return q;
}

export async function page(
  db: Kysely<DB>,
  f: OrderFilter,
  page: number,
  pageSize: number,
  orderBy: 'created_at' | 'paid_at',
) {
  const base = filtered(db, f);
  const [rows, count] = await Promise.all([
    base
      .selectAll('orders')
      .select(['users.company_name', 'users.account as company_account'])
      .orderBy(`orders.${orderBy}`, 'desc')
      .orderBy('orders.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function paidTotal(db: Kysely<DB>, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.sum<number>('amount_fen').as('n'))
    .where('company_id', '=', companyId)
    .where('state', '=', 'paid')
    .executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}
