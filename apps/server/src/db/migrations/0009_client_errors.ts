import type { Kysely } from 'kysely';

// The console's error log (module `client-errors`): errors the production console reported, scrubbed
// of secrets, each row belonging to the company (or operator) whose session reported it and going
// with it. Capped per company by the module (the newest CLIENT_ERRORS_KEPT rows are kept).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('client_errors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('stack', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A company's newest first (its list, its cap); the operator's list reads created_at alone.
  await db.schema
    .createIndex('client_errors_company')
    .on('client_errors')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('client_errors_created')
    .on('client_errors')
    .columns(['created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_errors').execute();
}
