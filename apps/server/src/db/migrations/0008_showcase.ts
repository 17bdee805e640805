import type { Kysely } from 'kysely';

// The template showcase's backend (module `showcase`, `/vue-element-admin/*`): articles, roles with
// their route trees, and the showcase identities' tokens. Every row belongs to one company (a
// customer's or an operator's own user id) and goes with it.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('showcase_articles')
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Numbered per company (1, 2, …): the console's /example/edit/:id takes digits only.
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_short', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('reviewer', 'text', (c) => c.notNull())
    .addColumn('importance', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('display_at', 'bigint', (c) => c.notNull())
    // Hundredths (0–10000): the template's two-decimal forecast, exact on both databases.
    .addColumn('forecast_x100', 'integer', (c) => c.notNull())
    .addColumn('comment_disabled', 'integer', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('image_uri', 'text', (c) => c.notNull())
    .addColumn('source_uri', 'text', (c) => c.notNull())
    // Comma-separated platform names (a closed list without commas).
    .addColumn('platforms', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('showcase_articles_pk', ['company_id', 'id'])
    .execute();
  // The list's filters, within a company.
  await db.schema
    .createIndex('showcase_articles_filter')
    .on('showcase_articles')
    .columns(['company_id', 'type', 'importance'])
    .execute();

  await db.schema
    .createTable('showcase_roles')
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'admin', 'editor', 'visitor' (built in), or a generated number 300–5000 as text.
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // The role's route tree, JSON.
    .addColumn('routes', 'text', (c) => c.notNull())
    .addColumn('builtin', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('showcase_roles_pk', ['company_id', 'key'])
    .execute();

  await db.schema
    .createTable('showcase_tokens')
    // hex(SHA-256(token)); the token itself is never stored.
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // Set when a newer login of the same showcase user replaced this token (template code 50012).
    .addColumn('replaced_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('showcase_tokens_company')
    .on('showcase_tokens')
    .columns(['company_id', 'username', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('showcase_tokens').execute();
  await db.schema.dropTable('showcase_roles').execute();
  await db.schema.dropTable('showcase_articles').execute();
}
