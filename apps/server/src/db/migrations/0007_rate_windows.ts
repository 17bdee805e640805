import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Per-IP rate limits shared by every process on one PostgreSQL (module `rate-limits`): one row per
// client and route address, counting the requests of the window that ends at `reset_at` (epoch ms).
// Rows are counters that may be lost without harm (a lost row is a fresh budget), so on PostgreSQL
// the table is UNLOGGED: no WAL for a write that every API call makes. SQLite gets the same table
// (the embedded single process counts in memory and leaves it empty).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('rate_windows')
    .$call((t) => (postgres ? t.modifyFront(sql`unlogged`) : t))
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .execute();
  // The sweep deletes expired windows by this.
  await db.schema.createIndex('rate_windows_reset').on('rate_windows').column('reset_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_windows').execute();
}
