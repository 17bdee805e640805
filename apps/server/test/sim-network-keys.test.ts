import { type Kysely, Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import type { DB } from '../src/db/schema.js';
import { insertNetwork, roomMembers } from '../src/modules/sim/repo.js';
import { dialects, openBareDatabase, withSchemaChangeLock } from './helpers.js';

// Migration 0017: the simulator's tables keyed by what a row is (account and contact; account, room
// and member) instead of a random id. A database that had the old tables keeps its rows, its rooms'
// members in the order they were shown; a network still goes with its account.
describe.each(dialects)('migration 0017, the simulated network keyed by its rows (%s)', (dialect) => {
  let bare: Awaited<ReturnType<typeof openBareDatabase>> | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the schema before 0017 is not the current one
  let db: Kysely<any>;

  const migrator = (upTo: string) =>
    new Migrator({
      db,
      ...(bare?.pgSchema ? { migrationTableSchema: bare.pgSchema } : {}),
      provider: {
        getMigrations: async () =>
          Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= upTo)),
      },
    });
  const migrateTo = async (name: string) => {
    const { error } = await withSchemaChangeLock(() => migrator(name).migrateToLatest());
    if (error) throw error;
  };

  beforeEach(async () => {
    bare = await openBareDatabase(dialect);
    db = bare.database.db;
    await migrateTo('0016_pending_callbacks_index');
    // An account, with what it needs, as the tables were before 0017.
    await sql`insert into users (id, account, password_hash, role, company_name, user_name, account_type, created_at, updated_at)
      values ('u1', 'company1', 'x', 'customer', '公司', '用户', 1, 1, 1)`.execute(db);
    await sql`insert into api_accounts (id, company_id, name, app_key, secret_hash, available_num, status, created_at, updated_at)
      values ('s1', 'u1', '子账号', 'key1', 'x', 1, 'active', 1, 1)`.execute(db);
    await sql`insert into wx_devices (id, company_id, api_account_id, name, proxy, created_at)
      values ('d1', 'u1', 's1', '设备', '', 1)`.execute(db);
    await sql`insert into wx_accounts (id, company_id, api_account_id, wxid, nickname, avatar, alias, device_id, status, first_login_at, last_login_at, updated_at)
      values ('a1', 'u1', 's1', 'wxid_me', '我', '', '', 'd1', 'online', 1, 1, 1)`.execute(db);
    await sql`insert into sim_contacts (id, wx_account_id, contact_wxid, kind, nickname, remark, alias, avatar, sex, signature, country, province, city, owner, unreachable)
      values ('c2', 'a1', 'wxid_friend', 'friend', '朋友', '', '', '/a.svg', 1, '签名', 'CN', '广东', '深圳', '', 1),
             ('c1', 'a1', '123@chatroom', 'chatroom', '群', '', '', '/r.svg', 0, '', 'CN', '', '', 'wxid_me', 0)`.execute(
      db,
    );
    // The room's list as shown: by the random ids, so wxid_c (id m1) first.
    await sql`insert into sim_room_members (id, wx_account_id, room_id, member_wxid, nickname, display_name, inviter, avatar)
      values ('m3', 'a1', '123@chatroom', 'wxid_a', 'A', '', 'wxid_me', ''),
             ('m1', 'a1', '123@chatroom', 'wxid_c', 'C', 'C(深圳)', 'wxid_me', ''),
             ('m2', 'a1', '123@chatroom', 'wxid_b', 'B', '', 'wxid_me', '')`.execute(db);
  });
  afterEach(async () => {
    await bare?.close();
    bare = undefined;
  });

  /** After 0017: the current schema. */
  const contactsOf = (accountId: string) =>
    (db as Kysely<DB>)
      .selectFrom('sim_contacts')
      .selectAll()
      .where('wx_account_id', '=', accountId)
      .orderBy('contact_wxid')
      .execute();

  it('keeps every contact and member, each room in the order it was shown', async () => {
    await withSchemaChangeLock(() => migrateToLatest(db));
    const contacts = await contactsOf('a1');
    expect(contacts.map((c) => ({ ...c, sex: Number(c.sex), unreachable: Number(c.unreachable) }))).toEqual([
      {
        wx_account_id: 'a1',
        contact_wxid: '123@chatroom',
        kind: 'chatroom',
        nickname: '群',
        remark: '',
        alias: '',
        avatar: '/r.svg',
        sex: 0,
        signature: '',
        country: 'CN',
        province: '',
        city: '',
        owner: 'wxid_me',
        unreachable: 0,
      },
      {
        wx_account_id: 'a1',
        contact_wxid: 'wxid_friend',
        kind: 'friend',
        nickname: '朋友',
        remark: '',
        alias: '',
        avatar: '/a.svg',
        sex: 1,
        signature: '签名',
        country: 'CN',
        province: '广东',
        city: '深圳',
        owner: '',
        unreachable: 1,
      },
    ]);
    const members = await roomMembers(db as Kysely<DB>, 'a1', '123@chatroom');
    expect(members.map((m) => [m.member_wxid, Number(m.seq), m.display_name])).toEqual([
      ['wxid_c', 0, 'C(深圳)'],
      ['wxid_b', 1, ''],
      ['wxid_a', 2, ''],
    ]);
  });

  it('keys the rows by what they are: a network written again is skipped, a new member is added', async () => {
    await withSchemaChangeLock(() => migrateToLatest(db));
    const contact = (await contactsOf('a1'))[1]!;
    const member = (await roomMembers(db as Kysely<DB>, 'a1', '123@chatroom'))[0]!;
    await insertNetwork(
      db as Kysely<DB>,
      [{ ...contact, nickname: '改过的' }],
      [
        { ...member, nickname: '改过的' },
        { ...member, member_wxid: 'wxid_d', seq: 3 },
      ],
    );
    expect((await contactsOf('a1')).map((c) => c.nickname)).toEqual(['群', '朋友']);
    expect((await roomMembers(db as Kysely<DB>, 'a1', '123@chatroom')).map((m) => m.nickname)).toEqual([
      'C',
      'B',
      'A',
      'C',
    ]);
    // Without skipping, a contact already there is refused: the key holds.
    await expect(
      db
        .insertInto('sim_contacts')
        .values({ ...contact, nickname: 'again' })
        .execute(),
    ).rejects.toThrow();
  });

  it('goes with its account, or its company, as the cascade did (a trigger, no foreign key to check a row)', async () => {
    await withSchemaChangeLock(() => migrateToLatest(db));
    // A second account of the company, and one of another company, each with a contact.
    await sql`insert into users (id, account, password_hash, role, company_name, user_name, account_type, created_at, updated_at)
      values ('u2', 'company2', 'x', 'customer', '公司二', '用户', 1, 1, 1)`.execute(db);
    await sql`insert into api_accounts (id, company_id, name, app_key, secret_hash, available_num, status, created_at, updated_at)
      values ('s2', 'u2', '子账号', 'key2', 'x', 1, 'active', 1, 1)`.execute(db);
    await sql`insert into wx_devices (id, company_id, api_account_id, name, proxy, created_at)
      values ('d2', 'u2', 's2', '设备', '', 1), ('d3', 'u1', 's1', '设备', '', 1)`.execute(db);
    await sql`insert into wx_accounts (id, company_id, api_account_id, wxid, nickname, avatar, alias, device_id, status, first_login_at, last_login_at, updated_at)
      values ('a2', 'u2', 's2', 'wxid_other', '别人', '', '', 'd2', 'online', 1, 1, 1),
             ('a3', 'u1', 's1', 'wxid_me2', '我二', '', '', 'd3', 'offline', 1, 1, 1)`.execute(db);
    const contact = (await contactsOf('a1'))[1]!;
    await insertNetwork(
      db as Kysely<DB>,
      [
        { ...contact, wx_account_id: 'a2' },
        { ...contact, wx_account_id: 'a3' },
      ],
      [],
    );
    const networkAccounts = async () =>
      (
        await db
          .selectFrom('sim_contacts')
          .select('wx_account_id')
          .distinct()
          .orderBy('wx_account_id')
          .execute()
      ).map((r) => r.wx_account_id);
    expect(await networkAccounts()).toEqual(['a1', 'a2', 'a3']);

    await db.deleteFrom('wx_accounts').where('id', '=', 'a1').execute();
    expect(await networkAccounts()).toEqual(['a2', 'a3']);
    expect(await db.selectFrom('sim_room_members').select('member_wxid').execute()).toEqual([]);
    // The company goes: its accounts by their cascade, their networks by the trigger.
    await db.deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await networkAccounts()).toEqual(['a2']);
  });

  it('goes back down to the old tables with their rows', async () => {
    await migrateTo('0017_sim_network_keys');
    const { error } = await withSchemaChangeLock(() => migrator('0017_sim_network_keys').migrateDown());
    if (error) throw error;
    const contacts = await db
      .selectFrom('sim_contacts')
      .select(['id', 'contact_wxid'])
      .orderBy('contact_wxid')
      .execute();
    expect(contacts.map((c) => c.contact_wxid)).toEqual(['123@chatroom', 'wxid_friend']);
    expect(contacts.every((c) => typeof c.id === 'string' && c.id.length > 0)).toBe(true);
    const members = await db.selectFrom('sim_room_members').select(['id', 'member_wxid']).execute();
    expect(members.map((m) => m.member_wxid).sort()).toEqual(['wxid_a', 'wxid_b', 'wxid_c']);
  });
});
