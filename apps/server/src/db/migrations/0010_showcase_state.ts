import type { Kysely } from 'kysely';

// The template showcase's saved state (module `showcase`, issue 16): one JSON value per company and
// key — the drag-kanban board ('kanban') and the showcase avatar's file id ('avatar'). Uploads
// themselves are rows of `files` (kind 'showcase', module `files`).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('showcase_state')
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('showcase_state_pk', ['company_id', 'key'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('showcase_state').execute();
}
