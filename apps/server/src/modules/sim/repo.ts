import type { Insertable, Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { DB, SimContactsTable, SimRoomMembersTable } from '../../db/schema.js';

export async function hasNetwork(db: Kysely<DB>, accountId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('sim_contacts')
      .select('id')
      .where('wx_account_id', '=', accountId)
      .limit(1)
      .executeTakeFirst()) !== undefined
  );
}

export async function insertNetwork(
  db: Kysely<DB>,
  contacts: Insertable<SimContactsTable>[],
  members: Insertable<SimRoomMembersTable>[],
) {
  // Chunked: SQLite limits the number of bound values per statement.
  for (let i = 0; i < contacts.length; i += 50)
    await db
      .insertInto('sim_contacts')
      .values(contacts.slice(i, i + 50))
      .execute();
  for (let i = 0; i < members.length; i += 50)
    await db
      .insertInto('sim_room_members')
      .values(members.slice(i, i + 50))
      .execute();
}

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
    .orderBy('id')
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
