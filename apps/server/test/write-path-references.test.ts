import { type Kysely, Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { dialects, openBareDatabase, withSchemaChangeLock } from './helpers.js';

// Migration 0018: on PostgreSQL a send's rows (messages, callback events, their attempts) carry no
// foreign keys (each one locked the row it points at); triggers do what the keys did on deletes.
// SQLite keeps its keys. Either way the deletes behave alike.
describe.each(dialects)('what a send writes, when what it points at is deleted (%s)', (dialect) => {
  let bare: Awaited<ReturnType<typeof openBareDatabase>> | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: rows written by hand, as an operator would
  let db: Kysely<any>;

  beforeEach(async () => {
    bare = await openBareDatabase(dialect);
    db = bare.database.db;
    await withSchemaChangeLock(() => migrateToLatest(db));
    // Two companies, each with a sub-account, an account, a message and an event with its attempt.
    for (const n of [1, 2]) {
      await sql`insert into users (id, account, password_hash, role, company_name, user_name, account_type, created_at, updated_at)
        values (${`u${n}`}, ${`company${n}`}, 'x', 'customer', '公司', '用户', 1, 1, 1)`.execute(db);
      await sql`insert into api_accounts (id, company_id, name, app_key, secret_hash, available_num, status, created_at, updated_at)
        values (${`s${n}`}, ${`u${n}`}, '子账号', ${`key${n}`}, 'x', 1, 'active', 1, 1)`.execute(db);
      await sql`insert into wx_devices (id, company_id, api_account_id, name, proxy, created_at)
        values (${`d${n}`}, ${`u${n}`}, ${`s${n}`}, '设备', '', 1)`.execute(db);
      await sql`insert into wx_accounts (id, company_id, api_account_id, wxid, nickname, avatar, alias, device_id, status, first_login_at, last_login_at, updated_at)
        values (${`a${n}`}, ${`u${n}`}, ${`s${n}`}, ${`wxid_${n}`}, '我', '', '', ${`d${n}`}, 'online', 1, 1, 1)`.execute(
        db,
      );
      await sql`insert into wx_messages (id, company_id, wx_account_id, new_msg_id, direction, peer, sender, type, content, status, create_time, created_at, seq)
        values (${`m${n}`}, ${`u${n}`}, ${`a${n}`}, '1', 'out', 'wxid_friend', ${`wxid_${n}`}, 1, 'hi', 'sent', 1, 1, 1)`.execute(
        db,
      );
      await sql`insert into callback_events (id, company_id, api_account_id, wxid, type, payload, url, status, created_at)
        values (${`e${n}`}, ${`u${n}`}, ${`s${n}`}, ${`wxid_${n}`}, 'message_status', '{}', 'http://127.0.0.1/', 'delivered', 1)`.execute(
        db,
      );
      await sql`insert into callback_attempts (id, event_id, attempt, status_code, duration_ms, created_at)
        values (${`t${n}`}, ${`e${n}`}, 1, 200, 3, 1)`.execute(db);
    }
  });
  afterEach(async () => {
    await bare?.close();
    bare = undefined;
  });

  const ids = async (table: string) =>
    (await sql<{ id: string }>`select id from ${sql.table(table)} order by id`.execute(db)).rows.map(
      (r) => r.id,
    );

  it('on PostgreSQL, no foreign key is checked for them (no row locked); on SQLite, they are', async () => {
    const keys = async () =>
      dialect === 'postgres'
        ? (
            await sql<{ name: string }>`select conname as name from pg_constraint
              where contype = 'f' and conrelid::regclass::text in ('wx_messages', 'callback_events', 'callback_attempts')`.execute(
              db,
            )
          ).rows
        : (
            await sql<{ name: string }>`select "table" as name from pragma_foreign_key_list('wx_messages')
              union all select "table" from pragma_foreign_key_list('callback_events')
              union all select "table" from pragma_foreign_key_list('callback_attempts')`.execute(db)
          ).rows;
    expect((await keys()).length).toBe(dialect === 'postgres' ? 0 : 5);
  });

  it('a deleted event takes its attempts with it', async () => {
    await db.deleteFrom('callback_events').where('id', '=', 'e1').execute();
    expect(await ids('callback_attempts')).toEqual(['t2']);
  });

  it('an account with messages, or a sub-account with events, is not deleted (23503)', async () => {
    await expect(db.deleteFrom('wx_accounts').where('id', '=', 'a1').execute()).rejects.toMatchObject(
      dialect === 'postgres' ? { code: '23503' } : { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' },
    );
    await expect(db.deleteFrom('api_accounts').where('id', '=', 's1').execute()).rejects.toThrow();
    expect(await ids('wx_accounts')).toEqual(['a1', 'a2']);
    // Without them, they go.
    await db.deleteFrom('wx_messages').where('id', '=', 'm1').execute();
    await db.deleteFrom('wx_accounts').where('id', '=', 'a1').execute();
    expect(await ids('wx_accounts')).toEqual(['a2']);
  });

  it('a deleted company takes its messages, events and attempts with it, and nothing of another', async () => {
    await db.deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await ids('wx_messages')).toEqual(['m2']);
    expect(await ids('callback_events')).toEqual(['e2']);
    expect(await ids('callback_attempts')).toEqual(['t2']);
    expect(await ids('wx_accounts')).toEqual(['a2']);
    expect(await ids('api_accounts')).toEqual(['s2']);
  });

  it('goes back down to the foreign keys, and up again', async () => {
    const migrator = new Migrator({
      db,
      ...(bare?.pgSchema ? { migrationTableSchema: bare.pgSchema } : {}),
      provider: { getMigrations: async () => migrations },
    });
    const down = await withSchemaChangeLock(() => migrator.migrateDown());
    if (down.error) throw down.error;
    await expect(
      sql`insert into callback_attempts (id, event_id, attempt, status_code, duration_ms, created_at)
        values ('t9', 'no-such-event', 1, 200, 3, 1)`.execute(db),
    ).rejects.toThrow();
    await db.deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await ids('callback_attempts')).toEqual(['t2']);
    const up = await withSchemaChangeLock(() => migrator.migrateToLatest());
    if (up.error) throw up.error;
    await db.deleteFrom('users').where('id', '=', 'u2').execute();
    expect(await ids('wx_messages')).toEqual([]);
    expect(await ids('callback_attempts')).toEqual([]);
  });
});
