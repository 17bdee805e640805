import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB, WxAccountsTable } from '../../db/schema.js';
import type { WxAccountViewRow } from './mappers.js';

/** `%keyword%` for LIKE, with the wildcards of the keyword itself escaped (used with `escape '\'`). */
const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`;
/** Case-insensitive substring match on both SQLite and PostgreSQL. */
const contains = (column: string, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;

/**
 * Messaging accounts with their sub-account's name in one query, ready for `toWxAccount`. The
 * gateway may build on it (add a where clause) so every account view is the same shape.
 */
export const accountViews = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('wx_accounts')
    .innerJoin('api_accounts', 'api_accounts.id', 'wx_accounts.api_account_id')
    .selectAll('wx_accounts')
    .select('api_accounts.name as sub_account_name')
    .where('wx_accounts.company_id', '=', companyId);

/** One account of the company by wxid, with its sub-account's name. */
export const findAccountView = (
  db: Kysely<DB>,
  companyId: string,
  wxid: string,
): Promise<WxAccountViewRow | undefined> =>
  accountViews(db, companyId).where('wx_accounts.wxid', '=', wxid).executeTakeFirst();

export interface AccountFilter {
  status?: WxAccountsTable['status'];
  subAccountId?: string;
  keyword?: string;
}

/** A page of the company's accounts, newest login first. */
export async function accountPage(
  db: Kysely<DB>,
  companyId: string,
  f: AccountFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: WxAccountViewRow[]; total: number }> {
  let base = db.selectFrom('wx_accounts').where('wx_accounts.company_id', '=', companyId);
  if (f.status) base = base.where('wx_accounts.status', '=', f.status);
  if (f.subAccountId) base = base.where('wx_accounts.api_account_id', '=', f.subAccountId);
  if (f.keyword) {
    const like = likePattern(f.keyword);
    base = base.where((eb) =>
      eb.or([
        contains('wx_accounts.wxid', like),
        contains('wx_accounts.nickname', like),
        contains('wx_accounts.remark', like),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .innerJoin('api_accounts', 'api_accounts.id', 'wx_accounts.api_account_id')
      .selectAll('wx_accounts')
      .select('api_accounts.name as sub_account_name')
      .orderBy('wx_accounts.last_login_at', 'desc')
      .orderBy('wx_accounts.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Sets fields of the company's account; false when the company has no such wxid. */
export async function updateAccount(
  db: Kysely<DB>,
  companyId: string,
  wxid: string,
  patch: { remark?: string; expire_at?: number | null; updated_at: number },
): Promise<boolean> {
  const res = await db
    .updateTable('wx_accounts')
    .set(patch)
    .where('company_id', '=', companyId)
    .where('wxid', '=', wxid)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A page of login records (one per QR), newest first, with the nickname of the account that logged in. */
export async function loginPage(
  db: Kysely<DB>,
  companyId: string,
  wxid: string | undefined,
  page: number,
  pageSize: number,
) {
  let base = db.selectFrom('wx_logins').where('wx_logins.company_id', '=', companyId);
  if (wxid) base = base.where('wx_logins.wxid', '=', wxid);
  const [rows, count] = await Promise.all([
    base
      .leftJoin('wx_accounts', 'wx_accounts.id', 'wx_logins.wx_account_id')
      .selectAll('wx_logins')
      .select('wx_accounts.nickname')
      .orderBy('wx_logins.started_at', 'desc')
      .orderBy('wx_logins.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * A page of the company's devices, most recently used first. With a wxid: the devices that account
 * used (it last logged in there, or any login record of it names the device).
 */
export async function devicePage(
  db: Kysely<DB>,
  companyId: string,
  wxid: string | undefined,
  page: number,
  pageSize: number,
) {
  let base = db.selectFrom('wx_devices').where('wx_devices.company_id', '=', companyId);
  if (wxid) {
    base = base.where((eb) =>
      eb.or([
        eb('wx_devices.wxid', '=', wxid),
        eb(
          'wx_devices.id',
          'in',
          eb
            .selectFrom('wx_logins')
            .select('wx_logins.device_id')
            .where('wx_logins.company_id', '=', companyId)
            .where('wx_logins.wxid', '=', wxid),
        ),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .leftJoin('wx_accounts', (j) =>
        j
          .onRef('wx_accounts.company_id', '=', 'wx_devices.company_id')
          .onRef('wx_accounts.wxid', '=', 'wx_devices.wxid'),
      )
      .selectAll('wx_devices')
      .select('wx_accounts.nickname')
      .orderBy(sql`coalesce(wx_devices.last_login_at, wx_devices.created_at)`, 'desc')
      .orderBy('wx_devices.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
