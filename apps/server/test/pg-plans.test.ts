import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrateToLatest, openDatabase } from '../src/db/index.js';
import type { DB } from '../src/db/schema.js';
import * as callbacks from '../src/modules/callbacks/repo.js';
import * as messaging from '../src/modules/messaging/repo.js';
import { createPgSchema, dialects, withSchemaChangeLock } from './helpers.js';

/**
 * PostgreSQL statements whose cost must not hang on the planner's statistics: a young table, or one
 * last analysed in quieter times, is where a backlog builds. Each test reads how many index entries
 * the statement visited on a large table whose statistics are none, or those of a small one.
 */
describe.skipIf(!dialects.includes('postgres'))('plans whatever the statistics (postgres)', () => {
  let schema: { schema: string; drop: () => Promise<void> };
  let database: Database;
  let db: Kysely<DB>;
  /** The database's clock for its prepared statements' replanning rounds (db/pg-statements.ts). */
  let clockAt = Date.now();

  beforeAll(async () => {
    schema = await createPgSchema();
    // One connection: the statement and the read of its counters run on the same backend.
    database = await openDatabase({
      databaseUrl: process.env.TEST_DATABASE_URL!,
      pgSchema: schema.schema,
      poolSize: 1,
      clock: () => clockAt,
    });
    db = database.db;
    await withSchemaChangeLock(() => migrateToLatest(db));
    // No analysis but the tests' own while they run: each sets the statistics it needs.
    await sql`alter table callback_events set (autovacuum_enabled = false)`.execute(db);
    await sql`alter table wx_messages set (autovacuum_enabled = false)`.execute(db);
  });
  afterAll(async () => {
    await database?.close();
    await schema?.drop();
  });

  /** Rows of `table` inserted by one statement without checking their parents' keys. */
  const bulkInsert = (statement: ReturnType<typeof sql>) =>
    db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await statement.execute(trx);
    });

  /** A statistics counter `n` read now, this backend's counters flushed first. */
  async function counter(read: ReturnType<typeof sql<{ n: string }>>): Promise<number> {
    await sql`select pg_stat_force_next_flush()`.execute(db);
    return Number((await read.execute(db)).rows[0]!.n);
  }
  /** Index entries of `index` read so far. */
  const entriesRead = (index: string) =>
    counter(sql`select idx_tup_read as n from pg_stat_user_indexes
      where schemaname = ${schema.schema} and indexrelname = ${index}`);
  /** Sequential scans of `table` so far. */
  const scansOf = (table: string) =>
    counter(sql`select seq_scan as n from pg_stat_user_tables
      where schemaname = ${schema.schema} and relname = ${table}`);

  /** Events `from`..`to` in `status`, due one millisecond apart from a minute before `now`. */
  const events = (from: number, to: number, status: string, now: number) => sql`
    insert into callback_events (id, company_id, api_account_id, wxid, type, payload, url, status,
      attempts, next_attempt_at, locked_until, created_at)
    select 'ev' || lpad(i::text, 6, '0'), 'c', 'a', 'wxid_x', 'message', '{}', 'http://127.0.0.1/cb',
      ${status}, 0, cast(${now - 60_000} as bigint) + i, 0, cast(${now - 60_000} as bigint) + i
    from generate_series(cast(${from} as int), cast(${to} as int)) as i`;

  /** Messages `from`..`to` being sent, each under a claim of its own (`token<i>`). */
  const sendingMessages = (from: number, to: number) => sql`
    insert into wx_messages (id, company_id, wx_account_id, new_msg_id, direction, peer, sender, type,
      content, status, claim_token, lease_until, create_time, created_at, seq)
    select 'm' || lpad(i::text, 6, '0'), 'c', 'a', i::text, 'out', 'wxid_p', 'wxid_x', 1, '你好',
      'sending', 'token' || i, 1, 1, 1, i
    from generate_series(cast(${from} as int), cast(${to} as int)) as i`;

  it.each([
    ['never analysed', false],
    ['analysed in quieter times', true],
  ])(
    'a callback claim reads the due index in order and stops at its limit, however large the backlog (%s)',
    async (_, analysed) => {
      await sql`truncate callback_events cascade`.execute(db);
      const now = Date.now();
      // Statistics of quieter times (a hundred events, all delivered), or none, then a backlog of
      // 20,000 due one millisecond apart (the parents' keys are not checked: only the claim's reading
      // is under test).
      if (analysed) {
        await bulkInsert(events(900_001, 900_100, 'delivered', now));
        await sql`analyze callback_events`.execute(db);
      }
      await bulkInsert(events(1, 20_000, 'pending', now));
      const before = await entriesRead('callback_events_due');
      const claimed = await callbacks.claimDue(db, now, 10, now + 60_000);
      const read = (await entriesRead('callback_events_due')) - before;
      expect(claimed.map((e) => e.id)).toEqual(
        Array.from({ length: 10 }, (_, i) => `ev${String(i + 1).padStart(6, '0')}`),
      );
      expect(claimed.every((e) => e.locked_until === now + 60_000)).toBe(true);
      // In index order: about the limit. The other plans read every pending event, or more.
      expect(read).toBeLessThan(100);
      // The claim took them: the next one takes the next ten.
      const next = await callbacks.claimDue(db, now, 10, now + 60_000);
      expect(next.map((e) => e.id)[0]).toBe('ev000011');
    },
  );

  it('a claim that fails leaves no transaction open on its connection', async () => {
    await sql`truncate callback_events cascade`.execute(db);
    const now = Date.now();
    await bulkInsert(events(1, 5, 'pending', now));
    // A claim token PostgreSQL refuses (not a bigint): the statement fails after the transaction began.
    await expect(callbacks.claimDue(db, now, 10, Number.NaN)).rejects.toThrow();
    // The pool's one connection is in no transaction: this query is its own (one left open would
    // have begun before it; an aborted one would refuse it). Counting the database's sessions idle in
    // a transaction also counted other test files' transactions between two of their statements.
    const own = await sql<{ own: boolean }>`select now() = statement_timestamp() as own`.execute(db);
    expect(own.rows[0]!.own).toBe(true);
    // Nothing was claimed, and the next claim takes them all.
    const claimed = await callbacks.claimDue(db, now, 10, now + 60_000);
    expect(claimed.map((e) => e.id)).toEqual(['ev000001', 'ev000002', 'ev000003', 'ev000004', 'ev000005']);
  });

  it('settling a burst of delivered callbacks is one statement by primary key; a lost claim is left alone', async () => {
    await sql`truncate callback_events cascade`.execute(db);
    const now = Date.now();
    // 20,000 events, never analysed; 32 of them claimed (token = now + 60 s), delivered at once.
    await bulkInsert(events(1, 20_000, 'pending', now));
    const token = now + 60_000;
    await sql`update callback_events set locked_until = ${token} where id <= 'ev000032'`.execute(db);
    const delivered = Array.from({ length: 32 }, (_, i) => ({
      eventId: `ev${String(i + 1).padStart(6, '0')}`,
      token,
      outcome: { statusCode: 200 + (i % 2), error: null, durationMs: 12.4, at: now + i },
    }));
    // One claim lost meanwhile (a replay re-queued the event): not settled, nothing written for it.
    await sql`update callback_events set locked_until = 0 where id = 'ev000032'`.execute(db);
    const before = await scansOf('callback_events');
    const won = await callbacks.recordDeliveredMany(db, delivered, now);
    expect(await scansOf('callback_events')).toBe(before); // looked up by key, never scanned
    expect([...won.keys()].sort()).toEqual(delivered.slice(0, 31).map((d) => d.eventId));
    expect([...won.values()].every((attempt) => attempt === 1)).toBe(true);
    const rows = await db
      .selectFrom('callback_events')
      .select(['id', 'status', 'attempts', 'last_status_code', 'locked_until', 'delivered_at'])
      .where('id', 'in', ['ev000002', 'ev000032'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        id: 'ev000002',
        status: 'delivered',
        attempts: 1,
        last_status_code: 201,
        locked_until: 0,
        delivered_at: now,
      },
      {
        id: 'ev000032',
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        locked_until: 0,
        delivered_at: null,
      },
    ]);
    const attempts = await db
      .selectFrom('callback_attempts')
      .select(['event_id', 'attempt', 'status_code', 'error', 'duration_ms', 'created_at'])
      .orderBy('event_id')
      .execute();
    expect(attempts).toHaveLength(31);
    expect(attempts[1]).toEqual({
      event_id: 'ev000002',
      attempt: 1,
      status_code: 201,
      error: null,
      duration_ms: 12,
      created_at: now + 1,
    });
  });

  it('settling sends goes by primary key, however many messages were sending before', async () => {
    await sql`truncate wx_messages cascade`.execute(db);
    // 20,000 messages sent (each was `sending` first: the status indexes keep those entries until a
    // vacuum), then 32 being sent, each under a claim of its own; statistics taken now say few are
    // sending, as they would between two analyses of a busy table.
    await bulkInsert(sendingMessages(1, 20_032));
    await sql`update wx_messages set status = 'sent', claim_token = null, lease_until = null
      where id <= 'm020000'`.execute(db);
    await sql`analyze wx_messages`.execute(db);
    const statusIndexes = async () =>
      (await entriesRead('wx_messages_lease')) + (await entriesRead('wx_messages_queue'));
    const before = await statusIndexes();
    const settlements = Array.from({ length: 32 }, (_, i) => ({
      id: `m${String(20001 + i).padStart(6, '0')}`,
      token: `token${20001 + i}`,
      status: 'sent' as const,
      error: null,
    }));
    // A token that is not the message's claim: left alone.
    settlements[31] = { ...settlements[31]!, token: 'token1' };
    const change = messaging.settleMessagesStatement(settlements);
    const settled = await db.executeQuery(change.build(db, ...change.args).compile(db));
    expect(settled.rows).toHaveLength(31);
    expect(await statusIndexes()).toBe(before);
    const rows = await db
      .selectFrom('wx_messages')
      .select(['id', 'status', 'claim_token'])
      .where('id', 'in', ['m020001', 'm020032'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'm020001', status: 'sent', claim_token: null },
      { id: 'm020032', status: 'sending', claim_token: 'token20032' },
    ]);
  });

  it('a lookup first planned on an empty table reads one index entry once the table has grown (next replanning round)', async () => {
    // An account's lookup by its wxid (most calls about an account).
    const byWxid = (wxid: string) => messaging.findAccount(db, 'c', wxid);
    await sql`alter table wx_accounts set (autovacuum_enabled = false)`.execute(db);
    // Prepared and planned (five custom plans, then the generic one) while wx_accounts is empty and
    // was never analysed: the plan walks the company's index by first login, filtering on wxid.
    for (let i = 0; i < 8; i++) expect(await byWxid(`wxid_none${i}`)).toBeUndefined();
    // Written by another connection (this one's plans stay as they are: changing its
    // session_replication_role, as bulkInsert does, would drop them).
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
    await other.connect();
    try {
      await other.query(`set search_path = ${schema.schema}`);
      await other.query('set session_replication_role = replica');
      await other.query(`
        insert into wx_accounts (id, company_id, api_account_id, wxid, nickname, avatar, alias, device_id,
          status, first_login_at, last_login_at, updated_at)
        select 'acc' || lpad(i::text, 6, '0'), 'c', 'a', 'wxid_' || lpad(i::text, 6, '0'), '客户', '', '', 'd',
          'offline', i, i, i
        from generate_series(1, 3000) as i`);
    } finally {
      await other.end();
    }
    clockAt += 6_000; // the process is 6 s old: its first replanning round
    const indexes = async () =>
      (await entriesRead('wx_accounts_company_first')) + (await entriesRead('wx_accounts_company_wxid'));
    const before = await indexes();
    const found = await byWxid('wxid_001500');
    expect(found?.id).toBe('acc001500');
    // By (company, wxid): one entry. The plan made on the empty table read all 3,000 of the company's.
    expect((await indexes()) - before).toBeLessThanOrEqual(2);
  });
});
