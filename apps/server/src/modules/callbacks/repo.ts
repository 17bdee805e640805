import type { Insertable, Kysely } from 'kysely';
import type { CallbackEventRow, CallbackEventsTable, DB } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';

/** Which events a caller may see: the company's, narrowed to one sub-account for credentials. */
export interface Scope {
  companyId: string;
  subAccountId: string | null;
}

export const insertEvent = (db: Kysely<DB>, row: Insertable<CallbackEventsTable>) =>
  db.insertInto('callback_events').values(row).execute();

export const findEvent = (db: Kysely<DB>, id: string) =>
  db.selectFrom('callback_events').selectAll().where('id', '=', id).executeTakeFirst();

export function findScoped(db: Kysely<DB>, scope: Scope, id: string) {
  let q = db
    .selectFrom('callback_events')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', scope.companyId);
  if (scope.subAccountId) q = q.where('api_account_id', '=', scope.subAccountId);
  return q.executeTakeFirst();
}

export interface ListFilter {
  status?: CallbackEventRow['status'] | undefined;
  wxid?: string | undefined;
  subAccountId?: string | undefined;
}

export async function list(
  db: Kysely<DB>,
  scope: Scope,
  filter: ListFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: CallbackEventRow[]; total: number }> {
  let q = db.selectFrom('callback_events').where('company_id', '=', scope.companyId);
  if (scope.subAccountId) q = q.where('api_account_id', '=', scope.subAccountId);
  if (filter.subAccountId) q = q.where('api_account_id', '=', filter.subAccountId);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.wxid) q = q.where('wxid', '=', filter.wxid);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export const attemptsOf = (db: Kysely<DB>, eventId: string) =>
  db.selectFrom('callback_attempts').selectAll().where('event_id', '=', eventId).orderBy('attempt').execute();

/**
 * Claims up to `limit` due events for this worker: candidates are read, then each is taken with a
 * conditional UPDATE (still pending, still due, not locked). Only one process can win that UPDATE,
 * so an attempt is never made twice; `locked_until` doubles as the claim token.
 */
export async function claimDue(
  db: Kysely<DB>,
  now: number,
  limit: number,
  lockUntil: number,
): Promise<CallbackEventRow[]> {
  const candidates = await db
    .selectFrom('callback_events')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where('locked_until', '<', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const claimed: CallbackEventRow[] = [];
  for (const { id } of candidates) {
    const row = await db
      .updateTable('callback_events')
      .set({ locked_until: lockUntil })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where('locked_until', '<', now)
      .returningAll()
      .executeTakeFirst();
    if (row) claimed.push(row);
  }
  return claimed;
}

/** When the next pending, unlocked event falls due (null: none). */
export async function nextDueAt(db: Kysely<DB>, now: number): Promise<number | null> {
  const row = await db
    .selectFrom('callback_events')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('status', '=', 'pending')
    .where('locked_until', '<', now)
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: number;
}

/**
 * Logs one attempt: bumps the event's counter (which numbers the attempt) and its "last" fields.
 * Returns the attempt number.
 */
export async function recordAttempt(db: Kysely<DB>, eventId: string, o: AttemptOutcome): Promise<number> {
  const row = await db
    .updateTable('callback_events')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_status_code: o.statusCode,
      last_error: o.error,
    }))
    .where('id', '=', eventId)
    .returning('attempts')
    .executeTakeFirst();
  if (!row) return 0; // deleted meanwhile (housekeeping)
  await db
    .insertInto('callback_attempts')
    .values({
      id: newId(),
      event_id: eventId,
      attempt: row.attempts,
      status_code: o.statusCode,
      error: o.error,
      duration_ms: Math.max(0, Math.round(o.durationMs)),
      created_at: o.at,
    })
    .execute();
  return row.attempts;
}

/** How many attempts in a row, newest first, did not succeed (2xx). */
export async function trailingFailures(db: Kysely<DB>, eventId: string): Promise<number> {
  const rows = await db
    .selectFrom('callback_attempts')
    .select('status_code')
    .where('event_id', '=', eventId)
    .orderBy('attempt', 'desc')
    .execute();
  let n = 0;
  for (const r of rows) {
    if (r.status_code !== null && r.status_code >= 200 && r.status_code < 300) break;
    n += 1;
  }
  return n;
}

/** Settles a claimed event; false when the claim was lost (a replay reset it meanwhile). */
export async function settle(
  db: Kysely<DB>,
  eventId: string,
  token: number,
  patch: { status: CallbackEventRow['status']; next_attempt_at: number | null; delivered_at?: number },
): Promise<boolean> {
  const res = await db
    .updateTable('callback_events')
    .set({ ...patch, locked_until: 0 })
    .where('id', '=', eventId)
    .where('locked_until', '=', token)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Queues an event again, now, to `url`; drops any claim so an in-flight attempt cannot settle it. */
export const requeue = (db: Kysely<DB>, eventId: string, url: string, now: number) =>
  db
    .updateTable('callback_events')
    .set({ status: 'pending', url, next_attempt_at: now, locked_until: 0, delivered_at: null })
    .where('id', '=', eventId)
    .execute();

/** Pending events of a sub-account follow its new callback URL. */
export const repointPending = (db: Kysely<DB>, subAccountId: string, url: string) =>
  db
    .updateTable('callback_events')
    .set({ url })
    .where('api_account_id', '=', subAccountId)
    .where('status', '=', 'pending')
    .execute();

/** Housekeeping: settled events (and their attempts) older than `before`. */
export async function deleteSettledBefore(db: Kysely<DB>, before: number): Promise<void> {
  const old = db
    .selectFrom('callback_events')
    .select('id')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', before);
  await db.deleteFrom('callback_attempts').where('event_id', 'in', old).execute();
  await db
    .deleteFrom('callback_events')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', before)
    .execute();
}
