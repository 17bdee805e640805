import { type Kysely, sql } from 'kysely';

// The callback outbox's due index holds only the events still to deliver. Before, every event had an
// entry (almost all `delivered`, never read there), so each delivery moved it from the pending part
// of the index to the delivered part: two index writes of every event's settle, and an index as large
// as the outbox. Its queries name the status as a literal, which is what lets SQLite and PostgreSQL
// use an index with a WHERE (callbacks/repo.ts dueEvents, nextDueAt), as the send queue's do (0014).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('callback_events_due').execute();
  await db.schema
    .createIndex('callback_events_due')
    .on('callback_events')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('callback_events_due').execute();
  await db.schema
    .createIndex('callback_events_due')
    .on('callback_events')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
