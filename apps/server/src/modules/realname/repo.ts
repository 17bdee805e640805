import type { Insertable, Kysely } from 'kysely';
import type { DB, RealnameReviewsTable, ReviewStateValue } from '../../db/schema.js';
import { contains, likePattern } from '../../db/text-match.js';

/** Which of these file ids some submission names (the others are uploadImg leftovers). */
export async function usedImageIds(db: Kysely<DB>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('realname_reviews')
    .select(['social_image_id', 'licence_image_id'])
    .where((eb) => eb.or([eb('social_image_id', 'in', [...ids]), eb('licence_image_id', 'in', [...ids])]))
    .execute();
  return new Set(rows.flatMap((r) => [r.social_image_id, r.licence_image_id]));
}

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
