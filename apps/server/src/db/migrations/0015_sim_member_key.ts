import { type Kysely, sql } from 'kysely';

// A simulated room member is one person in one room of one account: unique, as a contact is one
// wxid of an account (sim_contacts_account_contact). With both keys, writing an account's network
// twice (two confirmations of one new account at once) writes it once, each conflict skipped, so the
// write needs no lock and no read inside a transaction (modules/sim/repo.ts insertNetwork). The
// unique index also serves the reads by (account, room) the old one did. Duplicates, which the lock
// kept out, are removed first all the same (the row with the least id of each kept).
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  // Each row looks for an earlier twin through the (account, room) index (a NOT IN over the whole
  // table can fall back to a rescan per row on PostgreSQL once it outgrows work_mem).
  await sql`delete from sim_room_members where exists (
    select 1 from sim_room_members as twin
    where twin.wx_account_id = sim_room_members.wx_account_id and twin.room_id = sim_room_members.room_id
      and twin.member_wxid = sim_room_members.member_wxid and twin.id < sim_room_members.id)`.execute(db);
  await db.schema
    .createIndex('sim_room_members_member')
    .unique()
    .on('sim_room_members')
    .columns(['wx_account_id', 'room_id', 'member_wxid'])
    .execute();
  await db.schema.dropIndex('sim_room_members_room').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('sim_room_members_room')
    .on('sim_room_members')
    .columns(['wx_account_id', 'room_id'])
    .execute();
  await db.schema.dropIndex('sim_room_members_member').execute();
}
