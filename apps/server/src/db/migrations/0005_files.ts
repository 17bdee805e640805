import { type Kysely, sql } from 'kysely';

// One table for every stored file (module `files`): media for sending and received media (was
// media_files), real-name images (was realname_images) and the support QR (was a settings entry
// pointing into storage). Ids and storage keys are kept, so messages and reviews that name a file
// still find it; the files themselves stay where they are on disk.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('files_company')
    .on('files')
    .columns(['company_id', 'kind', 'created_at'])
    .execute();

  // Media and real-name images, ids and storage keys unchanged.
  for (const [table, kind] of [
    ['media_files', 'media'],
    ['realname_images', 'realname'],
  ] as const) {
    await db
      .insertInto('files')
      .columns([
        'id',
        'kind',
        'company_id',
        'origin',
        'mime',
        'size',
        'file_name',
        'storage_key',
        'created_at',
      ])
      .expression(
        db
          .selectFrom(table)
          .select([
            'id',
            sql.lit(kind).as('kind'),
            'company_id',
            kind === 'media' ? 'origin' : sql.lit('upload').as('origin'),
            'mime',
            'size',
            'file_name',
            'storage_key',
            'created_at',
          ]),
      )
      .execute();
  }

  // The support QR was `{"key":"support/<name>","mime":…}` in settings; now a public file whose id is
  // that name (so its link /support-qr/<name> stays the same) and the setting holds the id.
  const qr = await db
    .selectFrom('settings')
    .select(['value', 'updated_at'])
    .where('key', '=', 'support_qr')
    .executeTakeFirst();
  if (qr) {
    const { key, mime } = JSON.parse(qr.value) as { key: string; mime: string };
    const id = key.slice(key.indexOf('/') + 1);
    await db
      .insertInto('files')
      .values({
        id,
        kind: 'support',
        company_id: null,
        origin: 'upload',
        mime,
        size: 0, // not recorded before; nothing reads it for this kind
        file_name: 'support-qr',
        storage_key: key,
        created_at: qr.updated_at,
      })
      .execute();
    await db.updateTable('settings').set({ value: id }).where('key', '=', 'support_qr').execute();
  }

  // realname_reviews named its images in realname_images; rebuilt to name them in files (SQLite
  // cannot change a foreign key in place).
  await createReviews(db, 'realname_reviews_next', 'files');
  await copyReviews(db, 'realname_reviews', 'realname_reviews_next');
  await db.schema.dropTable('realname_reviews').execute();
  await db.schema.alterTable('realname_reviews_next').renameTo('realname_reviews').execute();
  await indexReviews(db);

  await db.schema.dropTable('realname_images').execute();
  await db.schema.dropTable('media_files').execute();

  // One signing key for every file link: the media key carries on (media links issued before still
  // verify); real-name links, which lived minutes, are simply re-issued.
  await db.updateTable('settings').set({ key: 'file_url_key' }).where('key', '=', 'media_url_key').execute();
  await db.deleteFrom('settings').where('key', '=', 'realname_url_key').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  // The two tables as 0003 and 0004 made them, each refilled with its kind of file.
  for (const [table, kind, origin] of [
    ['media_files', 'media', true],
    ['realname_images', 'realname', false],
  ] as const) {
    let create = db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'));
    if (origin) create = create.addColumn('origin', 'text', (c) => c.notNull());
    await create
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_company`).on(table).columns(['company_id', 'created_at']).execute();
    const columns = [
      'id',
      'company_id',
      ...(origin ? ['origin'] : []),
      'mime',
      'size',
      'file_name',
      'storage_key',
      'created_at',
    ];
    await db
      .insertInto(table)
      .columns(columns)
      .expression(db.selectFrom('files').select(columns).where('kind', '=', kind))
      .execute();
  }

  await createReviews(db, 'realname_reviews_prev', 'realname_images');
  await copyReviews(db, 'realname_reviews', 'realname_reviews_prev');
  await db.schema.dropTable('realname_reviews').execute();
  await db.schema.alterTable('realname_reviews_prev').renameTo('realname_reviews').execute();
  await indexReviews(db);

  const qr = await db
    .selectFrom('settings')
    .innerJoin('files', 'files.id', 'settings.value')
    .select(['files.storage_key', 'files.mime'])
    .where('settings.key', '=', 'support_qr')
    .executeTakeFirst();
  if (qr) {
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify({ key: qr.storage_key, mime: qr.mime }) })
      .where('key', '=', 'support_qr')
      .execute();
  }
  await db.schema.dropTable('files').execute();
  await db.updateTable('settings').set({ key: 'media_url_key' }).where('key', '=', 'file_url_key').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function createReviews(db: Kysely<any>, table: string, images: string) {
  await db.schema
    .createTable(table)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('social_image_id', 'text', (c) => c.notNull().references(`${images}.id`))
    .addColumn('licence_image_id', 'text', (c) => c.notNull().references(`${images}.id`))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('refuse_reason', 'text')
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}

const REVIEW_COLUMNS = [
  'id',
  'company_id',
  'social_image_id',
  'licence_image_id',
  'state',
  'refuse_reason',
  'submitted_at',
  'decided_at',
  'decided_by',
];

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function copyReviews(db: Kysely<any>, from: string, to: string) {
  await db
    .insertInto(to)
    .columns(REVIEW_COLUMNS)
    .expression(db.selectFrom(from).select(REVIEW_COLUMNS))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function indexReviews(db: Kysely<any>) {
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
}
