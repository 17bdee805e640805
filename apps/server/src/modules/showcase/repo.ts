import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB, ShowcaseArticlesTable, ShowcaseRolesTable, ShowcaseStateTable } from '../../db/schema.js';
import { contains } from '../../db/text-match.js';

// The showcase's own tables (showcase_articles, showcase_roles, showcase_tokens, showcase_state); every statement
// names the company.

export type ArticleRow = Selectable<ShowcaseArticlesTable>;
export type RoleRow = Selectable<ShowcaseRolesTable>;
export type NewArticle = Omit<Insertable<ShowcaseArticlesTable>, 'id'>;

// ---- seeding

/** Whether the company's showcase data exists (its built-in `admin` role is the mark). */
export const isSeeded = async (db: Kysely<DB>, companyId: string) =>
  (await db
    .selectFrom('showcase_roles')
    .select('key')
    .where('company_id', '=', companyId)
    .where('key', '=', 'admin')
    .executeTakeFirst()) !== undefined;

/**
 * Writes the company's first showcase data, once: the `admin` role goes in first (on conflict
 * nothing), and only the transaction that wrote it writes the rest, so two processes seeding the
 * same company at once leave one copy.
 */
export async function seed(
  db: Kysely<DB>,
  roles: Insertable<ShowcaseRolesTable>[],
  articles: Insertable<ShowcaseArticlesTable>[],
): Promise<boolean> {
  const [mark, ...rest] = roles;
  if (!mark) return false;
  return db.transaction().execute(async (trx) => {
    const written = await trx
      .insertInto('showcase_roles')
      .values(mark)
      .onConflict((oc) => oc.columns(['company_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!written) return false;
    if (rest.length > 0) await trx.insertInto('showcase_roles').values(rest).execute();
    if (articles.length > 0) await trx.insertInto('showcase_articles').values(articles).execute();
    return true;
  });
}

// ---- articles

export interface ArticleFilter {
  importance?: number | undefined;
  type?: string | undefined;
  /** A LIKE pattern (db/text-match.ts likePattern). */
  titlePattern?: string | undefined;
}

function filtered(db: Kysely<DB>, companyId: string, filter: ArticleFilter) {
  let q = db.selectFrom('showcase_articles').where('company_id', '=', companyId);
  if (filter.importance !== undefined) q = q.where('importance', '=', filter.importance);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  if (filter.titlePattern !== undefined) q = q.where(contains('title', filter.titlePattern));
  return q;
}

export const countArticles = async (db: Kysely<DB>, companyId: string, filter: ArticleFilter = {}) =>
  Number(
    (
      await filtered(db, companyId, filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const listArticles = (
  db: Kysely<DB>,
  companyId: string,
  filter: ArticleFilter,
  page: { descending: boolean; offset: number; limit: number },
) =>
  filtered(db, companyId, filter)
    .selectAll()
    .orderBy('id', page.descending ? 'desc' : 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();

export const findArticle = (db: Kysely<DB>, companyId: string, id: number) =>
  db
    .selectFrom('showcase_articles')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * Adds an article with the company's next number. Two creates at once may pick the same number:
 * the second finds it taken (on conflict nothing) and tries the next.
 */
export async function insertArticle(db: Kysely<DB>, article: NewArticle): Promise<ArticleRow> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const top = await db
      .selectFrom('showcase_articles')
      .select((eb) => eb.fn.max('id').as('top'))
      .where('company_id', '=', article.company_id)
      .executeTakeFirst();
    const row = await db
      .insertInto('showcase_articles')
      .values({ ...article, id: Number(top?.top ?? 0) + 1 })
      .onConflict((oc) => oc.columns(['company_id', 'id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) return row;
  }
  throw new Error('showcase: no free article number after 10 attempts');
}

export const updateArticle = (
  db: Kysely<DB>,
  companyId: string,
  id: number,
  changes: Updateable<ShowcaseArticlesTable>,
) =>
  db
    .updateTable('showcase_articles')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

/** Authors and reviewers of the company's articles whose name contains the pattern. */
export async function namesLike(db: Kysely<DB>, companyId: string, pattern: string, limit: number) {
  const [authors, reviewers] = await Promise.all(
    (['author', 'reviewer'] as const).map((column) =>
      db
        .selectFrom('showcase_articles')
        .select(`${column} as name`)
        .distinct()
        .where('company_id', '=', companyId)
        .where(column, '<>', '')
        .where(contains(column, pattern))
        .orderBy('name')
        .limit(limit)
        .execute(),
    ),
  );
  return [...(authors ?? []), ...(reviewers ?? [])].map((r) => r.name);
}

// ---- roles

export const listRoles = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('showcase_roles')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('builtin', 'desc')
    .orderBy('created_at')
    .orderBy('key')
    .execute();

export const countRoles = async (db: Kysely<DB>, companyId: string) =>
  Number(
    (
      await db
        .selectFrom('showcase_roles')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findRole = (db: Kysely<DB>, companyId: string, key: string) =>
  db
    .selectFrom('showcase_roles')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .executeTakeFirst();

/** Adds a role unless its key is taken in the company; answers whether it was added. */
export const insertRole = async (db: Kysely<DB>, role: Insertable<ShowcaseRolesTable>) =>
  (await db
    .insertInto('showcase_roles')
    .values(role)
    .onConflict((oc) => oc.columns(['company_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst()) !== undefined;

export const updateRole = async (
  db: Kysely<DB>,
  companyId: string,
  key: string,
  changes: Pick<Updateable<ShowcaseRolesTable>, 'name' | 'description' | 'routes' | 'updated_at'>,
) =>
  (await db
    .updateTable('showcase_roles')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .returning('key')
    .executeTakeFirst()) !== undefined;

/** Deletes a role that is not built in; answers whether one was deleted. */
export const deleteRole = async (db: Kysely<DB>, companyId: string, key: string) =>
  (await db
    .deleteFrom('showcase_roles')
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .where('builtin', '=', 0)
    .returning('key')
    .executeTakeFirst()) !== undefined;

// ---- tokens of the showcase identities

/** Adds a token and marks the same user's earlier live tokens in the company as replaced. */
export const insertToken = (
  db: Kysely<DB>,
  token: { tokenHash: string; companyId: string; username: string; now: number; expiresAt: number },
) =>
  db.transaction().execute(async (trx) => {
    await trx
      .updateTable('showcase_tokens')
      .set({ replaced_at: token.now })
      .where('company_id', '=', token.companyId)
      .where('username', '=', token.username)
      .where('replaced_at', 'is', null)
      .execute();
    await trx
      .insertInto('showcase_tokens')
      .values({
        token_hash: token.tokenHash,
        company_id: token.companyId,
        username: token.username,
        created_at: token.now,
        expires_at: token.expiresAt,
        replaced_at: null,
      })
      .execute();
  });

export const findToken = (db: Kysely<DB>, companyId: string, tokenHash: string) =>
  db
    .selectFrom('showcase_tokens')
    .select(['username', 'expires_at', 'replaced_at'])
    .where('token_hash', '=', tokenHash)
    .where('company_id', '=', companyId)
    .executeTakeFirst();

export const deleteToken = (db: Kysely<DB>, companyId: string, tokenHash: string) =>
  db
    .deleteFrom('showcase_tokens')
    .where('token_hash', '=', tokenHash)
    .where('company_id', '=', companyId)
    .execute();

/**
 * Forgets the company's dead tokens (expired or replaced) once they are older than `before`: until
 * then they answer 50014 / 50012 rather than 50008.
 */
export async function pruneTokens(db: Kysely<DB>, companyId: string, before: number, keepReplaced: number) {
  await db
    .deleteFrom('showcase_tokens')
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('replaced_at', '<', before)]))
    .execute();
  // Many logins in a day: only the newest replaced tokens are remembered.
  await db
    .deleteFrom('showcase_tokens')
    .where('company_id', '=', companyId)
    .where('replaced_at', 'is not', null)
    .where(
      'token_hash',
      'not in',
      db
        .selectFrom('showcase_tokens')
        .select('token_hash')
        .where('company_id', '=', companyId)
        .where('replaced_at', 'is not', null)
        .orderBy('created_at', 'desc')
        .limit(keepReplaced),
    )
    .execute();
}

// ---- saved state (the kanban board, the avatar's file id)

export type StateKey = ShowcaseStateTable['key'];

export const findState = async (db: Kysely<DB>, companyId: string, key: StateKey) =>
  (
    await db
      .selectFrom('showcase_state')
      .select('value')
      .where('company_id', '=', companyId)
      .where('key', '=', key)
      .executeTakeFirst()
  )?.value ?? null;

export const saveState = (db: Kysely<DB>, companyId: string, key: StateKey, value: string, now: number) =>
  db
    .insertInto('showcase_state')
    .values({ company_id: companyId, key, value, updated_at: now })
    .onConflict((oc) => oc.columns(['company_id', 'key']).doUpdateSet({ value, updated_at: now }))
    .execute();
