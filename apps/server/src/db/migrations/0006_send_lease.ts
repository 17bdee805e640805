import type { Kysely } from 'kysely';

// A message claimed for sending carries its claim's token and lease (send-queue.ts): only the holder
// settles it, and only an expired lease is taken back. Before, a claim was taken back by the
// message's age, so a message that had waited long in a paced queue could be sent twice. And a sent
// message keeps when it went out (`sent_at`): pacing counts from there.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wx_messages').addColumn('claim_token', 'text').execute();
  await db.schema.alterTable('wx_messages').addColumn('lease_until', 'bigint').execute();
  await db.schema.alterTable('wx_messages').addColumn('sent_at', 'bigint').execute();
  // Claims made before this migration have no lease: expired, so the next sweep settles them.
  await db.updateTable('wx_messages').set({ lease_until: 0 }).where('status', '=', 'sending').execute();
  await db.schema
    .createIndex('wx_messages_lease')
    .on('wx_messages')
    .columns(['status', 'lease_until'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('wx_messages_lease').execute();
  await db.schema.alterTable('wx_messages').dropColumn('sent_at').execute();
  await db.schema.alterTable('wx_messages').dropColumn('lease_until').execute();
  await db.schema.alterTable('wx_messages').dropColumn('claim_token').execute();
}
