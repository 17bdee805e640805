import { CompiledQuery, createQueryId, type Kysely, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrateToLatest, openDatabase } from '../src/db/index.js';
import type { DB } from '../src/db/schema.js';
import * as callbacks from '../src/modules/callbacks/repo.js';
import * as messaging from '../src/modules/messaging/repo.js';

/**
 * The send queue's statements read the partial indexes of their status (migration 0014) on SQLite,
 * whose planner needs no statistics for that. An OR of the two statuses, or the account's
 * condition written as `wx_account_id in (…)` (which SQLite answers through the account index),
 * would read every message ever sent, on every sweep.
 */
describe('the send queue reads its partial indexes (sqlite)', () => {
  let database: Database;
  let db: Kysely<DB>;
  const statements: RootOperationNode[] = [];

  beforeAll(async () => {
    database = await openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database.db);
    db = database.db.withPlugin({
      transformQuery: ({ node }) => {
        statements.push(node);
        return node;
      },
      transformResult: async ({ result }) => result,
    });
  });
  afterAll(() => database?.close());

  /** The plan of each statement `run` makes, one line per step. */
  async function plansOf(run: () => Promise<unknown>): Promise<string[]> {
    statements.length = 0;
    await run();
    const plans: string[] = [];
    for (const node of [...statements]) {
      const { sql: text, parameters } = db.getExecutor().compileQuery(node, createQueryId());
      const steps = await database.db.executeQuery<{ detail: string }>(
        // A prepared statement is caught as it is built, its arguments still stand-ins: a plan
        // needs none of the values.
        CompiledQuery.raw(
          `explain query plan ${text}`,
          parameters.map((p) => (typeof p === 'object' && p !== null ? null : p)),
        ),
      );
      plans.push(steps.rows.map((r) => r.detail).join(' | '));
    }
    return plans;
  }

  it.each([
    ['the oldest queued message', () => messaging.oldestQueued(db, 'a'), 'wx_messages_queue'],
    [
      'anything queued (a drain’s last look)',
      () => messaging.claimOldestQueued(db, 'a', 't', 1),
      'wx_messages_queue',
    ],
    [
      'failing what an account still had queued',
      () => messaging.failQueued(db, 'a', 'x'),
      'wx_messages_queue',
    ],
    ['accounts with a queue due', () => messaging.accountsWithDueQueue(db, Date.now()), 'wx_messages_queue'],
    ['claims whose lease ran out', () => messaging.requeueExpired(db, Date.now()), 'wx_messages_lease'],
  ])('%s', async (_, run, index) => {
    const plans = await plansOf(run);
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan).toContain(`USING`);
      expect(plan).toContain(index);
      expect(plan).not.toMatch(/SCAN wx_messages(?! USING)/);
    }
  });

  // The callback outbox's due index holds pending events only (migration 0016): a claim and the
  // delivery worker's next wake-up read it, never the outbox (almost all of it delivered).
  it.each([
    ['a claim of due callbacks', () => callbacks.claimDue(db, Date.now(), 10, Date.now() + 60_000)],
    ['when the next callback falls due', () => callbacks.nextDueAt(db, Date.now())],
  ])('%s reads the pending index', async (_, run) => {
    const plans = await plansOf(run);
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.join(' | ')).toContain('callback_events_due');
    for (const plan of plans) expect(plan).not.toMatch(/SCAN callback_events(?! USING)/);
  });

  it('stranded messages: each status through its own index, never a scan of the table', async () => {
    const plans = await plansOf(() => messaging.failStranded(db, Date.now(), 'x'));
    expect(plans).toHaveLength(2);
    expect(plans[0]).toContain('wx_messages_queue');
    expect(plans[1]).toContain('wx_messages_lease');
    for (const plan of plans) expect(plan).not.toMatch(/SCAN wx_messages(?! USING)/);
  });
});
