import { ACTIVE_QR_STATES } from '@wxc/contract';
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type NotNull,
  PostgresAdapter,
  type QueryCreator,
  type RawBuilder,
  type Selectable,
  sql,
  type Updateable,
} from 'kysely';
import { ASYNC_COMMIT, COMMITS_WITH_IT, PLAN_EACH_TIME } from '../../db/pg-statements.js';
import {
  insertManyTogether,
  preparedInsert,
  preparedInsertMany,
  preparedQuery,
  rowsAsJson,
  rowsFor,
  type ShapedStatement,
} from '../../db/prepared.js';
import type {
  DB,
  WxAccountsTable,
  WxDeviceRow,
  WxLoginRow,
  WxLoginsTable,
  WxMessagesTable,
} from '../../db/schema.js';
import type { PackageService } from '../packages/service.js';
import type { WxAccountViewRow } from './mappers.js';

// The gateway's tables: wx_devices, wx_logins, wx_accounts, wx_messages, wx_sync_jobs (it reads
// api_accounts for a sub-account's name).

// ---- devices
const DEVICE_COLUMNS = {
  id: true,
  company_id: true,
  api_account_id: true,
  name: true,
  proxy: true,
  wxid: true,
  login_count: true,
  created_at: true,
  last_login_at: true,
} as const;

export const findDevice = (db: Kysely<DB>, companyId: string, id: string) =>
  db
    .selectFrom('wx_devices')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

/** A login on the device confirmed: it remembers the account, and counts the login. */
const deviceLogin = (db: QueryCreator<DB>, id: string, wxid: string, at: number) =>
  db
    .updateTable('wx_devices')
    .set({ wxid, login_count: sql`login_count + 1`, last_login_at: at })
    .where('id', '=', id);
const recordDeviceLogin = preparedQuery(3, deviceLogin);

// ---- logins (QR codes)
const LOGIN_COLUMNS = {
  id: true,
  company_id: true,
  api_account_id: true,
  device_id: true,
  proxy: true,
  state: true,
  result: true,
  verify_code: true,
  scanner_nickname: true,
  scanner_avatar: true,
  wx_account_id: true,
  wxid: true,
  expires_at: true,
  started_at: true,
  scanned_at: true,
  logged_in_at: true,
  ended_at: true,
  logout_reason: true,
} as const;
export const insertLogin = preparedInsert('wx_logins', LOGIN_COLUMNS);

const DEVICE_COLUMN_NAMES = Object.keys(DEVICE_COLUMNS) as (keyof typeof DEVICE_COLUMNS)[];
const LOGIN_COLUMN_NAMES = Object.keys(LOGIN_COLUMNS) as (keyof typeof LOGIN_COLUMNS)[];
const devicesInsert = preparedInsertMany('wx_devices', DEVICE_COLUMNS);
const loginsInsert = preparedInsertMany('wx_logins', LOGIN_COLUMNS);
/**
 * A new device and its first login (a QR code asked for without a device): together, one statement
 * on PostgreSQL (db/prepared.ts insertManyTogether) rather than two round trips and two commits.
 */
export const insertDeviceWithLogin = (db: Kysely<DB>, device: WxDeviceRow, login: WxLoginRow) =>
  insertManyTogether(db, [rowsFor(devicesInsert, [device]), rowsFor(loginsInsert, [login])]);

// A login is read on each of its steps (scan, confirm, check): prepared.
const findLoginQuery = preparedQuery(1, (db, id: string) =>
  db.selectFrom('wx_logins').selectAll().where('id', '=', id),
);
export const findLogin = async (db: Kysely<DB>, id: string): Promise<Selectable<WxLoginsTable> | undefined> =>
  (await findLoginQuery(db, id)).rows[0];

/** A login with its device's name (the phone page's view), in one statement. */
export const findLoginWithDeviceName = (db: Kysely<DB>, id: string) =>
  db
    .selectFrom('wx_logins')
    .leftJoin('wx_devices', (j) =>
      j
        .onRef('wx_devices.id', '=', 'wx_logins.device_id')
        .onRef('wx_devices.company_id', '=', 'wx_logins.company_id'),
    )
    .selectAll('wx_logins')
    .select('wx_devices.name as device_name')
    .where('wx_logins.id', '=', id)
    .executeTakeFirst();

/**
 * Moves a login from one of `from` states and returns it as it now is; undefined when it was not in
 * one (another request won), or, with `unexpiredAt`, when its QR code had expired by then.
 */
export async function moveLogin(
  db: Kysely<DB>,
  id: string,
  from: WxLoginsTable['state'][],
  patch: Updateable<WxLoginsTable>,
  unexpiredAt?: number,
): Promise<Selectable<WxLoginsTable> | undefined> {
  return db
    .updateTable('wx_logins')
    .set(patch)
    .where('id', '=', id)
    .where('state', 'in', from)
    .$if(unexpiredAt !== undefined, (q) => q.where('expires_at', '>', unexpiredAt!))
    .returningAll()
    .modifyEnd(sql.raw(ASYNC_COMMIT)) // a QR code's steps before its confirmation: made again if lost
    .executeTakeFirst();
}

export const updateLogin = (db: Kysely<DB>, id: string, patch: Updateable<WxLoginsTable>) =>
  db.updateTable('wx_logins').set(patch).where('id', '=', id).execute();

/** QR codes past their time that nobody finished. */
export const overdueLogins = (db: Kysely<DB>, now: number) =>
  db
    .selectFrom('wx_logins')
    .select(['id', 'company_id', 'api_account_id'])
    .where('state', 'in', [...ACTIVE_QR_STATES])
    .where('expires_at', '<=', now)
    .limit(500)
    .execute();

// ---- accounts
/**
 * An account with its sub-account's name. A scalar subquery, not a join: on SQLite the join took
 * ~50 µs a row against ~6 µs (measured; same plan, two primary-key lookups either way), and every
 * call about an account reads one. The sub-account always exists (a foreign key, never deleted).
 */
/** An account's sub-account name, as a scalar subquery on `wx_accounts`. */
const subAccountNameOf = (eb: ExpressionBuilder<DB, 'wx_accounts'>) =>
  eb
    .selectFrom('api_accounts')
    .select('api_accounts.name')
    .whereRef('api_accounts.id', '=', 'wx_accounts.api_account_id');
const accountWithSub = (db: Kysely<DB>) =>
  db
    .selectFrom('wx_accounts')
    .selectAll('wx_accounts')
    .select((eb) => subAccountNameOf(eb).as('sub_account_name'))
    .$narrowType<{ sub_account_name: NotNull }>();

// findAccount, findAccountById: on most calls about an account (prepared: built and compiled once).
const findAccountQuery = preparedQuery(2, (db, companyId: string, wxid: string) =>
  accountWithSub(db).where('wx_accounts.company_id', '=', companyId).where('wx_accounts.wxid', '=', wxid),
);
export const findAccount = async (
  db: Kysely<DB>,
  companyId: string,
  wxid: string,
): Promise<WxAccountViewRow | undefined> => (await findAccountQuery(db, companyId, wxid)).rows[0];

/**
 * findAccount with the company's package slots in force (the send's two checks in one statement):
 * built once per gateway, with the packages module's expression for the slots.
 */
export function findAccountForSendWith(activeSlotsOf: PackageService['activeSlotsOf']) {
  const query = preparedQuery(3, (db, companyId: string, wxid: string, now: number) =>
    accountWithSub(db)
      .select(activeSlotsOf(sql.ref('wx_accounts.company_id'), now).as('active_slots'))
      .where('wx_accounts.company_id', '=', companyId)
      .where('wx_accounts.wxid', '=', wxid),
  );
  return async (db: Kysely<DB>, companyId: string, wxid: string, now: number) => {
    const row = (await query(db, companyId, wxid, now)).rows[0];
    if (!row) return undefined;
    const { active_slots, ...account } = row;
    return { account: account as WxAccountViewRow, activeSlots: Number(active_slots ?? 0) };
  };
}

const findAccountByIdQuery = preparedQuery(1, (db, id: string) =>
  accountWithSub(db).where('wx_accounts.id', '=', id),
);
export const findAccountById = async (db: Kysely<DB>, id: string): Promise<WxAccountViewRow | undefined> =>
  (await findAccountByIdQuery(db, id)).rows[0];

/** Every column of an account (a new one's insert, and findLoginWithAccount's names apart from a login's). */
const ACCOUNT_COLUMNS = {
  id: true,
  company_id: true,
  api_account_id: true,
  wxid: true,
  nickname: true,
  avatar: true,
  alias: true,
  device_id: true,
  status: true,
  online_since: true,
  last_offline_at: true,
  logout_reason: true,
  remark: true,
  expire_at: true,
  current_login_id: true,
  next_send_at: true,
  first_login_at: true,
  last_login_at: true,
  updated_at: true,
} satisfies Record<keyof Selectable<WxAccountsTable>, true>;
const ACCOUNT_COLUMN_NAMES = Object.keys(ACCOUNT_COLUMNS) as Array<keyof Selectable<WxAccountsTable>>;
const accountAlias = (column: string) => `account_${column}`;

/** Takes an account's columns (named by accountAlias) out of a row that holds a login's too. */
function takeAccount(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  const account: Record<string, unknown> = {};
  for (const c of columns) {
    account[c] = row[accountAlias(c)];
    delete row[accountAlias(c)];
  }
  return account;
}

// checkQrCode: the login and, once it is confirmed, its account with the sub-account's name, in one
// read (the last poll of every login read both). Prepared: every poll runs it.
const findLoginWithAccountQuery = preparedQuery(1, (db, id: string) =>
  db
    .selectFrom('wx_logins')
    .leftJoin('wx_accounts', 'wx_accounts.id', 'wx_logins.wx_account_id')
    .selectAll('wx_logins')
    .select(ACCOUNT_COLUMN_NAMES.map((c) => sql.ref(`wx_accounts.${c}`).as(accountAlias(c))))
    .select((eb) => subAccountNameOf(eb).as(accountAlias('sub_account_name')))
    .where('wx_logins.id', '=', id),
);
export async function findLoginWithAccount(
  db: Kysely<DB>,
  id: string,
): Promise<{ login: Selectable<WxLoginsTable>; account: WxAccountViewRow | undefined } | undefined> {
  const row = (await findLoginWithAccountQuery(db, id)).rows[0] as Record<string, unknown> | undefined;
  if (!row) return undefined;
  const account = takeAccount(row, [...ACCOUNT_COLUMN_NAMES, 'sub_account_name']);
  return {
    login: row as unknown as Selectable<WxLoginsTable>,
    account: account.id == null ? undefined : (account as unknown as WxAccountViewRow),
  };
}

/** A new account's columns: all but those with a default (remark, next_send_at). */
export type NewAccount = Omit<Selectable<WxAccountsTable>, 'remark' | 'next_send_at'>;
const NEW_ACCOUNT_COLUMNS = ACCOUNT_COLUMN_NAMES.filter(
  (c): c is keyof NewAccount => c !== 'remark' && c !== 'next_send_at',
);
const insertAccountQuery = preparedQuery(NEW_ACCOUNT_COLUMNS.length, (db, ...values: unknown[]) =>
  db
    .insertInto('wx_accounts')
    .values(Object.fromEntries(NEW_ACCOUNT_COLUMNS.map((c, i) => [c, values[i]])) as NewAccount)
    .returningAll(),
);

/** What a login changes of a known account as it comes online again (putOnlineAndConfirm). */
const REJOIN_COLUMNS = [
  'api_account_id',
  'nickname',
  'avatar',
  'alias',
  'device_id',
  'status',
  'online_since',
  'logout_reason',
  'current_login_id',
  'last_login_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof Selectable<WxAccountsTable>>;
type RejoinPatch = Pick<Selectable<WxAccountsTable>, (typeof REJOIN_COLUMNS)[number]>;

/** Inserts an account; answers the row as written. */
export const insertAccount = async (db: Kysely<DB>, row: NewAccount): Promise<Selectable<WxAccountsTable>> =>
  (await insertAccountQuery(db, ...NEW_ACCOUNT_COLUMNS.map((c) => row[c]))).rows[0]!;

export const updateAccount = (db: Kysely<DB>, id: string, patch: Updateable<WxAccountsTable>) =>
  db.updateTable('wx_accounts').set(patch).where('id', '=', id).execute();

/** Updates an account; answers the row as written. */
export const updateAccountReturning = (db: Kysely<DB>, id: string, patch: Updateable<WxAccountsTable>) =>
  db.updateTable('wx_accounts').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** Sets the customer's fields of an account (remark, expiry); false when the company has no such wxid. */
export async function updateAccountSettings(
  db: Kysely<DB>,
  companyId: string,
  wxid: string,
  patch: { remark?: string; expire_at?: number | null; updated_at: number },
): Promise<boolean> {
  const res = await db
    .updateTable('wx_accounts')
    .set(patch)
    .where('company_id', '=', companyId)
    .where('wxid', '=', wxid)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Takes an account offline if it is online; false when it already was offline. */
export async function takeOffline(db: Kysely<DB>, id: string, reason: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('wx_accounts')
    .set({
      status: 'offline',
      last_offline_at: now,
      logout_reason: reason,
      online_since: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'online')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The accounts online of a company or a sub-account, as the database keeps them (migration 0013). */
// biome-ignore lint/suspicious/noExplicitAny: read from a SELECT or an UPDATE's RETURNING
const onlineCount = (eb: ExpressionBuilder<DB, any>, scope: 'company' | 'sub_account', id: string) =>
  eb.selectFrom('wx_online_counts').select('online').where('scope', '=', scope).where('owner_id', '=', id);

/** A state a login is confirmed from: scanned, or (the phone's verification code) need_verify. */
type ConfirmableState = 'scanned' | 'need_verify';

/** What a new login must fit: the company's slots and service end, its accounts online. */
export interface Quota {
  slots: number;
  companyOnline: number;
  subOnline: number;
  serviceExpiresAt: number | null;
}

const quotaOf = (row: {
  slots: unknown;
  company_online: unknown;
  sub_online: unknown;
  service_expires_at: unknown;
}): Quota => ({
  slots: Number(row.slots ?? 0),
  companyOnline: Number(row.company_online ?? 0),
  subOnline: Number(row.sub_online ?? 0),
  serviceExpiresAt: row.service_expires_at == null ? null : Number(row.service_expires_at),
});

/**
 * Whether a new login fits, as SQL over a row of the quota's columns: logins.ts `assertFits`'s rule
 * (which says why not). `available` is the sub-account's allocation, null when the account does not
 * count (it was online already): then it always fits. No count row is none online (quotaOf).
 */
const fitsSql = (available: number | null | RawBuilder<number | null>, now: number) =>
  sql<boolean>`(cast(${available} as integer) is null or (
    ("service_expires_at" is null or "service_expires_at" > ${now})
    and coalesce("slots", 0) > 0 and coalesce("company_online", 0) < "slots"
    and coalesce("sub_online", 0) < cast(${available} as integer)))`;

/** A row that carries the quota's columns beside others: the quota, and the rest without them. */
function splitQuota<R extends Parameters<typeof quotaOf>[0]>(row: R) {
  const { slots, company_online, sub_online, service_expires_at, ...rest } = row;
  return { quota: quotaOf({ slots, company_online, sub_online, service_expires_at }), rest };
}

/**
 * What a new login must fit, in one statement: the company's slots in force (`activeSlotsOf`, module
 * packages), its accounts online, in all and on the sub-account (kept by the database: counting the
 * accounts took time in proportion to them), and its service end (`serviceExpiresAtOf`, module
 * company; none without the operator's gate).
 */
export function loginQuotaWith(
  activeSlotsOf: PackageService['activeSlotsOf'],
  serviceExpiresAtOf: (companyId: Expression<string>) => RawBuilder<number | null> = () => sql<null>`null`,
) {
  // biome-ignore lint/suspicious/noExplicitAny: the same columns in a SELECT and in an UPDATE's RETURNING
  const columns = (eb: ExpressionBuilder<DB, any>, companyId: string, subAccountId: string, now: number) => [
    activeSlotsOf(sql.val(companyId), now).as('slots'),
    onlineCount(eb, 'company', companyId).as('company_online'),
    onlineCount(eb, 'sub_account', subAccountId).as('sub_online'),
    serviceExpiresAtOf(sql.val(companyId)).as('service_expires_at'),
  ];
  const read = preparedQuery(3, (db, companyId: string, subAccountId: string, now: number) =>
    db.selectNoFrom((eb) => columns(eb, companyId, subAccountId, now)),
  );
  // PostgreSQL: a QR code asked for without a device: its quota read, and the new device with its
  // login written only if it fits (the rule of fitsSql), in one statement: a round trip and a
  // statement less a login than the read before the write.
  const rowsIfFits = (table: 'wx_devices' | 'wx_logins', names: readonly string[], json: string) =>
    sql`select ${sql.join(names.map((n) => sql.ref(n)))} from json_populate_recordset(null::${sql.table(table)}, ${json}::json) where (select "fits" from "verdict")`;
  const newLoginIfFits = preparedQuery(
    6,
    (
      db,
      companyId: string,
      subAccountId: string,
      now: number,
      available: number,
      devices: string,
      logins: string,
    ) =>
      db
        .with('quota', (qc) => qc.selectNoFrom((eb) => columns(eb, companyId, subAccountId, now)))
        .with('verdict', (qc) =>
          qc.selectFrom('quota').selectAll('quota').select(fitsSql(available, now).as('fits')),
        )
        .with('device', (qc) =>
          qc
            .insertInto('wx_devices')
            .columns(DEVICE_COLUMN_NAMES)
            .expression(rowsIfFits('wx_devices', DEVICE_COLUMN_NAMES, devices)),
        )
        .with('login', (qc) =>
          qc
            .insertInto('wx_logins')
            .columns(LOGIN_COLUMN_NAMES)
            .expression(rowsIfFits('wx_logins', LOGIN_COLUMN_NAMES, logins)),
        )
        .selectFrom('verdict')
        .select(['slots', 'company_online', 'sub_online', 'service_expires_at', 'fits'])
        .modifyEnd(sql.raw(ASYNC_COMMIT)), // a QR code lost in a crash is asked for again
  );
  const confirm = preparedQuery(
    7,
    (
      db,
      loginId: string,
      companyId: string,
      subAccountId: string,
      now: number,
      accountId: string,
      wxid: string,
      alsoFrom: ConfirmableState,
    ) =>
      db
        .updateTable('wx_logins')
        .set({ state: 'confirmed', result: 'success', wx_account_id: accountId, wxid, logged_in_at: now })
        .where('id', '=', loginId)
        .where('state', 'in', ['scanned', alsoFrom])
        .where('expires_at', '>', now)
        .returningAll()
        .returning((eb) => columns(eb, companyId, subAccountId, now)),
  );
  // PostgreSQL: a confirmation in one statement, which ends the transaction (COMMITS_WITH_IT): the
  // account read by its wxid (its row locked), the account's own refusals (its time ran out; it
  // would count, and the sub-account was recovered), the quota checked (fitsSql, when the account
  // counts: it was not online), the login's move, the account's write (the known one brought back,
  // or the new one inserted) and the device's count. Refused, it writes nothing (but the count rows
  // it locks, made at 0 for a company's or a sub-account's first login: the same count as none).
  const confirmTogether = preparedQuery(
    9 + NEW_ACCOUNT_COLUMNS.length,
    (
      db,
      loginId: string,
      companyId: string,
      subAccountId: string,
      now: number,
      wxid: string,
      alsoFrom: ConfirmableState,
      deviceId: string,
      available: number,
      subActive: boolean,
      ...values: unknown[]
    ) => {
      const row = Object.fromEntries(NEW_ACCOUNT_COLUMNS.map((col, i) => [col, values[i]]));
      const existing = <T = unknown>(col: 'id' | 'status' | 'expire_at' | 'current_login_id') =>
        sql<T>`(select ${sql.ref(col)} from "existing")`;
      const whenMoved = sql<boolean>`exists (select 1 from "moved")`;
      return (
        db
          // Confirmations of one account take turns from here to their commit.
          .with('existing', (qc) =>
            qc
              .selectFrom('wx_accounts')
              .select(['id', 'status', 'expire_at', 'current_login_id'])
              .where('company_id', '=', companyId)
              .where('wxid', '=', wxid)
              .forUpdate(),
          )
          .with('gate', (qc) =>
            qc.selectNoFrom([
              sql<boolean>`coalesce(${existing('expire_at')} <= ${now}, false)`.as('expired'),
              // The same account online elsewhere is replaced by this login and does not count twice.
              sql<boolean>`coalesce(${existing('status')} <> 'online', true)`.as('counted'),
            ]),
          )
          .with('counts', (qc) =>
            // Company first, then sub-account: the order every write of the counts locks them in.
            // After the account's row (read by `gate` first): an account's write locks its row, then
            // the counts (migration 0013's triggers), and a logout racing this confirmation must not
            // hold one while waiting for the other.
            qc
              .insertInto('wx_online_counts')
              .columns(['scope', 'owner_id', 'online'])
              .expression(
                sql`select * from (values ('company', ${companyId}, 0), ('sub_account', ${subAccountId}, 0)) as "v" ("scope", "owner_id", "online") where (select "counted" from "gate") is not null`,
              )
              .onConflict((oc) =>
                oc
                  .columns(['scope', 'owner_id'])
                  .doUpdateSet({ online: (eb) => eb.ref('wx_online_counts.online') }),
              )
              .returning(['scope', 'online']),
          )
          .with('quota', (qc) =>
            qc.selectNoFrom((eb) => [
              activeSlotsOf(sql.val(companyId), now).as('slots'),
              eb.selectFrom('counts').select('online').where('scope', '=', 'company').as('company_online'),
              eb.selectFrom('counts').select('online').where('scope', '=', 'sub_account').as('sub_online'),
              serviceExpiresAtOf(sql.val(companyId)).as('service_expires_at'),
            ]),
          )
          .with('verdict', (qc) =>
            qc
              .selectFrom(['quota', 'gate'])
              .selectAll('quota')
              .selectAll('gate')
              .select(
                fitsSql(
                  sql<number | null>`case when "counted" then cast(${available} as integer) end`,
                  now,
                ).as('fits'),
              )
              .select(sql<boolean>`not "expired" and (not "counted" or ${subActive})`.as('account_may')),
          )
          .with('moved', (qc) =>
            qc
              .updateTable('wx_logins')
              .set({
                state: 'confirmed',
                result: 'success',
                wx_account_id: sql`coalesce(${existing('id')}, ${row.id})`,
                wxid,
                logged_in_at: now,
              })
              .where('id', '=', loginId)
              .where('state', 'in', ['scanned', alsoFrom])
              .where('expires_at', '>', now)
              .where(sql<boolean>`(select "account_may" and "fits" from "verdict")`)
              .returningAll(),
          )
          .with('inserted', (qc) =>
            qc
              .insertInto('wx_accounts')
              .columns(NEW_ACCOUNT_COLUMNS)
              .expression(
                qc
                  .selectNoFrom(NEW_ACCOUNT_COLUMNS.map((col) => sql`${row[col]}`.as(col)))
                  .where(whenMoved)
                  .where(sql<boolean>`not exists (select 1 from "existing")`),
              )
              .returningAll(),
          )
          .with('updated', (qc) =>
            qc
              .updateTable('wx_accounts')
              .set(Object.fromEntries(REJOIN_COLUMNS.map((col) => [col, row[col]])) as RejoinPatch)
              .where('id', '=', sql<string>`${existing('id')}`)
              .where(whenMoved)
              .returningAll(),
          )
          .with('account', (qc) =>
            qc.selectFrom('inserted').selectAll().unionAll(qc.selectFrom('updated').selectAll()),
          )
          .with('device', (qc) =>
            deviceLogin(qc as unknown as QueryCreator<DB>, deviceId, wxid, now).where(whenMoved),
          )
          // The verdict always comes back; the login's and the account's columns are null when
          // nothing moved.
          .selectFrom('verdict')
          .leftJoin('moved', (join) => join.onTrue())
          .leftJoin('account', (join) => join.onTrue())
          .selectAll('moved')
          .select(ACCOUNT_COLUMN_NAMES.map((col) => sql.ref(`account.${col}`).as(accountAlias(col))))
          .select([
            'verdict.slots',
            'verdict.company_online',
            'verdict.sub_online',
            'verdict.service_expires_at',
            'verdict.fits',
            'verdict.expired',
            'verdict.counted',
          ])
          .select([
            existing<string | null>('status').as('existing_status'),
            existing<string | null>('current_login_id').as('existing_login_id'),
          ])
          .modifyEnd(sql.raw(COMMITS_WITH_IT))
      );
    },
  );

  return {
    read: async (db: Kysely<DB>, companyId: string, subAccountId: string, now: number) =>
      quotaOf((await read(db, companyId, subAccountId, now)).rows[0]!),
    /**
     * Whether `newLoginIfFits` reads the quota as it writes (PostgreSQL); otherwise the caller reads
     * it first (`read`: SQLite, whose statements cost no round trip) and writes after.
     */
    readsWithNewLogin: (db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter,
    /**
     * PostgreSQL: a new device and its first login, written only if a new login fits the company's
     * quota and the sub-account's allocation (`available`), in one statement. The quota as read
     * comes back either way; refused (`written: false`), nothing was written, and logins.ts
     * assertFits (the same rule) says why.
     */
    async newLoginIfFits(
      db: Kysely<DB>,
      device: WxDeviceRow,
      login: WxLoginRow,
      available: number,
      now: number,
    ) {
      const { fits, ...row } = (
        await newLoginIfFits(
          db,
          login.company_id,
          login.api_account_id,
          now,
          available,
          rowsAsJson([device]),
          rowsAsJson([login]),
        )
      ).rows[0]!;
      return { quota: quotaOf(row), written: fits === true };
    },
    /**
     * A confirmation, in its transaction: the account read by its wxid, if the company has it; the
     * login becomes the account's session, the account goes online (the known one brought back:
     * what a login changes of it, RejoinPatch; or `account` inserted) and the device remembers it
     * and counts the login. Unless the account's time ran out (`refused`), or it would count (it was
     * not online: `counted`) and the sub-account was recovered (`refused`); or the login no longer
     * waited for its confirmation (scanned, or waiting for its verification code unless
     * `scannedOnly`) or its QR code's time had run out at `now` (nothing `confirmed`); or, when the
     * account counts, the company's service had ended or the login does not fit its slots or the
     * sub-account's allocation (`available`). The quota counts the others' accounts online, this
     * one not among them. PostgreSQL checks it in the statement and says so (`verdict`; refused, the
     * caller says why: logins.ts assertFits, the same rule); SQLite leaves it to the caller (no
     * `verdict`), who rolls back what does not fit.
     *
     * PostgreSQL, one statement, and the transaction's last (COMMITS_WITH_IT: refused, it wrote
     * nothing): besides the writes, it locks the account's row (confirmations of one account take
     * turns, each seeing the one before it) and the company's and the sub-account's count rows (an
     * upsert, so that a company's first login has rows to lock too), and reads them as the
     * confirmations before this one left them; the account joins them at the statement's end (the
     * triggers of migration 0013). Confirmations of one company take turns from within this
     * statement to their commit, which is written right behind it: no round trip to this process
     * in between (bench/README.md, sessions 31, 42 and 44). SQLite (one transaction at a time): the
     * account's read, its write, the move with the quota, the device; the caller rolls back what is
     * refused.
     */
    async putOnlineAndConfirm(
      db: Kysely<DB>,
      login: {
        id: string;
        companyId: string;
        subAccountId: string;
        wxid: string;
        scannedOnly: boolean;
        deviceId: string;
        /** The sub-account's allocation, and whether it is in use (not recovered). */
        available: number;
        subActive: boolean;
      },
      account: NewAccount,
      now: number,
    ): Promise<{
      /** The account's session before this login, when the company had the account. */
      before?: { currentLoginId: string | null };
      /** Whether the account counts against the quota: it was not online. */
      counted: boolean;
      refused?: 'account_expired' | 'sub_account_recovered';
      quota?: Quota;
      /** PostgreSQL: the statement checked the quota; `refused`: nothing was written. */
      verdict?: 'fits' | 'refused';
      confirmed?: { login: Selectable<WxLoginsTable>; account: Selectable<WxAccountsTable> };
    }> {
      // The states the login may be moved from: 'scanned', and 'need_verify' unless scannedOnly.
      const alsoFrom: ConfirmableState = login.scannedOnly ? 'scanned' : 'need_verify';
      if (db.getExecutor().adapter instanceof PostgresAdapter) {
        const result = await confirmTogether(
          db,
          login.id,
          login.companyId,
          login.subAccountId,
          now,
          login.wxid,
          alsoFrom,
          login.deviceId,
          login.available,
          login.subActive,
          ...NEW_ACCOUNT_COLUMNS.map((c) => account[c]),
        );
        const { fits, expired, counted, existing_status, existing_login_id, ...rest } = result.rows[0]!;
        const { quota, rest: row } = splitQuota(rest);
        const written = takeAccount(row, ACCOUNT_COLUMN_NAMES) as Selectable<WxAccountsTable>;
        const outcome = {
          before: existing_status == null ? undefined : { currentLoginId: existing_login_id ?? null },
          counted: counted === true,
        };
        if (expired) return { ...outcome, refused: 'account_expired' };
        if (counted && !login.subActive) return { ...outcome, refused: 'sub_account_recovered' };
        const verdict = fits ? 'fits' : 'refused';
        // The known account is locked, and a login moved to an account that is not there fails the
        // statement (its foreign key): not reached.
        if (row.id != null && written.id == null)
          throw new Error('the account to bring online was not found');
        if (row.id == null) return { ...outcome, quota, verdict };
        return {
          ...outcome,
          quota,
          verdict,
          confirmed: { login: row as Selectable<WxLoginsTable>, account: written },
        };
      }
      const existing = await accountToConfirm(db, login.companyId, login.wxid);
      const outcome = {
        before: existing && { currentLoginId: existing.current_login_id ?? null },
        counted: existing?.status !== 'online',
      };
      if (existing?.expire_at != null && Number(existing.expire_at) <= now)
        return { ...outcome, refused: 'account_expired' };
      if (outcome.counted && !login.subActive) return { ...outcome, refused: 'sub_account_recovered' };
      const written = existing
        ? await updateAccountReturning(
            db,
            existing.id,
            Object.fromEntries(REJOIN_COLUMNS.map((c) => [c, account[c]])) as RejoinPatch,
          )
        : await insertAccount(db, account);
      const moved = (
        await confirm(
          db,
          login.id,
          login.companyId,
          login.subAccountId,
          now,
          written.id,
          login.wxid,
          alsoFrom,
        )
      ).rows[0];
      if (!moved) return outcome;
      const { quota, rest: row } = splitQuota(moved);
      // Read after the write: this account is among them.
      quota.companyOnline -= 1;
      quota.subOnline -= 1;
      await recordDeviceLogin(db, login.deviceId, login.wxid, now);
      return { ...outcome, quota, confirmed: { login: row as Selectable<WxLoginsTable>, account: written } };
    },
  };
}

/**
 * SQLite: a confirmation's first step, in its transaction (one at a time): what it needs of the
 * account (by wxid), if the company has it already. (PostgreSQL reads it, its row locked, in the
 * confirmation's statement.)
 */
const accountToConfirmQuery = preparedQuery(2, (db, companyId: string, wxid: string) =>
  db
    .selectFrom('wx_accounts')
    .select(['id', 'status', 'expire_at', 'current_login_id'])
    .where('company_id', '=', companyId)
    .where('wxid', '=', wxid),
);
const accountToConfirm = async (db: Kysely<DB>, companyId: string, wxid: string) =>
  (await accountToConfirmQuery(db, companyId, wxid)).rows[0];

/** The accounts online of a company or a sub-account, as the database keeps them (no rows counted). */
export async function countOnline(
  db: Kysely<DB>,
  scope: 'company' | 'sub_account',
  id: string,
): Promise<number> {
  const row = await db.selectNoFrom((eb) => onlineCount(eb, scope, id).as('n')).executeTakeFirstOrThrow();
  return Number(row.n ?? 0);
}

/** How far a company got with the gateway: an account ever logged in, a message ever sent. */
export async function progressOf(db: Kysely<DB>, companyId: string) {
  const [account, sent] = await Promise.all([
    db.selectFrom('wx_accounts').select('id').where('company_id', '=', companyId).limit(1).executeTakeFirst(),
    db
      .selectFrom('wx_messages')
      .select('id')
      .where('company_id', '=', companyId)
      .where('direction', '=', 'out')
      .where('status', '=', 'sent')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { loggedIn: account !== undefined, sent: sent !== undefined };
}

/** Online accounts per sub-account of a company (slots in use). */
export async function onlineBySubAccount(db: Kysely<DB>, companyId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('wx_accounts')
    .select(['api_account_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', companyId)
    .where('status', '=', 'online')
    .groupBy('api_account_id')
    .execute();
  return new Map(rows.map((r) => [r.api_account_id, Number(r.n)]));
}

/** A few online accounts, most recently logged in first (the simulator's group chatter). */
export const someOnlineAccounts = (db: Kysely<DB>, limit: number) =>
  db
    .selectFrom('wx_accounts')
    .select(['id', 'company_id', 'wxid', 'device_id'])
    .where('status', '=', 'online')
    .orderBy('last_login_at', 'desc')
    .limit(limit)
    .execute();

/** Every account the records say is online (at start: the provider reconnects them). */
export const allOnlineAccounts = (db: Kysely<DB>) =>
  db
    .selectFrom('wx_accounts')
    .select(['id', 'company_id', 'wxid', 'device_id'])
    .where('status', '=', 'online')
    .execute();

export const expiredOnline = (db: Kysely<DB>, now: number) =>
  db
    .selectFrom('wx_accounts')
    .select(['id'])
    .where('status', '=', 'online')
    .where('expire_at', 'is not', null)
    .where('expire_at', '<=', now)
    .limit(500)
    .execute();

// ---- messages
/** Every column of a message (the type checks that none is missing). */
const MESSAGE_COLUMN_SET: Record<keyof WxMessagesTable, true> = {
  id: true,
  company_id: true,
  wx_account_id: true,
  new_msg_id: true,
  direction: true,
  peer: true,
  sender: true,
  type: true,
  app_type: true,
  content: true,
  media: true,
  status: true,
  error: true,
  claim_token: true,
  lease_until: true,
  sent_at: true,
  create_time: true,
  created_at: true,
  seq: true,
};
/** In one order: the guarded insert binds a row as a list. */
const MESSAGE_COLUMNS = Object.keys(MESSAGE_COLUMN_SET) as Array<keyof WxMessagesTable>;

/** A message queued to send later (paced): prepared. */
export const insertMessage = preparedInsert('wx_messages', MESSAGE_COLUMN_SET);

/**
 * The condition of a guarded insert: the account is online under login `loginId` still, so what the
 * writer took from an earlier read of it (its sub-account, device, company: a login sets them) is
 * what it is now. The writer may have read it long before (GatewayContext's known accounts).
 * A scalar subquery, not EXISTS: PostgreSQL turns an EXISTS into a join, and in a statement of many
 * rows (insertClaimedManyUnlessQueuedWith) it chose to scan the online accounts and take the rows
 * apart again for each one (the JSON parsed 40 times: 15 ms a statement in the soak, 57 ms
 * explained). As a subquery it is one primary-key lookup per row.
 */
const onlineUnder = (accountId: unknown, loginId: unknown) =>
  sql<boolean>`(select "status" from "wx_accounts"
    where "id" = ${accountId} and "current_login_id" is not distinct from ${loginId}) = 'online'`;

/** A message from the network, inserted only while its account is online under login `loginId`. */
const receivedInsert = (db: Kysely<DB>, values: readonly unknown[], loginId: unknown) =>
  db
    .insertInto('wx_messages')
    .columns(MESSAGE_COLUMNS)
    .expression(
      db
        .selectNoFrom(MESSAGE_COLUMNS.map((c, i) => sql`${values[i]}`.as(c)))
        .where(onlineUnder(values[MESSAGE_COLUMNS.indexOf('wx_account_id')], loginId)),
    )
    .returning('id');

const insertReceivedQuery = preparedQuery(MESSAGE_COLUMNS.length + 1, (db, ...args: unknown[]) =>
  receivedInsert(db, args.slice(0, MESSAGE_COLUMNS.length), args[MESSAGE_COLUMNS.length]),
);

/** Stores a received message while its account is online under login `loginId`; false when not. */
export async function insertReceived(
  db: Kysely<DB>,
  row: Selectable<WxMessagesTable>,
  loginId: string | null,
): Promise<boolean> {
  const values = MESSAGE_COLUMNS.map((c) => row[c]);
  return (await insertReceivedQuery(db, ...values, loginId)).rows.length === 1;
}

/**
 * insertReceived for many messages as one change returning the ids of the rows stored
 * (GatewayContext.withCallbacks on PostgreSQL): each row only while its account is online under its
 * own login. The rows travel as one JSON array (one statement text for any number of them), their
 * logins beside them by message id.
 */
export const insertReceivedManyStatement = (
  rows: ReadonlyArray<{ row: Selectable<WxMessagesTable>; loginId: string | null }>,
): ShapedStatement<{ id: string }> => ({
  build: receivedManyChange,
  args: [
    rowsAsJson(rows.map(({ row }) => row)),
    rows.map(({ row }) => row.id),
    rows.map(({ loginId }) => loginId),
  ],
});

const RECEIVED_COLUMN_LIST = sql.join(MESSAGE_COLUMNS.map((c) => sql.ref(c)));
const receivedManyChange = (_db: Kysely<DB>, ...[rows, ids, loginIds]: unknown[]) =>
  sql<{ id: string }>`insert into "wx_messages" (${RECEIVED_COLUMN_LIST})
    select ${sql.join(MESSAGE_COLUMNS.map((c) => sql.ref(`v.${c}`)))}
    from json_populate_recordset(null::"wx_messages", cast(${rows} as json)) as "v"
      join unnest(cast(${ids} as text[]), cast(${loginIds} as text[])) as "l"("id", "login_id")
        on "l"."id" = "v"."id"
    where ${onlineUnder(sql.ref('v.wx_account_id'), sql.ref('l.login_id'))}
    returning "id"`;

/** A claim's columns, which the claimed insert sets itself. */
const CLAIM_COLUMNS: ReadonlyArray<keyof WxMessagesTable> = ['status', 'claim_token', 'lease_until'];
/** The columns an outgoing message is stored with, apart from those of its claim. */
const OUTGOING_COLUMNS = MESSAGE_COLUMNS.filter((c) => !CLAIM_COLUMNS.includes(c));

/**
 * Stores an outgoing message already claimed (`sending`, under `token` until `leaseUntil`), so its
 * sender needs no claim of its own; or `queued`, behind them, when older messages of the account
 * still wait in its queue. Stored only while the account is online under login `loginId` and its
 * company has a package in force at `now` (the send's checks, made again by the insert itself: the
 * sender may have read the account long before). One statement; answers which, or undefined when
 * it stored nothing. Built once per gateway, with the packages module's expression for the slots.
 */
export function insertClaimedUnlessQueuedWith(activeSlotsOf: PackageService['activeSlotsOf']) {
  const columns = [...OUTGOING_COLUMNS, ...CLAIM_COLUMNS];
  const query = preparedQuery(OUTGOING_COLUMNS.length + 4, (db, ...args: unknown[]) => {
    const value = (c: keyof WxMessagesTable) => args[OUTGOING_COLUMNS.indexOf(c)];
    const [token, leaseUntil, loginId, now] = args.slice(OUTGOING_COLUMNS.length);
    // Decided inside the insert, so that no send of another process slips in between.
    const waiting = sql`exists (select 1 from wx_messages where status = 'queued' and wx_account_id = ${value('wx_account_id')})`;
    return db
      .insertInto('wx_messages')
      .columns(columns)
      .expression(
        db
          .selectNoFrom([
            ...OUTGOING_COLUMNS.map((c) => sql`${value(c)}`.as(c)),
            sql`case when ${waiting} then 'queued' else 'sending' end`.as('status'),
            sql`case when ${waiting} then null else cast(${token} as text) end`.as('claim_token'),
            sql`case when ${waiting} then null else cast(${leaseUntil} as bigint) end`.as('lease_until'),
          ])
          .where(onlineUnder(value('wx_account_id'), loginId))
          .where(sql<boolean>`${activeSlotsOf(sql`${value('company_id')}`, now as number)} > 0`),
      )
      .returning('status');
  });
  return async (
    db: Kysely<DB>,
    row: Selectable<WxMessagesTable>,
    claim: { token: string; leaseUntil: number; loginId: string | null; now: number },
  ): Promise<'sending' | 'queued' | undefined> => {
    const values = OUTGOING_COLUMNS.map((c) => row[c]);
    const result = await query(db, ...values, claim.token, claim.leaseUntil, claim.loginId, claim.now);
    return result.rows[0]?.status as 'sending' | 'queued' | undefined;
  };
}

/**
 * insertClaimedUnlessQueuedWith for many messages in one statement (PostgreSQL: the sends of one
 * turn of the event loop), each decided as that one would decide it alone: stored only while its
 * account is online under its login and its company has a package in force at `now`; `queued` when
 * older messages of its account wait in the queue, else `sending` under its own claim. Two of one
 * account in the same statement are both claimed, as two statements in a row would claim both. The
 * rows travel as one JSON array, their claims beside them as arrays (one text for any number).
 * Answers, in the rows' order, each one's status, or undefined when it was not stored.
 */
export function insertClaimedManyUnlessQueuedWith(activeSlotsOf: PackageService['activeSlotsOf']) {
  const columns = sql.join([...OUTGOING_COLUMNS, ...CLAIM_COLUMNS].map((c) => sql.ref(c)));
  const query = preparedQuery(6, (_db, rows, ids, tokens, leases, logins, now) => {
    // Whether older messages of the row's account wait: looked up once a row (`offset 0` keeps the
    // planner from copying the subquery into each of the three places that read it).
    const waiting = sql`lateral (select exists (select 1 from wx_messages as "q"
      where "q"."status" = 'queued' and "q"."wx_account_id" = "v"."wx_account_id") as "queued" offset 0) as "w"`;
    return sql<{ id: string; status: 'sending' | 'queued' }>`insert into "wx_messages" (${columns})
      select ${sql.join(OUTGOING_COLUMNS.map((c) => sql.ref(`v.${c}`)))},
        case when "w"."queued" then 'queued' else 'sending' end,
        case when "w"."queued" then null else "c"."token" end,
        case when "w"."queued" then null else "c"."lease_until" end
      from json_populate_recordset(null::"wx_messages", cast(${rows} as json)) as "v"
        join unnest(cast(${ids} as text[]), cast(${tokens} as text[]), cast(${leases} as bigint[]),
          cast(${logins} as text[])) as "c"("id", "token", "lease_until", "login_id")
          on "c"."id" = "v"."id"
        cross join ${waiting}
      where ${onlineUnder(sql.ref('v.wx_account_id'), sql.ref('c.login_id'))}
        and ${activeSlotsOf(sql.ref('v.company_id'), now as number)} > 0
      returning "id", "status"`;
  });
  return async (
    db: Kysely<DB>,
    sends: ReadonlyArray<{
      row: Selectable<WxMessagesTable>;
      claim: { token: string; leaseUntil: number; loginId: string | null };
    }>,
    now: number,
  ): Promise<Array<'sending' | 'queued' | undefined>> => {
    const result = await query(
      db,
      rowsAsJson(sends.map(({ row }) => row)),
      sends.map(({ row }) => row.id),
      sends.map(({ claim }) => claim.token),
      sends.map(({ claim }) => claim.leaseUntil),
      sends.map(({ claim }) => claim.loginId),
      now,
    );
    const statusOf = new Map(result.rows.map((r) => [r.id, r.status]));
    return sends.map(({ row }) => statusOf.get(row.id));
  };
}

export const findMessage = (db: Kysely<DB>, accountId: string, id: string) =>
  db
    .selectFrom('wx_messages')
    .selectAll()
    .where('wx_account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();

export function history(
  db: Kysely<DB>,
  accountId: string,
  opts: { peer?: string; beforeSeq?: number; limit: number },
) {
  let q = db.selectFrom('wx_messages').selectAll().where('wx_account_id', '=', accountId);
  if (opts.peer) q = q.where('peer', '=', opts.peer);
  if (opts.beforeSeq !== undefined) q = q.where('seq', '<', opts.beforeSeq);
  return q
    .orderBy('seq', 'desc')
    .limit(opts.limit + 1)
    .execute();
}

// ---- the send queue (send-queue.ts): every claim and settle is one conditional update
/**
 * The statuses the queue's partial indexes hold (`wx_messages_queue`: queued, `wx_messages_lease`:
 * sending; migration 0014), written into the statements as literals: a prepared statement's
 * generic plan on PostgreSQL can use an index with a WHERE only when the statement's own text
 * implies it, never through a bound value (SQLite plans with the bound value).
 */
const QUEUED = sql.lit<'queued'>('queued');
const SENDING = sql.lit<'sending'>('sending');
/**
 * Claims the account's send slot (pacing) and holds it until `holdUntil`; false when it is not free
 * yet. The holder frees it with `releaseSendSlot` once its send is settled.
 */
export async function claimSendSlot(
  db: Kysely<DB>,
  id: string,
  now: number,
  holdUntil: number,
): Promise<boolean> {
  const res = await db
    .updateTable('wx_accounts')
    .set({ next_send_at: holdUntil })
    .where('id', '=', id)
    .where('next_send_at', '<=', now)
    .where('status', '=', 'online')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Frees a held send slot: the account's next send may start at `nextAt` (this send's end plus the
 * interval). Only while the slot is still this holder's (`holdUntil` unchanged).
 */
export const releaseSendSlot = (db: Kysely<DB>, id: string, holdUntil: number, nextAt: number) =>
  db
    .updateTable('wx_accounts')
    .set({ next_send_at: nextAt })
    .where('id', '=', id)
    .where('next_send_at', '=', holdUntil)
    .execute();

export const oldestQueued = (db: Kysely<DB>, accountId: string) =>
  db
    .selectFrom('wx_messages')
    .selectAll()
    .where('status', '=', QUEUED)
    .where('wx_account_id', '=', accountId)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();

const claimOldestQueuedQuery = preparedQuery(3, (db, accountId: string, token: string, leaseUntil: number) =>
  db
    .updateTable('wx_messages')
    .set({ status: 'sending', claim_token: token, lease_until: leaseUntil })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('wx_messages')
        .select('id')
        .where('status', '=', QUEUED)
        .where('wx_account_id', '=', accountId)
        .orderBy('seq')
        .limit(1),
    )
    .where('status', '=', QUEUED)
    .returningAll(),
);
const anyQueuedQuery = preparedQuery(1, (db, accountId: string) =>
  db
    .selectFrom('wx_messages')
    .select('id')
    .where('status', '=', QUEUED)
    .where('wx_account_id', '=', accountId)
    .limit(1),
);
/**
 * Claims the account's oldest queued message under a token and a lease, in one statement; nothing
 * when the queue is empty or another drain (another process) claimed that message first.
 */
export async function claimOldestQueued(
  db: Kysely<DB>,
  accountId: string,
  token: string,
  leaseUntil: number,
) {
  // A drain's last look finds the queue empty, once per send. A read answers that: the UPDATE would
  // open and commit a write transaction for nothing (~45 µs on SQLite, measured). The UPDATE's own
  // conditions still decide the claim when the read saw a message.
  if ((await anyQueuedQuery(db, accountId)).rows.length === 0) return undefined;
  return (await claimOldestQueuedQuery(db, accountId, token, leaseUntil)).rows[0];
}

/**
 * Settles a claimed message, sent or failed, only by the claim's holder; false when the claim was
 * lost meanwhile (its lease expired and it was taken back), so the outcome is not announced twice.
 */
const settleMessageQuery = preparedQuery(
  5,
  (db, id: string, token: string, status: 'sent' | 'failed', error: string | null, sentAt: number | null) =>
    db
      .updateTable('wx_messages')
      .set({ status, error, claim_token: null, lease_until: null, sent_at: sentAt })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .where('claim_token', '=', token),
);
export async function settleMessage(
  db: Kysely<DB>,
  id: string,
  token: string,
  status: 'sent' | 'failed',
  error: string | null,
): Promise<boolean> {
  const sentAt = status === 'sent' ? Date.now() : null;
  const res = await settleMessageQuery(db, id, token, status, error, sentAt);
  return Number(res.numAffectedRows) === 1;
}

/** A send's outcome, settled by its claim's holder. */
export interface Settlement {
  id: string;
  token: string;
  status: 'sent' | 'failed';
  error: string | null;
}

/**
 * settleMessage for several messages as one query returning the ids of those settled
 * (GatewayContext.withCallbacks, PostgreSQL): each column bound as one array, so its text is the
 * same however many.
 *
 * Read by primary key, whatever the statistics say: matched by id and claim token only (a token
 * is set with `sending` and cleared on every way out of it, so it says `sending` too). Written as
 * `status = 'sending'`, the condition let the planner read the status index whenever it thought
 * few messages were sending (a young table, or any table between two analyses), and that index
 * keeps an entry for every message that was ever sending until vacuum clears it: each settle read
 * all the recent sends (profiled in a PostgreSQL soak: 2–6 ms a settle, growing with the table).
 * Planned for each run (PLAN_EACH_TIME): a generic plan made while the table was young scanned it
 * whole on every settle.
 */
export function settleMessagesStatement(
  settlements: ReadonlyArray<Settlement>,
): ShapedStatement<{ id: string }> {
  const now = Date.now();
  const column = <T>(pick: (s: Settlement) => T) => settlements.map(pick);
  return {
    build: settleChange,
    args: [
      column((s) => s.id),
      column((s) => s.token),
      column((s) => s.status),
      column((s) => s.error),
      column((s) => (s.status === 'sent' ? now : null)),
    ],
  };
}

const settleChange = (_db: Kysely<DB>, ...[ids, tokens, statuses, errors, sentAts]: unknown[]) =>
  sql<{ id: string }>`${sql.raw(PLAN_EACH_TIME)} update "wx_messages" as "m"
    set "status" = "v"."status", "error" = "v"."error", "claim_token" = null, "lease_until" = null,
      "sent_at" = "v"."sent_at"
    from unnest(
      cast(${ids} as text[]), cast(${tokens} as text[]), cast(${statuses} as text[]),
      cast(${errors} as text[]), cast(${sentAts} as bigint[])
    ) as "v"("id", "token", "status", "error", "sent_at")
    where "m"."id" = "v"."id" and "m"."claim_token" = "v"."token"
    returning "m"."id"`;

/**
 * Extends a claim's lease, only for the claim's holder; false when the claim was lost meanwhile.
 * A message stored already claimed that waited its turn long enough to near its lease end.
 */
export async function renewClaim(
  db: Kysely<DB>,
  id: string,
  token: string,
  leaseUntil: number,
): Promise<boolean> {
  const res = await db
    .updateTable('wx_messages')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * The message's account is online: a condition on each row (not `wx_account_id in (…)`, which SQLite
 * would answer by reading every message of every online account through the account index).
 */
// biome-ignore lint/suspicious/noExplicitAny: used in updates of wx_messages of several shapes
const accountOnline = (eb: ExpressionBuilder<any, 'wx_messages'>) =>
  eb.exists(
    eb
      .selectFrom('wx_accounts')
      .select(sql.lit(1).as('one'))
      .whereRef('wx_accounts.id', '=', 'wx_messages.wx_account_id')
      .where('wx_accounts.status', '=', 'online'),
  );

/**
 * Claims whose lease ran out (their process died mid-send) go back to the queue, when their account
 * is still online (at-least-once); the others are settled by `failStranded`.
 */
export const requeueExpired = (db: Kysely<DB>, now: number) =>
  db
    .updateTable('wx_messages')
    .set({ status: 'queued', claim_token: null, lease_until: null })
    .where('status', '=', SENDING)
    .where('lease_until', '<', now)
    .where(accountOnline)
    .execute();

/**
 * Outgoing messages of accounts no longer online that nothing will send: still queued (the account
 * went offline past the logout's own clean-up), or claimed by a process that died. They fail with
 * the reason, never to be sent late when the account logs in again. Two statements, each reading
 * the partial index of its status (an OR of the two would read the whole table).
 */
export async function failStranded(db: Kysely<DB>, now: number, error: string) {
  const fail = () =>
    db
      .updateTable('wx_messages')
      .set({ status: 'failed', error, claim_token: null, lease_until: null })
      .where('direction', '=', 'out')
      .where((eb) => eb.not(accountOnline(eb)))
      .returning(['id', 'wx_account_id', 'peer', 'new_msg_id']);
  const queued = await fail().where('status', '=', QUEUED).execute();
  const claimed = await fail().where('status', '=', SENDING).where('lease_until', '<', now).execute();
  return [...queued, ...claimed];
}

export const failQueued = (db: Kysely<DB>, accountId: string, error: string) =>
  db
    .updateTable('wx_messages')
    .set({ status: 'failed', error })
    .where('wx_account_id', '=', accountId)
    .where('status', '=', QUEUED)
    .returning(['id', 'peer', 'type', 'new_msg_id', 'create_time'])
    .execute();

/** Accounts with queued messages whose send slot is free (the sweeper's work list). */
export const accountsWithDueQueue = (db: Kysely<DB>, now: number) =>
  db
    .selectFrom('wx_messages')
    .innerJoin('wx_accounts', 'wx_accounts.id', 'wx_messages.wx_account_id')
    .select('wx_messages.wx_account_id as id')
    .distinct()
    .where('wx_messages.status', '=', QUEUED)
    .where('wx_accounts.next_send_at', '<=', now)
    .limit(200)
    .execute();

// ---- address-list sync jobs
export const insertSyncJob = (
  db: Kysely<DB>,
  row: { id: string; wx_account_id: string; created_at: number },
) =>
  db
    .insertInto('wx_sync_jobs')
    .values({ ...row, status: 'running', result: null, finished_at: null })
    .execute();

export const finishSyncJob = (
  db: Kysely<DB>,
  id: string,
  status: 'done' | 'failed',
  result: string | null,
  now: number,
) => db.updateTable('wx_sync_jobs').set({ status, result, finished_at: now }).where('id', '=', id).execute();

export const latestSyncJob = (db: Kysely<DB>, accountId: string) =>
  db
    .selectFrom('wx_sync_jobs')
    .selectAll()
    .where('wx_account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
