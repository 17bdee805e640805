import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

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
/** The columns both shapes of each table have (0003's had an `id` more; members have `seq` now). */
const CONTACT_COLUMNS = sql.raw(
  'wx_account_id, contact_wxid, kind, nickname, remark, alias, avatar, sex, signature, country, province, city, owner, unreachable',
);
const MEMBER_COLUMNS = sql.raw(
  'wx_account_id, room_id, member_wxid, nickname, display_name, inviter, avatar',
);

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
type AnyDb = Kysely<any>;

/**
 * The tables as this migration leaves them (`keyed`), or as 0003 and 0015 made them (`withIds`:
 * a random id, a foreign key to the account, the natural key as a unique constraint or index).
 */
type Shape = 'keyed' | 'withIds';

const accountColumn = (shape: Shape) => (c: ColumnDefinitionBuilder) =>
  shape === 'keyed' ? c.notNull() : c.notNull().references('wx_accounts.id').onDelete('cascade');

async function createContactsTable(db: AnyDb, name: string, shape: Shape) {
  const table = db.schema
    .createTable(name)
    .$call((t) => (shape === 'withIds' ? t.addColumn('id', 'text', (c) => c.primaryKey()) : t))
    .addColumn('wx_account_id', 'text', accountColumn(shape))
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
    .addColumn('unreachable', 'integer', (c) => c.notNull().defaultTo(0));
  await (shape === 'keyed'
    ? // Not `…_pkey`: on PostgreSQL that name is the old table's key's until it is dropped.
      table.addPrimaryKeyConstraint('sim_contacts_key', ['wx_account_id', 'contact_wxid'])
    : table.addUniqueConstraint('sim_contacts_account_contact', ['wx_account_id', 'contact_wxid'])
  ).execute();
}

async function createMembersTable(db: AnyDb, name: string, shape: Shape) {
  await db.schema
    .createTable(name)
    .$call((t) => (shape === 'withIds' ? t.addColumn('id', 'text', (c) => c.primaryKey()) : t))
    .addColumn('wx_account_id', 'text', accountColumn(shape))
    .addColumn('room_id', 'text', (c) => c.notNull())
    .addColumn('member_wxid', 'text', (c) => c.notNull())
    .$call((t) => (shape === 'keyed' ? t.addColumn('seq', 'integer', (c) => c.notNull()) : t))
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('inviter', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .$call((t) =>
      shape === 'keyed'
        ? t.addPrimaryKeyConstraint('sim_room_members_key', ['wx_account_id', 'room_id', 'member_wxid'])
        : t,
    )
    .execute();
  if (shape === 'withIds') {
    await db.schema
      .createIndex('sim_room_members_member')
      .unique()
      .on(name)
      .columns(['wx_account_id', 'room_id', 'member_wxid'])
      .execute();
  }
}

/** Replaces `table` by `next`, made beforehand and filled by `copy`. */
async function replaceTable(db: AnyDb, table: string, next: string, copy: RawBuilder<unknown>) {
  await copy.execute(db);
  await db.schema.dropTable(table).execute();
  await db.schema.alterTable(next).renameTo(table).execute();
}

export async function up(db: AnyDb): Promise<void> {
  await createContactsTable(db, 'sim_contacts_next', 'keyed');
  await replaceTable(
    db,
    'sim_contacts',
    'sim_contacts_next',
    sql`insert into sim_contacts_next (${CONTACT_COLUMNS}) select ${CONTACT_COLUMNS} from sim_contacts`,
  );
  await createMembersTable(db, 'sim_room_members_next', 'keyed');
  await replaceTable(
    db,
    'sim_room_members',
    'sim_room_members_next',
    sql`insert into sim_room_members_next (${MEMBER_COLUMNS}, seq)
      select ${MEMBER_COLUMNS}, row_number() over (partition by wx_account_id, room_id order by id) - 1
      from sim_room_members`,
  );

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

// The old shape, each row with a new random id (nothing read them); members' order is lost.
export async function down(db: AnyDb): Promise<void> {
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
  await createContactsTable(db, 'sim_contacts_prev', 'withIds');
  await replaceTable(
    db,
    'sim_contacts',
    'sim_contacts_prev',
    sql`insert into sim_contacts_prev (id, ${CONTACT_COLUMNS})
      select ${randomId}, ${CONTACT_COLUMNS} from sim_contacts ${ofAccounts}`,
  );
  await createMembersTable(db, 'sim_room_members_prev', 'withIds');
  await replaceTable(
    db,
    'sim_room_members',
    'sim_room_members_prev',
    sql`insert into sim_room_members_prev (id, ${MEMBER_COLUMNS})
      select ${randomId}, ${MEMBER_COLUMNS} from sim_room_members ${ofAccounts}`,
  );
}
