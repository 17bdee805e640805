import { type Expression, type Insertable, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB, RealnameImagesTable, RealnameReviewsTable, ReviewStateValue } from '../../db/schema.js';

export const insertImage = (db: Kysely<DB>, row: Insertable<RealnameImagesTable>) =>
  db.insertInto('realname_images').values(row).execute();

export const findImage = (db: Kysely<DB>, id: string) =>
  db.selectFrom('realname_images').selectAll().where('id', '=', id).executeTakeFirst();

export const imagesByIds = (db: Kysely<DB>, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('realname_images').selectAll().where('id', 'in', ids).execute();

/** Images of a company that no submission uses, uploaded before `before` (uploadImg leftovers). */
export const orphanImages = (db: Kysely<DB>, companyId: string, before: number) =>
  db
    .selectFrom('realname_images')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('created_at', '<', before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('realname_reviews')
            .select('realname_reviews.id')
            .where((w) =>
              w.or([
                w('realname_reviews.social_image_id', '=', w.ref('realname_images.id')),
                w('realname_reviews.licence_image_id', '=', w.ref('realname_images.id')),
              ]),
            ),
        ),
      ),
    )
    .execute();

export const deleteImage = (db: Kysely<DB>, id: string) =>
  db.deleteFrom('realname_images').where('id', '=', id).execute();

export const insertReview = (db: Kysely<DB>, row: Insertable<RealnameReviewsTable>) =>
  db.insertInto('realname_reviews').values(row).execute();

export const latestReview = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('realname_reviews')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Ends the company's pending review (a new submission replaces it, or an operator decides). */
export async function closePending(
  db: Kysely<DB>,
  companyId: string,
  patch: {
    state: Exclude<ReviewStateValue, 'pending'>;
    refuse_reason?: string | null;
    decided_at?: number | null;
    decided_by?: string | null;
  },
): Promise<number> {
  const res = await db
    .updateTable('realname_reviews')
    .set(patch)
    .where('company_id', '=', companyId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export interface ReviewFilter {
  state?: ReviewStateValue | undefined;
  keyword?: string | undefined;
  userId?: string | undefined;
}

/** `%keyword%` for LIKE, the keyword's own wildcards escaped (used with `escape '\\'`). */
export const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`;
/** Case-insensitive substring match on both SQLite and PostgreSQL. */
export const contains = (column: string, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;

export async function reviewPage(db: Kysely<DB>, filter: ReviewFilter, page: number, pageSize: number) {
  let q = db
    .selectFrom('realname_reviews')
    .innerJoin('users', 'users.id', 'realname_reviews.company_id')
    .leftJoin('users as op', 'op.id', 'realname_reviews.decided_by');
  if (filter.state) q = q.where('realname_reviews.state', '=', filter.state);
  if (filter.userId) q = q.where('realname_reviews.company_id', '=', filter.userId);
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    const keyword = filter.keyword;
    q = q.where((eb) =>
      eb.or([
        contains('users.company_name', pattern),
        contains('users.account', pattern),
        eb('users.id', '=', keyword),
      ]),
    );
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const oldestFirst = filter.state === 'pending';
  const rows = await q
    .selectAll('realname_reviews')
    .select([
      'users.company_name',
      'users.account as company_account',
      'users.real_name_status',
      'op.user_name as decided_by_name',
      'op.account as decided_by_account',
    ])
    .orderBy('realname_reviews.submitted_at', oldestFirst ? 'asc' : 'desc')
    .orderBy('realname_reviews.id', oldestFirst ? 'asc' : 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}
