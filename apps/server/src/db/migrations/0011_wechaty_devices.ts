import type { Kysely } from 'kysely';

// The wechaty provider's memory of each device (module `wechaty`, issue 18): which of the configured
// network tokens it last used, as a SHA-256 fingerprint (never the token), so a re-login on the same
// device and a restarted service reconnect to the same remote puppet, the same network identity.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wechaty_devices')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('wx_devices.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wechaty_devices').execute();
}
