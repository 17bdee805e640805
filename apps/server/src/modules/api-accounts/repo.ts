import type { Insertable, Kysely, Updateable } from 'kysely';
import type { ApiAccountsTable, DB } from '../../db/schema.js';

export const list = (db: Kysely<DB>, companyId: string, includeRecovered: boolean) => {
  let q = db.selectFrom('api_accounts').selectAll().where('company_id', '=', companyId);
  if (!includeRecovered) q = q.where('status', '=', 'active');
  return q.orderBy('created_at').execute();
};

export const find = (db: Kysely<DB>, companyId: string, id: string) =>
  db
    .selectFrom('api_accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

export const findByAppKey = (db: Kysely<DB>, appKey: string) =>
  db.selectFrom('api_accounts').selectAll().where('app_key', '=', appKey).executeTakeFirst();

export async function countActive(db: Kysely<DB>, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('api_accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countAll(db: Kysely<DB>, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('api_accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Slots allocated to the company's active sub-accounts (optionally leaving one out). */
export async function allocatedSlots(db: Kysely<DB>, companyId: string, exceptId?: string): Promise<number> {
  let q = db
    .selectFrom('api_accounts')
    .select((eb) => eb.fn.sum<number>('available_num').as('n'))
    .where('company_id', '=', companyId)
    .where('status', '=', 'active');
  if (exceptId) q = q.where('id', '!=', exceptId);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

export const insert = (db: Kysely<DB>, row: Insertable<ApiAccountsTable>) =>
  db.insertInto('api_accounts').values(row).execute();

export const update = (db: Kysely<DB>, companyId: string, id: string, patch: Updateable<ApiAccountsTable>) =>
  db
    .updateTable('api_accounts')
    .set(patch)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();

/** Reclaims an active sub-account; false when it was already reclaimed. */
export async function recover(db: Kysely<DB>, companyId: string, id: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('api_accounts')
    .set({ status: 'recovered', available_num: 0, recovered_at: now, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export const findSettings = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('company_api_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();

export const upsertSettings = (
  db: Kysely<DB>,
  row: { company_id: string; default_callback_url: string | null; ip_allowlist: string; updated_at: number },
) =>
  db
    .insertInto('company_api_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('company_id').doUpdateSet({
        default_callback_url: row.default_callback_url,
        ip_allowlist: row.ip_allowlist,
        updated_at: row.updated_at,
      }),
    )
    .execute();
