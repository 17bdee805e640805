import { type Kysely, PostgresAdapter, sql } from 'kysely';

// The simulator's network of an account (31 contacts and 30 room members, written at its first
// login by modules/sim/repo.ts insertNetwork: on PostgreSQL the largest statement of a login) costs
// less to write:
// - A contact is one wxid of one account, a room member one person in one room of one account:
//   those natural keys become the primary keys, and the random `id` each row had (read by nothing)
//   goes: one index a row instead of two. A member's place in its room, which the order of the
//   random ids stood for, is `seq` (the network's order; rows already there keep the order they were
//   shown in).
// - No foreign key to wx_accounts: its check ran once a row (61 lookups a new account, 14 % of
//   PostgreSQL's CPU in a login benchmark). The rows are written only for an account the gateway
//   has just committed, and the service deletes no account; an account deleted all the same (by
//   hand, or with its company) still takes its network with it: a trigger on wx_accounts' deletes,
//   as the cascade did.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  const contactColumns = sql.raw(
    'wx_account_id, contact_wxid, kind, nickname, remark, alias, avatar, sex, signature, country, province, city, owner, unreachable',
  );
  await contactsTable(db, 'sim_contacts_next').execute();
  await sql`insert into sim_contacts_next (${contactColumns}) select ${contactColumns} from sim_contacts`.execute(
    db,
  );
  await db.schema.dropTable('sim_contacts').execute();
  await db.schema.alterTable('sim_contacts_next').renameTo('sim_contacts').execute();

  const memberColumns = sql.raw(
    'wx_account_id, room_id, member_wxid, nickname, display_name, inviter, avatar',
  );
  await membersTable(db, 'sim_room_members_next').execute();
  await sql`insert into sim_room_members_next (${memberColumns}, seq)
    select ${memberColumns}, row_number() over (partition by wx_account_id, room_id order by id) - 1
    from sim_room_members`.execute(db);
  await db.schema.dropTable('sim_room_members').execute();
  await db.schema.alterTable('sim_room_members_next').renameTo('sim_room_members').execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function sim_network_follow_account() returns trigger language plpgsql as $$
      begin
        delete from sim_contacts where wx_account_id = old.id;
        delete from sim_room_members where wx_account_id = old.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger wx_accounts_sim_network_delete after delete on wx_accounts
      for each row execute function sim_network_follow_account()`.execute(db);
  } else {
    // SQLite runs triggers for the deletes of a cascade too (a company's accounts).
    await sql`create trigger wx_accounts_sim_network_delete after delete on wx_accounts begin
      delete from sim_contacts where wx_account_id = old.id;
      delete from sim_room_members where wx_account_id = old.id;
    end`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: as above
const contactsTable = (db: Kysely<any>, name: string) =>
  db.schema
    .createTable(name)
    .addColumn('wx_account_id', 'text', (c) => c.notNull())
    .addColumn('contact_wxid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull())
    .addColumn('alias', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .addColumn('sex', 'integer', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unreachable', 'integer', (c) => c.notNull().defaultTo(0))
    // Not `…_pkey`: on PostgreSQL that name is the old table's key's until it is dropped.
    .addPrimaryKeyConstraint('sim_contacts_key', ['wx_account_id', 'contact_wxid']);

// biome-ignore lint/suspicious/noExplicitAny: as above
const membersTable = (db: Kysely<any>, name: string) =>
  db.schema
    .createTable(name)
    .addColumn('wx_account_id', 'text', (c) => c.notNull())
    .addColumn('room_id', 'text', (c) => c.notNull())
    .addColumn('member_wxid', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('inviter', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sim_room_members_key', ['wx_account_id', 'room_id', 'member_wxid']);

// The old shape, each row with a new random id (nothing read them); members' order is lost.
// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger wx_accounts_sim_network_delete on wx_accounts`.execute(db);
    await sql`drop function sim_network_follow_account()`.execute(db);
  } else {
    await sql`drop trigger wx_accounts_sim_network_delete`.execute(db);
  }
  const randomId = postgres
    ? sql`md5(random()::text || clock_timestamp()::text)`
    : sql`lower(hex(randomblob(12)))`;
  // Rows of no account (none, unless written by hand) would break the old foreign keys.
  const ofAccounts = sql`where wx_account_id in (select id from wx_accounts)`;
  await sql`create table sim_contacts_prev as select ${randomId} as id, * from sim_contacts ${ofAccounts}`.execute(
    db,
  );
  await sql`create table sim_room_members_prev as select ${randomId} as id, * from sim_room_members ${ofAccounts}`.execute(
    db,
  );
  await db.schema.dropTable('sim_contacts').execute();
  await db.schema.dropTable('sim_room_members').execute();
  await db.schema
    .createTable('sim_contacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wx_account_id', 'text', (c) => c.notNull().references('wx_accounts.id').onDelete('cascade'))
    .addColumn('contact_wxid', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull())
    .addColumn('alias', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .addColumn('sex', 'integer', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unreachable', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('sim_contacts_account_contact', ['wx_account_id', 'contact_wxid'])
    .execute();
  await db.schema
    .createTable('sim_room_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wx_account_id', 'text', (c) => c.notNull().references('wx_accounts.id').onDelete('cascade'))
    .addColumn('room_id', 'text', (c) => c.notNull())
    .addColumn('member_wxid', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('inviter', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_room_members_member')
    .unique()
    .on('sim_room_members')
    .columns(['wx_account_id', 'room_id', 'member_wxid'])
    .execute();
  const contactColumns = sql.raw(
    'id, wx_account_id, contact_wxid, kind, nickname, remark, alias, avatar, sex, signature, country, province, city, owner, unreachable',
  );
  await sql`insert into sim_contacts (${contactColumns}) select ${contactColumns} from sim_contacts_prev`.execute(
    db,
  );
  const memberColumns = sql.raw(
    'id, wx_account_id, room_id, member_wxid, nickname, display_name, inviter, avatar',
  );
  await sql`insert into sim_room_members (${memberColumns}) select ${memberColumns} from sim_room_members_prev`.execute(
    db,
  );
  await db.schema.dropTable('sim_contacts_prev').execute();
  await db.schema.dropTable('sim_room_members_prev').execute();
}
