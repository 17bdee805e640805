import type { Kysely } from 'kysely';

// Real-name verification (stored images, one review per submission) and the operator area
// (company remarks and service expiry in company_ops, visitor counts).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  // The operator's own facts about a company (none until an operator writes one).
  await db.schema
    .createTable('company_ops')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('service_expires_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // Files live in storage under realname/<id>; this row is the only way to find one.
  await db.schema
    .createTable('realname_images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('realname_images_company')
    .on('realname_images')
    .columns(['company_id', 'created_at'])
    .execute();

  // One row per submission; the decision is written on it (history of decisions).
  await db.schema
    .createTable('realname_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('social_image_id', 'text', (c) => c.notNull().references('realname_images.id'))
    .addColumn('licence_image_id', 'text', (c) => c.notNull().references('realname_images.id'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('refuse_reason', 'text')
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('realname_reviews_company')
    .on('realname_reviews')
    .columns(['company_id', 'submitted_at'])
    .execute();
  await db.schema
    .createIndex('realname_reviews_state')
    .on('realname_reviews')
    .columns(['state', 'submitted_at'])
    .execute();

  // Page views per business day and visitor: the visitor is a salted digest, never an address.
  await db.schema
    .createTable('page_views')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_views_pk', ['day', 'visitor'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('page_views').execute();
  await db.schema.dropTable('realname_reviews').execute();
  await db.schema.dropTable('realname_images').execute();
  await db.schema.dropTable('company_ops').execute();
}
