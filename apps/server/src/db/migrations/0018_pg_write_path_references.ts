import { type Kysely, PostgresAdapter, sql } from 'kysely';

// PostgreSQL: the rows every send writes (two messages, two callback events, two delivery attempts)
// no longer carry foreign keys; triggers keep what the keys did when a row they point at is deleted.
//
// Why: PostgreSQL checks a foreign key by locking the row it points at (`FOR KEY SHARE`): ten such
// locks a send, four of them on the company's own `users` row, taken by every concurrent statement
// of the company at once, which turns them into multixacts the database has to write and look up
// again. Measured (`send-throughput`, the same build on two databases, one without these keys): the
// database's CPU a send −20 to −29 %, and growing with the run where the keys stayed
// (bench/README.md, session 42). Every one of these rows is written by statements that read what it
// points at in the same statement (an account online under its login, the sub-account of a stored
// event, the event of an attempt) or in a transaction that has just written it. SQLite checks its
// foreign keys without locks (one index lookup each): they stay there.
//
// What the keys did, and the triggers do now, on deletes (the service deletes none of these parents
// itself; an operator by hand might):
// - a company (`users`) takes its messages and callback events with it (was ON DELETE CASCADE);
// - a callback event takes its attempts with it (was ON DELETE CASCADE);
// - an account with messages, or a sub-account with callback events, is not deleted (was NO ACTION:
//   the same error code, 23503).

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
type AnyDb = Kysely<any>;

const postgres = (db: AnyDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: AnyDb): Promise<void> {
  if (!postgres(db)) return;
  await sql`alter table wx_messages
    drop constraint wx_messages_company_id_fkey,
    drop constraint wx_messages_wx_account_id_fkey`.execute(db);
  await sql`alter table callback_events
    drop constraint callback_events_company_id_fkey,
    drop constraint callback_events_api_account_id_fkey`.execute(db);
  await sql`alter table callback_attempts drop constraint callback_attempts_event_id_fkey`.execute(db);

  // Before the company's row goes: its accounts then go by their own cascade, with nothing left that
  // points at them.
  await sql`create function company_records_follow_company() returns trigger language plpgsql as $$
    begin
      delete from wx_messages where company_id = old.id;
      delete from callback_events where company_id = old.id;
      return old;
    end $$`.execute(db);
  await sql`create trigger users_records_delete before delete on users
    for each row execute function company_records_follow_company()`.execute(db);

  // Once per statement: housekeeping deletes settled events by the thousand (their attempts first).
  await sql`create function callback_attempts_follow_events() returns trigger language plpgsql as $$
    begin
      delete from callback_attempts where event_id in (select id from gone);
      return null;
    end $$`.execute(db);
  await sql`create trigger callback_events_attempts_delete after delete on callback_events
    referencing old table as gone for each statement
    execute function callback_attempts_follow_events()`.execute(db);

  await sql`create function refuse_delete_while_referenced() returns trigger language plpgsql as $$
    declare
      referenced boolean;
    begin
      if tg_table_name = 'wx_accounts' then
        referenced := exists (select 1 from wx_messages where wx_account_id = old.id);
      else
        referenced := exists (select 1 from callback_events where api_account_id = old.id);
      end if;
      if referenced then
        raise foreign_key_violation using message = format('%s %s is still referenced', tg_table_name, old.id);
      end if;
      return old;
    end $$`.execute(db);
  await sql`create trigger wx_accounts_messages_restrict before delete on wx_accounts
    for each row execute function refuse_delete_while_referenced()`.execute(db);
  await sql`create trigger api_accounts_events_restrict before delete on api_accounts
    for each row execute function refuse_delete_while_referenced()`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (!postgres(db)) return;
  await sql`drop trigger api_accounts_events_restrict on api_accounts`.execute(db);
  await sql`drop trigger wx_accounts_messages_restrict on wx_accounts`.execute(db);
  await sql`drop function refuse_delete_while_referenced()`.execute(db);
  await sql`drop trigger callback_events_attempts_delete on callback_events`.execute(db);
  await sql`drop function callback_attempts_follow_events()`.execute(db);
  await sql`drop trigger users_records_delete on users`.execute(db);
  await sql`drop function company_records_follow_company()`.execute(db);
  await sql`alter table callback_attempts add constraint callback_attempts_event_id_fkey
    foreign key (event_id) references callback_events (id) on delete cascade`.execute(db);
  await sql`alter table callback_events
    add constraint callback_events_company_id_fkey foreign key (company_id) references users (id) on delete cascade,
    add constraint callback_events_api_account_id_fkey foreign key (api_account_id) references api_accounts (id)`.execute(
    db,
  );
  await sql`alter table wx_messages
    add constraint wx_messages_company_id_fkey foreign key (company_id) references users (id) on delete cascade,
    add constraint wx_messages_wx_account_id_fkey foreign key (wx_account_id) references wx_accounts (id)`.execute(
    db,
  );
}
