import { type Kysely, PostgresAdapter, type QueryCreator, sql } from 'kysely';
import { PLAN_EACH_TIME } from '../../db/pg-statements.js';
import { preparedInsert, preparedQuery, type ShapedStatement } from '../../db/prepared.js';
import type { CallbackEventRow, DB } from '../../db/schema.js';
import { newTimeOrderedId } from '../../lib/crypto.js';

/** Which events a caller may see: the company's, narrowed to one sub-account for credentials. */
export interface Scope {
  companyId: string;
  subAccountId: string | null;
}

/** Twice per send (its status and the reply): prepared. */
export const insertEvent = preparedInsert('callback_events', {
  id: true,
  company_id: true,
  api_account_id: true,
  wxid: true,
  type: true,
  payload: true,
  url: true,
  status: true,
  attempts: true,
  next_attempt_at: true,
  locked_until: true,
  last_status_code: true,
  last_error: true,
  created_at: true,
  delivered_at: true,
});

/** callback_events' columns and their PostgreSQL types (insertEventsAbout binds each as an array). */
const EVENT_COLUMNS = {
  id: 'text',
  company_id: 'text',
  api_account_id: 'text',
  wxid: 'text',
  type: 'text',
  payload: 'text',
  url: 'text',
  status: 'text',
  attempts: 'integer',
  next_attempt_at: 'bigint',
  locked_until: 'bigint',
  last_status_code: 'integer',
  last_error: 'text',
  created_at: 'bigint',
  delivered_at: 'bigint',
} satisfies Record<keyof CallbackEventRow, string>;
const EVENT_COLUMN_NAMES = Object.keys(EVENT_COLUMNS) as Array<keyof typeof EVENT_COLUMNS>;

/** The combined statement of each change's shape (insertEventsAbout), made on its first use. */
const eventsAboutByShape = new WeakMap<
  ShapedStatement<{ id: string }>['build'],
  ReturnType<typeof eventsAboutQuery>
>();

/** The change made by `build` from its `n` arguments, then the events' columns as arrays, then their `about`. */
function eventsAboutQuery(build: ShapedStatement<{ id: string }>['build'], n: number) {
  const names = sql.join(EVENT_COLUMN_NAMES.map((c) => sql.ref(c)));
  return preparedQuery(n + EVENT_COLUMN_NAMES.length + 1, (db, ...args: unknown[]) => {
    const arrays = EVENT_COLUMN_NAMES.map(
      (c, i) => sql`cast(${args[n + i]} as ${sql.raw(`${EVENT_COLUMNS[c]}[]`)})`,
    );
    return sql<{ id: string }>`with "change" as (${build(db, ...args.slice(0, n))}), "event" as (
      insert into "callback_events" (${names})
      select ${sql.join(EVENT_COLUMN_NAMES.map((c) => sql.ref(`e.${c}`)))}
      from unnest(${sql.join(arrays)}, cast(${args[n + EVENT_COLUMN_NAMES.length]} as text[]))
        as "e"(${names}, "about")
      where "e"."about" in (select "id" from "change"))
    select "id" from "change"`;
  });
}

/**
 * PostgreSQL: `change` (a data-modifying query returning the "id" of each row it changed) and the
 * events about those rows (`about`: the id of the row an event tells of), in one statement (a
 * data-modifying WITH): an event is stored only if its row was changed. Atomic as a transaction of
 * them, one round trip and one commit however many rows. Each column is bound as one array, so the
 * statement's text is the same for one event or thirty; it is built once per change's shape
 * (building it on each call was ~6 % of the server's time in a PostgreSQL soak). Returns the ids of
 * the rows changed.
 */
export async function insertEventsAbout(
  db: Kysely<DB>,
  change: ShapedStatement<{ id: string }>,
  events: ReadonlyArray<{ about: string; row: CallbackEventRow }>,
): Promise<Set<string>> {
  let query = eventsAboutByShape.get(change.build);
  if (!query) {
    query = eventsAboutQuery(change.build, change.args.length);
    eventsAboutByShape.set(change.build, query);
  }
  const result = await query(
    db,
    ...change.args,
    ...EVENT_COLUMN_NAMES.map((c) => events.map((e) => e.row[c])),
    events.map((e) => e.about),
  );
  return new Set(result.rows.map((r) => r.id));
}

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

/** `pending` as a literal: the due index holds only pending events (migration 0016). */
const PENDING = sql.lit<'pending'>('pending');

/** The due events, oldest due first: pending, due, not locked by a claim. */
const dueEvents = (db: Kysely<DB>, now: number, limit: number) =>
  db
    .selectFrom('callback_events')
    .select('id')
    .where('status', '=', PENDING)
    .where('next_attempt_at', '<=', now)
    .where('locked_until', '<', now)
    .orderBy('next_attempt_at')
    .limit(limit);

/**
 * Claims up to `limit` due events for this worker, oldest due first, so that an attempt is never
 * made twice across processes; `locked_until` doubles as the claim token.
 *
 * SQLite: one UPDATE of the due events by primary key (a statement runs start to end under the one
 * write lock, so nothing changes between its read and its write).
 *
 * PostgreSQL: a transaction whose one statement locks the due events (`FOR UPDATE SKIP LOCKED`:
 * rows another process is claiming are passed over, rows it claimed meanwhile are read again and no
 * longer match) and sets their lock by primary key. Reading the due index in order, stopping at `limit`,
 * is the one plan whose cost does not grow with the backlog; the planner's others (a bitmap scan of
 * every pending event and a sort; a walk of all due events testing each against the candidates) are
 * what it picks when it believes few are pending (a young table, statistics of quieter times), and
 * each made every claim of a backlog slower than the last (profiled: 13 ms a claim at rest for
 * 33,000 pending; 1.1 s, then 216 ms, under load). Bitmap scans are off for the read: the ordered
 * index scan is then its only plan short of reading the whole table; the statement is planned for
 * each run (PLAN_EACH_TIME), never with a generic plan made while the table was small. (Was five
 * round trips a pass, a quarter of all statements in the PostgreSQL soak; now two.)
 */
export async function claimDue(
  db: Kysely<DB>,
  now: number,
  limit: number,
  lockUntil: number,
): Promise<CallbackEventRow[]> {
  let rows: CallbackEventRow[];
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    rows = await db.connection().execute(async (conn) => {
      try {
        // Two round trips, not five: the transaction opened with bitmap scans off (a statement
        // without parameters goes as a simple query, which may hold several; the pool holds it back
        // and writes it with the next), the lock and the claim in one statement (the due ids read
        // once, as an array, then each row set by its primary key), and the commit.
        await sql.raw('begin; set local enable_bitmapscan = off').execute(conn);
        const due = dueEvents(conn, now, limit).forUpdate().skipLocked();
        const claimed = await conn
          .updateTable('callback_events')
          .set({ locked_until: lockUntil })
          .where('id', '=', sql<string>`any(array(${due}))`)
          .modifyEnd(sql.raw(PLAN_EACH_TIME))
          .returningAll()
          .execute();
        await sql.raw('commit').execute(conn);
        return claimed;
      } catch (err) {
        // Never back to the pool inside a transaction (a failed rollback: the connection is gone).
        await sql
          .raw('rollback')
          .execute(conn)
          .catch(() => undefined);
        throw err;
      }
    });
  } else {
    rows = await db
      .updateTable('callback_events')
      .set({ locked_until: lockUntil })
      .where('id', 'in', dueEvents(db, now, limit))
      .returningAll()
      .execute();
  }
  return rows.sort(
    (a, b) => (a.next_attempt_at ?? 0) - (b.next_attempt_at ?? 0) || a.created_at - b.created_at,
  );
}

/** When the next pending, unlocked event falls due (null: none). */
export async function nextDueAt(db: Kysely<DB>, now: number): Promise<number | null> {
  const row = await db
    .selectFrom('callback_events')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('status', '=', PENDING)
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
  await insertAttempt(db, eventId, row.attempts, o);
  return row.attempts;
}

/** The claimed event settled `delivered`, its attempt counted: only while the claim (`token`) holds. */
const deliveredUpdate = (
  qb: QueryCreator<DB>,
  eventId: string,
  token: number,
  statusCode: number | null,
  error: string | null,
  now: number,
) =>
  qb
    .updateTable('callback_events')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_status_code: statusCode,
      last_error: error,
      status: 'delivered',
      next_attempt_at: null,
      delivered_at: now,
      locked_until: 0,
    }))
    .where('id', '=', eventId)
    .where('locked_until', '=', token);

// recordDelivered and insertAttempt run for every delivered callback on SQLite (prepared: built and
// compiled once).
const recordDeliveredQuery = preparedQuery(
  5,
  (db, eventId: string, token: number, statusCode: number | null, error: string | null, now: number) =>
    deliveredUpdate(db, eventId, token, statusCode, error, now).returning('attempts'),
);
/**
 * A successful attempt of a claimed event, logged and settled `delivered` (the event's update, then
 * its attempt row; PostgreSQL settles a burst in one statement, recordDeliveredMany); null when the
 * claim was lost meanwhile (a replay reset it), in which case nothing was written and the caller
 * logs the attempt with `recordAttempt`.
 */
export async function recordDelivered(
  db: Kysely<DB>,
  eventId: string,
  token: number,
  o: AttemptOutcome,
  now: number,
): Promise<number | null> {
  const row = (await recordDeliveredQuery(db, eventId, token, o.statusCode, o.error, now)).rows[0];
  if (!row) return null;
  await insertAttempt(db, eventId, row.attempts, o);
  return row.attempts;
}

/** A delivered attempt, to settle with others (recordDeliveredMany). */
export interface DeliveredAttempt {
  eventId: string;
  /** The claim it was made under (`locked_until` when claimed). */
  token: number;
  outcome: AttemptOutcome;
}

/**
 * PostgreSQL: recordDelivered for many events in one statement, each column bound as one array (the
 * same text however many): every event still under its claim is settled delivered and gets its
 * attempt row; answers their attempt numbers by event id (an event whose claim was lost is not in
 * it, and nothing is written for it). One round trip for a burst of deliveries instead of one per
 * delivery inside a transaction: that was the pace of a drain on PostgreSQL. Matched by primary key
 * and planned each time (PLAN_EACH_TIME), as the batched settle of sends.
 */
export async function recordDeliveredMany(
  db: Kysely<DB>,
  attempts: ReadonlyArray<DeliveredAttempt>,
  now: number,
): Promise<Map<string, number>> {
  const column = <T>(pick: (a: DeliveredAttempt) => T) => attempts.map(pick);
  const res = await sql<{ event_id: string; attempt: number }>`${sql.raw(PLAN_EACH_TIME)}
    with "settled" as (
      update "callback_events" as "e"
      set "attempts" = "e"."attempts" + 1, "last_status_code" = "v"."status_code",
        "last_error" = "v"."error", "status" = 'delivered', "next_attempt_at" = null,
        "delivered_at" = cast(${now} as bigint), "locked_until" = 0
      from unnest(
        cast(${column((a) => a.eventId)} as text[]), cast(${column((a) => a.token)} as bigint[]),
        cast(${column((a) => a.outcome.statusCode)} as integer[]),
        cast(${column((a) => a.outcome.error)} as text[]),
        cast(${column(() => newTimeOrderedId())} as text[]),
        cast(${column((a) => Math.max(0, Math.round(a.outcome.durationMs)))} as integer[]),
        cast(${column((a) => a.outcome.at)} as bigint[])
      ) as "v"("id", "token", "status_code", "error", "attempt_id", "duration_ms", "at")
      where "e"."id" = "v"."id" and "e"."locked_until" = "v"."token"
      returning "e"."id", "e"."attempts", "e"."last_status_code", "e"."last_error", "v"."attempt_id",
        "v"."duration_ms", "v"."at"
    )
    insert into "callback_attempts" ("id", "event_id", "attempt", "status_code", "error",
      "duration_ms", "created_at")
    select "attempt_id", "id", "attempts", "last_status_code", "last_error", "duration_ms", "at"
    from "settled"
    returning "event_id", "attempt"`.execute(db);
  return new Map(res.rows.map((r) => [r.event_id, Number(r.attempt)]));
}

const insertAttemptQuery = preparedQuery(
  7,
  (
    db,
    id: string,
    eventId: string,
    attempt: number,
    statusCode: number | null,
    error: string | null,
    durationMs: number,
    at: number,
  ) =>
    db.insertInto('callback_attempts').values({
      id,
      event_id: eventId,
      attempt,
      status_code: statusCode,
      error,
      duration_ms: durationMs,
      created_at: at,
    }),
);
const insertAttempt = (db: Kysely<DB>, eventId: string, attempt: number, o: AttemptOutcome) =>
  insertAttemptQuery(
    db,
    newTimeOrderedId(),
    eventId,
    attempt,
    o.statusCode,
    o.error,
    Math.max(0, Math.round(o.durationMs)),
    o.at,
  );

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
