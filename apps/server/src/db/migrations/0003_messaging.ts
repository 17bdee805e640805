import type { Kysely } from 'kysely';

// The messaging gateway: devices, accounts, logins (QR + login record), messages, the simulator's
// virtual network, address-list sync jobs, media, the callback outbox, API request nonces.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wx_devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('api_account_id', 'text', (c) => c.notNull().references('api_accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('proxy', 'text', (c) => c.notNull())
    .addColumn('wxid', 'text')
    .addColumn('login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('wx_devices_company')
    .on('wx_devices')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('wx_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('api_account_id', 'text', (c) => c.notNull().references('api_accounts.id'))
    .addColumn('wxid', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull())
    .addColumn('alias', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull().references('wx_devices.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('online_since', 'bigint')
    .addColumn('last_offline_at', 'bigint')
    .addColumn('logout_reason', 'text')
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expire_at', 'bigint')
    .addColumn('current_login_id', 'text')
    .addColumn('next_send_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('first_login_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('wx_accounts_company_wxid', ['company_id', 'wxid'])
    .execute();
  await db.schema
    .createIndex('wx_accounts_company_status')
    .on('wx_accounts')
    .columns(['company_id', 'status'])
    .execute();
  await db.schema
    .createIndex('wx_accounts_api_status')
    .on('wx_accounts')
    .columns(['api_account_id', 'status'])
    .execute();
  await db.schema
    .createIndex('wx_accounts_company_first')
    .on('wx_accounts')
    .columns(['company_id', 'first_login_at'])
    .execute();

  // One row per QR code: the login attempt and, when it succeeds, the login session's record.
  await db.schema
    .createTable('wx_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('api_account_id', 'text', (c) => c.notNull().references('api_accounts.id'))
    .addColumn('device_id', 'text', (c) => c.notNull().references('wx_devices.id'))
    .addColumn('proxy', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('verify_code', 'text')
    .addColumn('scanner_nickname', 'text')
    .addColumn('scanner_avatar', 'text')
    .addColumn('wx_account_id', 'text', (c) => c.references('wx_accounts.id'))
    .addColumn('wxid', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('scanned_at', 'bigint')
    .addColumn('logged_in_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('logout_reason', 'text')
    .execute();
  await db.schema
    .createIndex('wx_logins_company_started')
    .on('wx_logins')
    .columns(['company_id', 'started_at'])
    .execute();
  await db.schema
    .createIndex('wx_logins_state_expires')
    .on('wx_logins')
    .columns(['state', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('wx_logins_company_logged_in')
    .on('wx_logins')
    .columns(['company_id', 'logged_in_at'])
    .execute();

  await db.schema
    .createTable('wx_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('wx_account_id', 'text', (c) => c.notNull().references('wx_accounts.id'))
    .addColumn('new_msg_id', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('peer', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('app_type', 'integer')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('media', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('wx_messages_account_seq')
    .on('wx_messages')
    .columns(['wx_account_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('wx_messages_account_peer_seq')
    .on('wx_messages')
    .columns(['wx_account_id', 'peer', 'seq'])
    .execute();
  await db.schema
    .createIndex('wx_messages_queue')
    .on('wx_messages')
    .columns(['status', 'wx_account_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('wx_messages_company_created')
    .on('wx_messages')
    .columns(['company_id', 'created_at'])
    .execute();

  // The simulator's virtual network, per logged-in account (generated from the device, so stable).
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
    .createIndex('sim_room_members_room')
    .on('sim_room_members')
    .columns(['wx_account_id', 'room_id'])
    .execute();

  await db.schema
    .createTable('wx_sync_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wx_account_id', 'text', (c) => c.notNull().references('wx_accounts.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('wx_sync_jobs_account')
    .on('wx_sync_jobs')
    .columns(['wx_account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('media_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('media_files_company')
    .on('media_files')
    .columns(['company_id', 'created_at'])
    .execute();

  // The callback outbox: one row per event, delivered at least once with backoff; survives restarts.
  await db.schema
    .createTable('callback_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('api_account_id', 'text', (c) => c.notNull().references('api_accounts.id'))
    .addColumn('wxid', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('callback_events_due')
    .on('callback_events')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('callback_events_company_created')
    .on('callback_events')
    .columns(['company_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('callback_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('callback_events.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('callback_attempts_event')
    .on('callback_attempts')
    .columns(['event_id', 'attempt'])
    .execute();

  await db.schema
    .createTable('api_nonces')
    .addColumn('app_key', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_nonces_pk', ['app_key', 'nonce'])
    .execute();
  await db.schema.createIndex('api_nonces_created').on('api_nonces').column('created_at').execute();
}
