import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { contains, likePattern } from '../../db/text-match.js';

// The operator area's read models, over other modules' tables (users, company_ops, subscriptions,
// api_accounts, wx_accounts, orders) in single queries; it writes none of them.

type Eb = ExpressionBuilder<DB, 'users' | 'company_ops'>;

export interface CompanyFilter {
  keyword?: string | undefined;
  realNameStatus?: number | undefined;
  packageState?: 'active' | 'expired' | 'none' | undefined;
  serviceExpired?: boolean | undefined;
}

/** Customer companies with their package and usage figures, in one query. */
function companyViews(db: Kysely<DB>, now: number) {
  return db
    .selectFrom('users')
    .leftJoin('company_ops', 'company_ops.company_id', 'users.id')
    .where('users.role', '=', 'customer')
    .selectAll('users')
    .select(['company_ops.remark', 'company_ops.service_expires_at'])
    .select((eb) => [
      eb
        .selectFrom('subscriptions')
        .select((s) => s.fn.coalesce(s.fn.sum<number>('slots'), s.lit(0)).as('n'))
        .whereRef('subscriptions.company_id', '=', 'users.id')
        .where('subscriptions.ends_at', '>', now)
        .as('active_slots'),
      eb
        .selectFrom('subscriptions')
        .select((s) => s.fn.max('ends_at').as('m'))
        .whereRef('subscriptions.company_id', '=', 'users.id')
        .as('package_ends_at'),
      eb
        .selectFrom('api_accounts')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('api_accounts.company_id', '=', 'users.id')
        .where('api_accounts.status', '=', 'active')
        .as('sub_account_count'),
      eb
        .selectFrom('wx_online_counts')
        .select('wx_online_counts.online')
        .where('wx_online_counts.scope', '=', 'company')
        .whereRef('wx_online_counts.owner_id', '=', 'users.id')
        .as('online_count'),
    ]);
}

export type CompanyViewRow = Awaited<ReturnType<ReturnType<typeof companyViews>['executeTakeFirstOrThrow']>>;

export async function companyPage(
  db: Kysely<DB>,
  filter: CompanyFilter,
  page: number,
  pageSize: number,
  now: number,
) {
  let q = companyViews(db, now);
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    q = q.where((eb) =>
      eb.or([
        contains('users.company_name', pattern),
        contains('users.account', pattern),
        contains('company_ops.remark', pattern),
        contains('users.user_name', pattern),
      ]),
    );
  }
  if (filter.realNameStatus !== undefined) {
    // Spec §3: any value but 1, 2, 3 counts as unverified.
    q =
      filter.realNameStatus === 0
        ? q.where('users.real_name_status', 'not in', [1, 2, 3])
        : q.where('users.real_name_status', '=', filter.realNameStatus);
  }
  if (filter.packageState) {
    const active = (eb: Eb) =>
      eb.exists(
        eb
          .selectFrom('subscriptions')
          .select('subscriptions.id')
          .whereRef('subscriptions.company_id', '=', 'users.id')
          .where('subscriptions.ends_at', '>', now),
      );
    const any = (eb: Eb) =>
      eb.exists(
        eb
          .selectFrom('subscriptions')
          .select('subscriptions.id')
          .whereRef('subscriptions.company_id', '=', 'users.id'),
      );
    if (filter.packageState === 'active') q = q.where((eb) => active(eb));
    if (filter.packageState === 'expired') q = q.where((eb) => eb.and([any(eb), eb.not(active(eb))]));
    if (filter.packageState === 'none') q = q.where((eb) => eb.not(any(eb)));
  }
  if (filter.serviceExpired === true) q = q.where('company_ops.service_expires_at', '<=', now);
  if (filter.serviceExpired === false) {
    q = q.where((eb) =>
      eb.or([
        eb('company_ops.service_expires_at', 'is', null),
        eb('company_ops.service_expires_at', '>', now),
      ]),
    );
  }
  const total = await db
    .selectFrom(q.as('c'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}

export const findCompany = (db: Kysely<DB>, id: string, now: number) =>
  companyViews(db, now).where('users.id', '=', id).executeTakeFirst();

const count = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);

/** The operator panel's totals at `now`, and the registrations and paid orders since `from`. */
export async function panelFigures(db: Kysely<DB>, now: number, monthStart: number, from: number) {
  const customers = db.selectFrom('users').where('role', '=', 'customer');
  const [companies, verified, reviewing, paying, onlineAccounts, revenue, registered, paid] =
    await Promise.all([
      count(customers.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()),
      count(
        customers
          .where('real_name_status', '=', 1)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ),
      count(
        customers
          .where('real_name_status', '=', 2)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ),
      count(
        db
          .selectFrom('subscriptions')
          .where('ends_at', '>', now)
          .select((eb) => eb.fn.count<number>('company_id').distinct().as('n'))
          .executeTakeFirst(),
      ),
      count(
        db
          .selectFrom('wx_online_counts')
          .where('scope', '=', 'company')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('online'), eb.lit(0)).as('n'))
          .executeTakeFirst(),
      ),
      count(
        db
          .selectFrom('orders')
          .where('state', '=', 'paid')
          .where('paid_at', '>=', monthStart)
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_fen'), eb.lit(0)).as('n'))
          .executeTakeFirst(),
      ),
      customers.select('created_at').where('created_at', '>=', from).execute(),
      db
        .selectFrom('orders')
        .select(['paid_at', 'amount_fen'])
        .where('state', '=', 'paid')
        .where('paid_at', '>=', from)
        .execute(),
    ]);
  return { companies, verified, reviewing, paying, onlineAccounts, revenue, registered, paid };
}
