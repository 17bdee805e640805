import type { Insertable, Kysely } from 'kysely';
import type { DB, FileKind, FilesTable } from '../../db/schema.js';

export const insert = (db: Kysely<DB>, row: Insertable<FilesTable>) =>
  db.insertInto('files').values(row).execute();

export const find = (db: Kysely<DB>, id: string) =>
  db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();

export const findMany = (db: Kysely<DB>, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('files')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();

/** A company's files of one kind stored before `before`, oldest first. */
export const olderThan = (db: Kysely<DB>, kind: FileKind, companyId: string, before: number) =>
  db
    .selectFrom('files')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .execute();

/** A company's files of one kind past its newest `keep`, oldest first. */
export const beyondNewest = (db: Kysely<DB>, kind: FileKind, companyId: string, keep: number) =>
  db
    .selectFrom('files')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute()
    .then((rows) => rows.reverse());

export const remove = (db: Kysely<DB>, id: string) => db.deleteFrom('files').where('id', '=', id).execute();
