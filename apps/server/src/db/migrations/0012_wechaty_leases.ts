import type { Kysely } from 'kysely';

// Several server processes with the wechaty provider (module `wechaty`, issue 18): each device's
// puppet runs in exactly one process, the holder of the device's lease; each network token is held
// by one device at a time, across processes; and each process says where the others reach it to
// route a call to the puppet it runs. A lease is renewed while its process lives and lapses when it
// dies, so another process takes the device over.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wechaty_processes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('route_key', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('wechaty_leases')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('wx_devices.id').onDelete('cascade'))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('wechaty_token_leases')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wechaty_leases_owner').on('wechaty_leases').column('owner').execute();
  await db.schema
    .createIndex('wechaty_token_leases_owner')
    .on('wechaty_token_leases')
    .column('owner')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wechaty_token_leases').execute();
  await db.schema.dropTable('wechaty_leases').execute();
  await db.schema.dropTable('wechaty_processes').execute();
}
