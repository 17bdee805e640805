import type { Insertable, Kysely } from 'kysely';
import type { DB, MediaFilesTable } from '../../db/schema.js';

export const insert = (db: Kysely<DB>, row: Insertable<MediaFilesTable>) =>
  db.insertInto('media_files').values(row).execute();

export const find = (db: Kysely<DB>, id: string) =>
  db.selectFrom('media_files').selectAll().where('id', '=', id).executeTakeFirst();
