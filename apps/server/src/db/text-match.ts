import { type Expression, type SqlBool, sql } from 'kysely';

/** `%keyword%` for LIKE, lower-cased, the keyword's own wildcards escaped (used with `escape '\'`). */
export const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`;

/** Case-insensitive substring match on both SQLite and PostgreSQL (`pattern` from likePattern). */
export const contains = (column: string, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
