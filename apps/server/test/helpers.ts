import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CallDef, CallRequest, UserInfo } from '@wxc/contract';
import { authCalls } from '@wxc/contract';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, type Dialect, migrateToLatest, openDatabase } from '../src/db/index.js';
import type { DB } from '../src/db/schema.js';
import { seed } from '../src/seed.js';

/**
 * API tests run against SQLite always, and PostgreSQL when TEST_DATABASE_URL is set (CI sets it;
 * under CI a missing PostgreSQL is a failure, not a skip).
 */
const PG_URL = process.env.TEST_DATABASE_URL;
if (process.env.CI === 'true' && !PG_URL) {
  throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suite may not be skipped in CI');
}
export const dialects: Dialect[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** Advisory lock key of schema changes in the PostgreSQL test database ('wxc1'). */
const SCHEMA_CHANGE_LOCK = 0x77786331;

/**
 * Runs `change` while no other test file (they run two at a time, one database) changes a schema:
 * Kysely's migrator lists the tables of every schema (and their serial sequences, by name), and
 * failed with "relation … does not exist" when another file dropped its schema meanwhile.
 */
export async function withSchemaChangeLock<T>(change: () => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query('select pg_advisory_lock($1)', [SCHEMA_CHANGE_LOCK]);
    return await change();
  } finally {
    await c.end(); // ends the session, and so its advisory lock
  }
}

export interface SentSms {
  phone: string;
  scene: string;
  code: string;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** SMS codes "sent", newest last. */
  outbox: SentSms[];
  /** The answer of every captcha issued, by captchaId. */
  captchaAnswers: Map<string, string>;
  call<C extends CallDef>(def: C, input?: CallRequest<C>, opts?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallOptions {
  token?: string;
  ip?: string;
  /** Extra request headers (API credentials: x-app-key / x-app-secret, say). */
  headers?: Record<string, string>;
}
export interface CallResult {
  status: number;
  code: string;
  message: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever data a call returns
  data: any;
  headers: Record<string, unknown>;
}

/** The captcha code every test captcha accepts besides its own answer. */
export const FIXED_CAPTCHA = 'pass';

export interface TestAppOptions {
  /** Per-IP limit of captcha, SMS and login calls per minute (default: effectively unlimited). */
  sensitiveRateLimit?: number;
  /** Logger options for the app (default: no logging). */
  logger?: FastifyServerOptions['logger'];
  /** Use the SMS provider the config chooses (the dev outbox) instead of capturing into `outbox`. */
  configuredSmsProvider?: boolean;
  /** SQLite: use this file instead of ':memory:' (a second app can then reopen the same data). */
  sqliteFile?: string;
  /**
   * PostgreSQL: use this existing schema (migrated if needed) instead of a fresh one; it is not
   * dropped on close, so a second app can reopen the same data. The test drops it.
   */
  pgSchema?: string;
  /** PostgreSQL pool: connections and the wait for a free one (default: the service's). */
  pool?: { size: number; waitMs: number };
  /** More options for buildApp (callback worker, retry delays, ...). */
  app?: Partial<Omit<BuildOptions, 'config' | 'database'>>;
}

export async function createTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  let dropSchema: (() => Promise<void>) | undefined;
  let database: Database;
  const pool = options.pool ? { poolSize: options.pool.size, poolWaitMs: options.pool.waitMs } : {};
  if (dialect === 'postgres' && options.pgSchema) {
    database = await openDatabase({ databaseUrl: PG_URL, pgSchema: options.pgSchema, ...pool });
  } else if (dialect === 'postgres') {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await runPg(`create schema ${schema}`);
    database = await openDatabase({ databaseUrl: PG_URL, pgSchema: schema, ...pool });
    dropSchema = () => runPg(`drop schema ${schema} cascade`);
  } else {
    database = await openDatabase({ sqliteFile: options.sqliteFile ?? ':memory:' });
  }
  if (dialect === 'postgres') await withSchemaChangeLock(() => migrateToLatest(database.db));
  else await migrateToLatest(database.db);

  // The app's own data directory (uploads land there), removed by close(); one a test passes is its own.
  const ownDataDir = env.DATA_DIR === undefined ? tempDataDir() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: ownDataDir,
    CAPTCHA_FIXED_CODE: FIXED_CAPTCHA,
    WEB_DIST_DIR: path.join(os.tmpdir(), 'wxc-no-console'),
    RATE_LIMIT_PER_MINUTE: '100000',
    // Shedding only where a test asks for it (overload.test.ts): a busy CI machine is not overload.
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    // Callbacks posted inline: a thread per app (started through tsx) costs a test ~0.5 s; the
    // thread transport has its own tests (callback-thread.test.ts), and the browser tests run it.
    CALLBACK_THREAD: 'false',
    ...env,
  });
  const outbox: SentSms[] = [];
  const captchaAnswers = new Map<string, string>();
  let nextCaptcha = 0;
  const app = await buildApp({
    config,
    database,
    logger: options.logger ?? false,
    housekeeping: false,
    sensitiveRateLimit: options.sensitiveRateLimit ?? 100_000,
    ...(options.configuredSmsProvider
      ? {}
      : {
          smsProvider: {
            name: 'test-outbox',
            async sendCode(phone: string, scene: string, code: string) {
              outbox.push({ phone, scene, code });
            },
          },
        }),
    ...options.app,
    captchaGenerator: () => {
      nextCaptcha += 1;
      return { text: `c${nextCaptcha}x`, data: '<svg/>' };
    },
  });
  app.addHook('onSend', async (req, _reply, payload) => {
    if (req.url.startsWith('/api/normal/tools/getVerifyCode') && typeof payload === 'string') {
      const { data } = JSON.parse(payload);
      if (data?.captchaId) captchaAnswers.set(data.captchaId, `c${nextCaptcha}x`);
    }
    return payload;
  });
  await app.ready();

  return {
    app,
    database,
    outbox,
    captchaAnswers,
    async call(def, input, opts = {}) {
      const res = await app.inject({
        method: def.method,
        url: def.path,
        ...(def.method === 'GET'
          ? { query: (input ?? {}) as Record<string, string> }
          : { payload: (input ?? {}) as object }),
        headers: { ...(opts.token ? { authorization: opts.token } : {}), ...opts.headers },
        remoteAddress: opts.ip ?? '127.0.0.1',
      });
      const body = res.json();
      return {
        status: res.statusCode,
        code: body.code,
        message: body.message,
        data: body.data,
        headers: res.headers,
      };
    },
    async close() {
      await app.close();
      await database.close();
      await dropSchema?.();
      if (ownDataDir) await fs.promises.rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A database without an app, not migrated: SQLite in memory, or a PostgreSQL schema of its own
 * (`pgSchema`, dropped by `close`). For the tests of the database layer itself.
 */
export async function openBareDatabase(
  dialect: Dialect,
): Promise<{ database: Database; pgSchema: string | undefined; close: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = await openDatabase({ sqliteFile: ':memory:' });
    return { database, pgSchema: undefined, close: () => database.close() };
  }
  const { schema, drop } = await createPgSchema();
  const database = await openDatabase({ databaseUrl: PG_URL!, pgSchema: schema });
  return {
    database,
    pgSchema: schema,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/** Creates an empty PostgreSQL schema (for `pgSchema`); returns its name and a function dropping it. */
export async function createPgSchema(): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await runPg(`create schema ${schema}`);
  return { schema, drop: () => runPg(`drop schema ${schema} cascade`) };
}

/**
 * Creates an empty PostgreSQL database on the test server: for what a schema does not separate
 * (LISTEN/NOTIFY channels belong to a database). Returns its URL and a function dropping it.
 */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await pgStatement(`create database ${name}`);
  const url = Object.assign(new URL(PG_URL!), { pathname: `/${name}` }).toString();
  return { url, drop: () => pgStatement(`drop database if exists ${name}`) };
}

/** Creates or drops a test schema, under the schema change lock. */
function runPg(statement: string): Promise<void> {
  return withSchemaChangeLock(() => pgStatement(statement));
}

/** One statement on a connection of its own to the test database. */
async function pgStatement(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/** A SQLite file or a PostgreSQL schema that several apps (in a row or at once) can open. */
export async function sharedDatabase(dialect: Dialect) {
  if (dialect === 'postgres') {
    const { schema, drop } = await createPgSchema();
    return { options: { pgSchema: schema } as TestAppOptions, dispose: drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wxc-shared-'));
  return {
    options: { sqliteFile: path.join(dir, 'data.sqlite') } as TestAppOptions,
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Row counts of every table: "bad input writes nothing" compares two of these. Not `rate_windows`:
 * on PostgreSQL the rate limiter counts every request there, bad ones included (modules/rate-limits).
 */
/** The tables of a test database (its migrations ran before its first test), listed once. */
const tableLists = new WeakMap<Database, Promise<string[]>>();
function tablesOf(database: Database): Promise<string[]> {
  let tables = tableLists.get(database);
  if (!tables) {
    tables = (async () => {
      // PostgreSQL: this suite's schema only, from the catalogue (Kysely's introspection lists every
      // schema's tables, and fails when another file drops one meanwhile).
      const names =
        database.dialect === 'postgres'
          ? (
              await sql<{ name: string }>`select table_name as name from information_schema.tables
                where table_schema = current_schema()`.execute(database.db)
            ).rows.map((r) => r.name)
          : (await database.db.introspection.getTables()).map((t) => t.name);
      return names.filter((n) => !n.startsWith('kysely_') && n !== 'rate_windows').sort();
    })();
    tableLists.set(database, tables);
  }
  return tables;
}

/**
 * Rows per table, in one statement (the bad-input sweeps take this before and after each refused
 * request: a query per table, and the introspection each time, made them most of the API run).
 */
export async function tableCounts(database: Database): Promise<Record<keyof DB, number>> {
  const tables = await tablesOf(database);
  const counts = sql.join(
    tables.map((t) => sql`select ${sql.lit(t)} as t, count(*) as n from ${sql.table(t)}`),
    sql` union all `,
  );
  const { rows } = await sql<{ t: string; n: number | string }>`${counts}`.execute(database.db);
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)])) as Record<keyof DB, number>;
}

/**
 * tableCounts once the app has stopped writing: the same counts read twice, `quietMs` apart (at most
 * `timeoutMs`, then the last read). For a "stores nothing" check in an app that earlier tests used:
 * what they set going finishes after their answers (a send's "sent" callback and the contact's reply
 * land after the send is answered), and on a loaded machine it can land inside the check's window.
 */
export async function quietTableCounts(
  database: Database,
  { quietMs = 150, timeoutMs = 5_000 } = {},
): Promise<Record<keyof DB, number>> {
  const end = Date.now() + timeoutMs;
  let counts = await tableCounts(database);
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    const again = await tableCounts(database);
    if (Object.keys(changedTables(counts, again)).length === 0 || Date.now() > end) return again;
    counts = again;
  }
}

/** The tables whose counts differ, with both counts: `{}` when none (an assertion that names them). */
export function changedTables(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, [number | undefined, number | undefined]> {
  const changed: Record<string, [number | undefined, number | undefined]> = {};
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[table] !== after[table]) changed[table] = [before[table], after[table]];
  }
  return changed;
}

let phoneSeq = 0;
/** A mobile number no other test in this process uses. */
export function uniquePhone(): string {
  phoneSeq += 1;
  return `139${String(process.pid % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`;
}

export const PASSWORD = 'secret123abc';

/** Registers a company through the API and returns its token and user info. */
export async function registerCompany(
  t: TestApp,
  opts: { phone?: string; companyName?: string; password?: string; ip?: string } = {},
): Promise<{ token: string; user: UserInfo; phone: string; password: string }> {
  const phone = opts.phone ?? uniquePhone();
  const password = opts.password ?? PASSWORD;
  // Each company registers from its own address: the SMS per-IP hourly cap is a rule under test elsewhere.
  const ip = opts.ip ?? `10.1.${Math.floor(phoneSeq / 250) % 250}.${(phoneSeq % 250) + 1}`;
  const sent = await t.call(
    authCalls.sendRegisterSms,
    { phone, captchaId: 'x', captchaCode: FIXED_CAPTCHA },
    { ip },
  );
  if (sent.code !== '200') throw new Error(`sendRegisterSms failed: ${sent.message}`);
  const code = lastCode(t, phone);
  const res = await t.call(
    authCalls.register,
    {
      companyName: opts.companyName ?? '测试科技有限公司',
      companyAccount: phone,
      password,
      checkPassword: password,
      verifyCode: code,
      readMsg: true,
    },
    { ip },
  );
  if (res.code !== '200') throw new Error(`register failed: ${res.message}`);
  return { token: res.data.token, user: res.data.userInfo, phone, password };
}

export function lastCode(t: TestApp, phone: string): string {
  const sms = [...t.outbox].reverse().find((m) => m.phone === phone);
  if (!sms) throw new Error(`no SMS sent to ${phone}`);
  return sms.code;
}

/** A fresh captcha and its answer. */
export async function solvedCaptcha(
  t: TestApp,
  ip?: string,
): Promise<{ captchaId: string; captchaCode: string }> {
  const res = await t.call(authCalls.getVerifyCode, {}, ip ? { ip } : {});
  const captchaId = res.data.captchaId as string;
  return { captchaId, captchaCode: t.captchaAnswers.get(captchaId)! };
}

/** A test-only data directory (nothing is written there unless a test asks). */
export function tempDataDir(): string {
  return path.join(os.tmpdir(), `wxc-test-${randomBytes(4).toString('hex')}`);
}

/**
 * Creates the operator account the way a first start does (`seed()`), then logs it in.
 * Only the first call per app creates the account.
 */
export async function createAdmin(
  t: TestApp,
  opts: { account?: string; password?: string } = {},
): Promise<{ token: string; user: UserInfo; account: string; password: string }> {
  const account = opts.account ?? 'ops-admin';
  const password = opts.password ?? 'Operator-pass-2024';
  const dataDir = tempDataDir();
  try {
    await seed(
      t.database.db,
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        ADMIN_ACCOUNT: account,
        ADMIN_PASSWORD: password,
        SEED_DEMO: 'false',
      }),
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const res = await t.call(
    authCalls.login,
    { companyAccount: account, password, captchaId: 'x', captchaCode: FIXED_CAPTCHA },
    { ip: '10.250.0.1' },
  );
  if (res.code !== '200') throw new Error(`admin login failed: ${res.message}`);
  return { token: res.data.token, user: res.data.userInfo, account, password };
}

/** Sends an SMS code (fixed captcha) and returns it; throws when the send is refused. */
export async function sendCode(
  t: TestApp,
  phone: string,
  scene: 'register' | 'resetPassword' | 'changePhone',
  opts: CallOptions = {},
): Promise<string> {
  const res = await t.call(
    authCalls.sendSms,
    { phone, scene, captchaId: 'x', captchaCode: FIXED_CAPTCHA },
    { ip: '10.2.0.1', ...opts },
  );
  if (res.code !== '200') throw new Error(`sendSms(${scene}) failed: ${res.code} ${res.message}`);
  return lastCode(t, phone);
}

/** Moves every SMS code sent to `phone` back in time by `ms` (past the resend wait, say). */
export async function ageSms(t: TestApp, phone: string, ms: number): Promise<void> {
  await t.database.db
    .updateTable('sms_codes')
    .set((eb) => ({ created_at: eb('created_at', '-', ms) }))
    .where('phone', '=', phone)
    .execute();
}

/** A 6-digit code that is surely not `code`. */
export function wrongCode(code: string): string {
  return code.replace(/\d/g, (d) => String((Number(d) + 1) % 10));
}

/** A token of a fresh login (another "device") for an existing account. */
export async function loginToken(t: TestApp, account: string, password: string, ip = '10.3.0.1') {
  const res = await t.call(
    authCalls.login,
    { companyAccount: account, password, captchaId: 'x', captchaCode: FIXED_CAPTCHA },
    { ip },
  );
  return res;
}

/** A loopback port nothing listens on (for now): for a server a test starts itself. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
