import type { Kysely } from 'kysely';
import type { ClientErrorsTable, DB } from '../../db/schema.js';

export const insert = (db: Kysely<DB>, row: ClientErrorsTable) =>
  db.insertInto('client_errors').values(row).execute();

/** Deletes a company's rows beyond its newest `keep` (newest by time, then id). */
export async function trim(db: Kysely<DB>, companyId: string, keep: number): Promise<void> {
  const last = await db
    .selectFrom('client_errors')
    .select(['created_at', 'id'])
    .where('company_id', '=', companyId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  if (!last) return;
  await db
    .deleteFrom('client_errors')
    .where('company_id', '=', companyId)
    .where((eb) =>
      eb.or([
        eb('created_at', '<', last.created_at),
        eb.and([eb('created_at', '=', last.created_at), eb('id', '<', last.id)]),
      ]),
    )
    .execute();
}

/** One page, newest first, with the company's name (`users`, a declared read); all companies when `companyId` is null. */
export async function page(db: Kysely<DB>, companyId: string | null, offset: number, limit: number) {
  let base = db.selectFrom('client_errors');
  if (companyId !== null) base = base.where('client_errors.company_id', '=', companyId);
  const [rows, count] = await Promise.all([
    base
      .leftJoin('users', 'users.id', 'client_errors.company_id')
      .select([
        'client_errors.id',
        'client_errors.company_id',
        'client_errors.kind',
        'client_errors.message',
        'client_errors.stack',
        'client_errors.source',
        'client_errors.user_agent',
        'client_errors.created_at',
        'users.company_name',
        'users.account',
      ])
      .orderBy('client_errors.created_at', 'desc')
      .orderBy('client_errors.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
