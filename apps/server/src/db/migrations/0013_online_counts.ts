import { type Kysely, PostgresAdapter, sql } from 'kysely';

// The accounts online of each company and of each sub-account, kept by the database itself
// (triggers on wx_accounts, so no write path can forget them). A login's quota check counted
// wx_accounts rows instead: on PostgreSQL ~0.4 ms per thousand accounts online (each row's heap
// visited), twice per check and two checks per login, so 10,000 accounts online made PostgreSQL
// logins CPU-bound. On PostgreSQL a count's row stays locked by the write that changed it until its
// transaction ends: a login's confirmation, which puts its account online first and reads the counts
// after, holds its company's row to the end, so confirmations of one company take turns (the
// company's quota lock is not needed for them). The company row is always locked before the
// sub-account's, so two changes never wait for each other.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wx_online_counts')
    .addColumn('scope', 'text', (c) => c.notNull()) // 'company' or 'sub_account'
    .addColumn('owner_id', 'text', (c) => c.notNull()) // the users or api_accounts id
    .addColumn('online', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('wx_online_counts_pk', ['scope', 'owner_id'])
    .execute();
  // One change of an account: out of its old counts if it was online, into the new ones if it is
  // online now; the company's row first. The triggers come before the counts are taken: on
  // PostgreSQL creating one locks wx_accounts against writes until this migration commits (a server
  // of the previous version may still be running), so the counts miss no change and count none twice.
  const leave = (scope: string, owner: string) =>
    sql`update wx_online_counts set online = online - 1 where scope = ${sql.lit(scope)} and owner_id = old.${sql.raw(owner)}`;
  const join = (scope: string, owner: string) =>
    sql`insert into wx_online_counts (scope, owner_id, online) values (${sql.lit(scope)}, new.${sql.raw(owner)}, 1)
      on conflict (scope, owner_id) do update set online = wx_online_counts.online + 1`;
  const moved = sql`old.status is distinct from new.status or old.api_account_id is distinct from new.api_account_id`;

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function wx_online_counts_follow() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.status = 'online' then ${leave('company', 'company_id')}; end if;
        if tg_op <> 'DELETE' and new.status = 'online' then ${join('company', 'company_id')}; end if;
        if tg_op <> 'INSERT' and old.status = 'online' then ${leave('sub_account', 'api_account_id')}; end if;
        if tg_op <> 'DELETE' and new.status = 'online' then ${join('sub_account', 'api_account_id')}; end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger wx_accounts_online_insert after insert on wx_accounts
      for each row when (new.status = 'online') execute function wx_online_counts_follow()`.execute(db);
    await sql`create trigger wx_accounts_online_update after update of status, api_account_id on wx_accounts
      for each row when (${moved}) execute function wx_online_counts_follow()`.execute(db);
    await sql`create trigger wx_accounts_online_delete after delete on wx_accounts
      for each row when (old.status = 'online') execute function wx_online_counts_follow()`.execute(db);
  } else {
    // SQLite: one transaction at a time, so the order does not matter; `where` makes a step conditional.
    await sql`create trigger wx_accounts_online_insert after insert on wx_accounts when new.status = 'online'
    begin ${join('company', 'company_id')}; ${join('sub_account', 'api_account_id')}; end`.execute(db);
    await sql`create trigger wx_accounts_online_update after update of status, api_account_id on wx_accounts
    when ${moved} begin
      ${leave('company', 'company_id')} and old.status = 'online';
      ${leave('sub_account', 'api_account_id')} and old.status = 'online';
      insert into wx_online_counts (scope, owner_id, online)
        select 'company', new.company_id, 1 where new.status = 'online'
        on conflict (scope, owner_id) do update set online = wx_online_counts.online + 1;
      insert into wx_online_counts (scope, owner_id, online)
        select 'sub_account', new.api_account_id, 1 where new.status = 'online'
        on conflict (scope, owner_id) do update set online = wx_online_counts.online + 1;
    end`.execute(db);
    await sql`create trigger wx_accounts_online_delete after delete on wx_accounts when old.status = 'online'
      begin ${leave('company', 'company_id')}; ${leave('sub_account', 'api_account_id')}; end`.execute(db);
  }
  await sql`
    insert into wx_online_counts (scope, owner_id, online)
    select 'company', company_id, count(*) from wx_accounts where status = 'online' group by company_id
    union all
    select 'sub_account', api_account_id, count(*) from wx_accounts where status = 'online' group by api_account_id`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of [
    'wx_accounts_online_insert',
    'wx_accounts_online_update',
    'wx_accounts_online_delete',
  ]) {
    const trigger = sql.id(name);
    await (postgres ? sql`drop trigger ${trigger} on wx_accounts` : sql`drop trigger ${trigger}`).execute(db);
  }
  if (postgres) await sql`drop function wx_online_counts_follow()`.execute(db);
  await db.schema.dropTable('wx_online_counts').execute();
}
