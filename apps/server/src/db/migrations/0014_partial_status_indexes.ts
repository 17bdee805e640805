import { type Kysely, sql } from 'kysely';

// The send queue's two status indexes hold only the messages they are for: `wx_messages_queue` the
// queued ones, `wx_messages_lease` those being sent. Before, every message had an entry in both
// (almost all `sent`, never read there), so each message stored and each send settled wrote them
// too: two of the seven index entries of a message, four of a settle's six (an entry moved on each
// status change). Their queries name the status as a literal, which is what lets SQLite and
// PostgreSQL use an index with a WHERE (messaging/repo.ts, "the send queue").
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('wx_messages_queue').execute();
  await db.schema
    .createIndex('wx_messages_queue')
    .on('wx_messages')
    .columns(['wx_account_id', 'seq'])
    .where(sql.ref('status'), '=', sql.lit('queued'))
    .execute();
  await db.schema.dropIndex('wx_messages_lease').execute();
  await db.schema
    .createIndex('wx_messages_lease')
    .on('wx_messages')
    .column('lease_until')
    .where(sql.ref('status'), '=', sql.lit('sending'))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('wx_messages_lease').execute();
  await db.schema
    .createIndex('wx_messages_lease')
    .on('wx_messages')
    .columns(['status', 'lease_until'])
    .execute();
  await db.schema.dropIndex('wx_messages_queue').execute();
  await db.schema
    .createIndex('wx_messages_queue')
    .on('wx_messages')
    .columns(['status', 'wx_account_id', 'seq'])
    .execute();
}
