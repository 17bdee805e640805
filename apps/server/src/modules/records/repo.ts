import { type Kysely, sql } from 'kysely';
import type { DB, WxAccountsTable } from '../../db/schema.js';
import { contains, likePattern } from '../../db/text-match.js';
import type { WxAccountViewRow } from '../messaging/mappers.js';

// The console's read views of the gateway's records (wx_accounts, wx_logins, wx_devices, with the
// sub-account's name from api_accounts). Written only by the gateway.

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
