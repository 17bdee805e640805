import type { Kysely, Selectable } from 'kysely';
import { insertManyTogether, preparedInsertMany, preparedQuery, rowsFor } from '../../db/prepared.js';
import type { DB, SimContactsTable, SimRoomMembersTable } from '../../db/schema.js';

const anyContactQuery = preparedQuery(1, (db, accountId: string) =>
  db.selectFrom('sim_contacts').select('contact_wxid').where('wx_account_id', '=', accountId).limit(1),
);

/** The account's simulated network is stored (the first read of it made it: sim/provider.ts fromNetwork). */
export const hasNetwork = async (db: Kysely<DB>, accountId: string): Promise<boolean> =>
  (await anyContactQuery(db, accountId)).rows.length > 0;

const insertContacts = preparedInsertMany(
  'sim_contacts',
  {
    wx_account_id: true,
    contact_wxid: true,
    kind: true,
    nickname: true,
    remark: true,
    alias: true,
    avatar: true,
    sex: true,
    signature: true,
    country: true,
    province: true,
    city: true,
    owner: true,
    unreachable: true,
  },
  { skipConflicts: true },
);
const insertRoomMembers = preparedInsertMany(
  'sim_room_members',
  {
    wx_account_id: true,
    room_id: true,
    member_wxid: true,
    seq: true,
    nickname: true,
    display_name: true,
    inviter: true,
    avatar: true,
  },
  { skipConflicts: true },
);

/**
 * An account's whole simulated network, its contacts and the members of its rooms, together or not
 * at all (one statement on PostgreSQL). Written once however often it is called at once: rows
 * already there are skipped (both tables are keyed by what a row is, and one account's network is
 * always the same: it comes from its device).
 */
export const insertNetwork = (
  db: Kysely<DB>,
  contacts: Selectable<SimContactsTable>[],
  members: Selectable<SimRoomMembersTable>[],
) => insertManyTogether(db, [rowsFor(insertContacts, contacts), rowsFor(insertRoomMembers, members)]);

export const contacts = (db: Kysely<DB>, accountId: string) =>
  db
    .selectFrom('sim_contacts')
    .selectAll()
    .where('wx_account_id', '=', accountId)
    .orderBy('kind')
    .orderBy('nickname')
    .execute();

export const contactsByIds = (db: Kysely<DB>, accountId: string, ids: string[]) =>
  db
    .selectFrom('sim_contacts')
    .selectAll()
    .where('wx_account_id', '=', accountId)
    .where('contact_wxid', 'in', ids)
    .execute();

/** Up to three times per send (the contact check, the send, the reply): prepared. */
const contactQuery = preparedQuery(2, (db, accountId: string, wxid: string) =>
  db
    .selectFrom('sim_contacts')
    .selectAll()
    .where('wx_account_id', '=', accountId)
    .where('contact_wxid', '=', wxid),
);
export const contact = async (db: Kysely<DB>, accountId: string, wxid: string) =>
  (await contactQuery(db, accountId, wxid)).rows[0];

export const roomMembers = (db: Kysely<DB>, accountId: string, roomId: string) =>
  db
    .selectFrom('sim_room_members')
    .selectAll()
    .where('wx_account_id', '=', accountId)
    .where('room_id', '=', roomId)
    .orderBy('seq')
    .execute();

export async function setUnreachable(db: Kysely<DB>, accountId: string, wxid: string, unreachable: boolean) {
  const res = await db
    .updateTable('sim_contacts')
    .set({ unreachable: unreachable ? 1 : 0 })
    .where('wx_account_id', '=', accountId)
    .where('contact_wxid', '=', wxid)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
