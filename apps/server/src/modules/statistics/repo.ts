import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// Reads for the dashboard figures. Every query starts with company_id and bounds time where it can,
// so the (company_id, logged_in_at / first_login_at / created_at) indexes serve it.

const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) =>
  Number((await q.executeTakeFirstOrThrow()).n);

/** The company's accounts online, as the database keeps them (wx_online_counts: no rows counted). */
export const countOnline = async (db: Kysely<DB>, companyId: string) =>
  Number(
    (
      await db
        .selectFrom('wx_online_counts')
        .select('online')
        .where('scope', '=', 'company')
        .where('owner_id', '=', companyId)
        .executeTakeFirst()
    )?.online ?? 0,
  );

export const countAccounts = (db: Kysely<DB>, companyId: string) =>
  count(
    db
      .selectFrom('wx_accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId),
  );

/** Accounts whose first login falls in [from, to). */
export const countAdded = (db: Kysely<DB>, companyId: string, from: number, to: number) =>
  count(
    db
      .selectFrom('wx_accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('first_login_at', '>=', from)
      .where('first_login_at', '<', to),
  );

/** First-login times in [from, to) (a month's worth, bucketed by day by the caller). */
export const firstLoginTimes = async (db: Kysely<DB>, companyId: string, from: number, to: number) =>
  (
    await db
      .selectFrom('wx_accounts')
      .select('first_login_at')
      .where('company_id', '=', companyId)
      .where('first_login_at', '>=', from)
      .where('first_login_at', '<', to)
      .execute()
  ).map((r) => r.first_login_at);

function sessions(db: Kysely<DB>, companyId: string, window?: { from: number; to: number }) {
  let q = db
    .selectFrom('wx_logins')
    .where('company_id', '=', companyId)
    .where('result', '=', 'success')
    .where('logged_in_at', 'is not', null);
  if (window) {
    q = q
      .where('logged_in_at', '<', window.to)
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', window.from)]));
  }
  return q;
}

/** Login sessions (successful logins) overlapping [from, to), or every one without a window. */
export const sessionTimes = (db: Kysely<DB>, companyId: string, window?: { from: number; to: number }) =>
  sessions(db, companyId, window).select(['logged_in_at', 'ended_at']).execute();

/** Distinct accounts with a login session overlapping [from, to). */
export const countAccountsOnlineWithin = (db: Kysely<DB>, companyId: string, from: number, to: number) =>
  count(
    sessions(db, companyId, { from, to }).select((eb) =>
      eb.fn.count<number>('wx_account_id').distinct().as('n'),
    ),
  );

/**
 * Messages of the given accounts created in [from, to), by account and direction, in one grouped
 * query. Outgoing messages that failed are left out.
 */
export async function messageCounts(
  db: Kysely<DB>,
  companyId: string,
  accountIds: string[],
  from: number,
  to: number,
) {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectFrom('wx_messages')
    .select(['wx_account_id', 'direction', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', companyId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('wx_account_id', 'in', accountIds)
    .where((eb) => eb.or([eb('direction', '=', 'in'), eb('status', '!=', 'failed')]))
    .groupBy(['wx_account_id', 'direction'])
    .execute();
  return rows.map((r) => ({ accountId: r.wx_account_id, direction: r.direction, n: Number(r.n) }));
}
