import type { Insertable, Kysely } from 'kysely';
import type { AuditLogTable, DB } from '../../db/schema.js';

export const insert = (db: Kysely<DB>, row: Insertable<AuditLogTable>) =>
  db.insertInto('audit_log').values(row).execute();
