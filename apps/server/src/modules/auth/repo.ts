import type { Insertable, Kysely } from 'kysely';
import type { DB, NewUser, SessionsTable, UserUpdate } from '../../db/schema.js';

// ---- users
export const findUserById = (db: Kysely<DB>, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByAccount = (db: Kysely<DB>, account: string) =>
  db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();

export const insertUser = (db: Kysely<DB>, user: NewUser) => db.insertInto('users').values(user).execute();

export const updateUser = (db: Kysely<DB>, id: string, patch: UserUpdate) =>
  db.updateTable('users').set(patch).where('id', '=', id).execute();

export const hasUserWithRole = async (db: Kysely<DB>, role: 'admin' | 'customer') =>
  (await db.selectFrom('users').select('id').where('role', '=', role).limit(1).executeTakeFirst()) !==
  undefined;

// ---- sessions
export const insertSession = (db: Kysely<DB>, row: Insertable<SessionsTable>) =>
  db.insertInto('sessions').values(row).execute();

export const findSessionWithUser = (db: Kysely<DB>, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'sessions.revoked_at',
      'users.id',
      'users.account',
      'users.role',
      'users.company_name',
      'users.user_name',
      'users.account_type',
      'users.real_name_status',
      'users.status',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();

export const touchSession = (db: Kysely<DB>, sessionId: string, now: number) =>
  db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();

/** The state of one session and its account, for live streams re-checking it (not a use of it). */
export const findSessionState = (db: Kysely<DB>, sessionId: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.expires_at', 'sessions.last_seen_at', 'sessions.revoked_at', 'users.status'])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();

/** Revokes one session; answers it (with its user) when this call revoked it, nothing if it already was. */
export const revokeSession = (db: Kysely<DB>, sessionId: string, now: number) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'user_id'])
    .execute();

/** Revokes every open session of a user, except `keepSessionId` when given; answers the ids revoked. */
export const revokeUserSessions = (db: Kysely<DB>, userId: string, now: number, keepSessionId?: string) => {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepSessionId) q = q.where('id', '!=', keepSessionId);
  return q.returning('id').execute();
};

export const deleteSessionsEndedBefore = (db: Kysely<DB>, before: number) =>
  db.deleteFrom('sessions').where('expires_at', '<', before).execute();

// ---- login failures (lockout)
export const insertLoginFailure = (
  db: Kysely<DB>,
  row: { id: string; account: string; ip: string; created_at: number },
) => db.insertInto('login_failures').values(row).execute();

export async function countLoginFailures(db: Kysely<DB>, by: 'account' | 'ip', value: string, since: number) {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number>('created_at').as('first')])
    .where(by, '=', value)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), first: row.first === null ? null : Number(row.first) };
}

export const deleteLoginFailure = (db: Kysely<DB>, id: string) =>
  db.deleteFrom('login_failures').where('id', '=', id).execute();

export const clearLoginFailures = (db: Kysely<DB>, account: string) =>
  db.deleteFrom('login_failures').where('account', '=', account).execute();

export const deleteLoginFailuresBefore = (db: Kysely<DB>, before: number) =>
  db.deleteFrom('login_failures').where('created_at', '<', before).execute();
