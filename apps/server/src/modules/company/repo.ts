import { type Expression, type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';

/** What the company rules read: real-name status and access mode (`users`), service end (`company_ops`). */
export const ruleFacts = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('users')
    .leftJoin('company_ops', 'company_ops.company_id', 'users.id')
    .select(['users.real_name_status', 'users.account_type', 'company_ops.service_expires_at'])
    .where('users.id', '=', companyId)
    .executeTakeFirst();

export const setRemark = (db: Kysely<DB>, companyId: string, remark: string, now: number) =>
  db
    .insertInto('company_ops')
    .values({ company_id: companyId, remark, service_expires_at: null, updated_at: now })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ remark, updated_at: now }))
    .execute();

export const setServiceExpiry = (db: Kysely<DB>, companyId: string, expireAt: number | null, now: number) =>
  db
    .insertInto('company_ops')
    .values({ company_id: companyId, service_expires_at: expireAt, updated_at: now })
    .onConflict((oc) =>
      oc.column('company_id').doUpdateSet({ service_expires_at: expireAt, updated_at: now }),
    )
    .execute();

/** The company's service end (`company_ops`), as a scalar subquery: null when the operator set none. */
export const serviceExpiresAtOf = (companyId: Expression<string>) =>
  sql<number | null>`(select "service_expires_at" from "company_ops" where "company_id" = ${companyId})`;
