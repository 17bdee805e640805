import { SqliteDialect, SqliteQueryCompiler } from 'kysely';

/**
 * Kysely's SQLite dialect, its values bound as `+?` instead of `?`. The same value for SQLite (a
 * unary plus changes neither a parameter's value nor its affinity, and a column compared with it
 * still uses its index), but a bare `?` compared with a column in a statement with a join or an
 * ORDER BY makes SQLite (built with STAT4, as better-sqlite3 is) note the parameter as one whose
 * value may change the plan: each new binding then expires the prepared statement, and its next run
 * compiles it again: most of such a read's time (a login with its account 116 → 8 µs, an account's
 * contacts in order 143 → 62: bench/README.md, session 34).
 * A query that should use a partial index names the index's value as a literal (as it must for
 * PostgreSQL's generic plans), never through a parameter.
 */
export class StablePlanSqliteDialect extends SqliteDialect {
  override createQueryCompiler() {
    return new StablePlanQueryCompiler();
  }
}

class StablePlanQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}
