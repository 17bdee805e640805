import { type Expression, type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { DB, PackagesTable, SubscriptionsTable } from '../../db/schema.js';

// ---- catalogue

export const listPackages = (db: Kysely<DB>, onlyOnSale: boolean) => {
  let q = db.selectFrom('packages').selectAll();
  if (onlyOnSale) q = q.where('on_sale', '=', 1);
  return q.orderBy('price_fen').execute();
};

export const findPackage = (db: Kysely<DB>, id: string) =>
  db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();

export const insertPackage = (db: Kysely<DB>, row: Insertable<PackagesTable>) =>
  db.insertInto('packages').values(row).execute();

export const updatePackage = (db: Kysely<DB>, id: string, patch: Updateable<PackagesTable>) =>
  db.updateTable('packages').set(patch).where('id', '=', id).execute();

export const countPackages = async (db: Kysely<DB>) =>
  Number(
    (
      await db
        .selectFrom('packages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

// ---- subscriptions (purchased packages)
export const listSubscriptions = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('ends_at', 'desc')
    .execute();

export const findSubscription = (db: Kysely<DB>, companyId: string, id: string) =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

export const insertSubscription = (db: Kysely<DB>, row: Insertable<SubscriptionsTable>) =>
  db.insertInto('subscriptions').values(row).execute();

export const updateSubscription = (db: Kysely<DB>, id: string, patch: Updateable<SubscriptionsTable>) =>
  db.updateTable('subscriptions').set(patch).where('id', '=', id).execute();

/** Slots of the company's packages in force at `now` (every send asks: prepared). */
/**
 * The slots of a company's subscriptions in force at `now`, as an expression for another query's
 * select list (null when none): the send reads them with its account in one statement.
 */
export const activeSlotsOf = (companyId: Expression<string>, now: number) =>
  sql<
    number | null
  >`(select sum("slots") from "subscriptions" where "company_id" = ${companyId} and "starts_at" <= ${now} and "ends_at" > ${now})`;

const activeSlotsQuery = preparedQuery(2, (db, companyId: string, now: number) =>
  db.selectNoFrom(activeSlotsOf(sql.val(companyId), now).as('n')),
);
export async function activeSlots(db: Kysely<DB>, companyId: string, now: number): Promise<number> {
  const row = (await activeSlotsQuery(db, companyId, now)).rows[0];
  return Number(row?.n ?? 0);
}
