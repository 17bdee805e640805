import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PRODUCT_TITLE_DEFAULT, QR_TTL_SECONDS_DEFAULT } from '@wxc/contract';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1')
  .optional();
const positiveInt = (def: number) => z.coerce.number().int().positive().default(def);

/**
 * Every setting of the service, read from the environment once and validated here. Nothing else
 * reads `process.env`. Documented in README.md (keep both in step).
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\//,
      'DATABASE_URL must be a postgres:// URL (leave it unset for embedded SQLite)',
    )
    .optional(),
  REDIS_URL: z
    .string()
    .regex(
      /^rediss?:\/\//,
      'REDIS_URL must be a redis:// or rediss:// URL (leave it unset to count rate limits in the database)',
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PRODUCT_TITLE: z.string().min(1).default(PRODUCT_TITLE_DEFAULT),
  SERVER_FLAG: z.string().min(1).optional(),
  PUBLIC_URL: z.string().url().optional(),
  SUPPORT_QR_URL: z.string().optional(),
  SUPPORT_TEXT: z.string().default('工作日 9:00-18:00，扫码添加客服'),
  ADMIN_ACCOUNT: z.string().min(1).max(64).default('admin'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SEED_DEMO: bool,
  CAPTCHA_FIXED_CODE: z.string().min(1).max(8).optional(),
  SMS_PROVIDER: z.enum(['dev-outbox']).default('dev-outbox'),
  SMS_DEV_OUTBOX_IN_PRODUCTION: bool,
  PAYMENT_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  PAYMENT_SANDBOX_IN_PRODUCTION: bool,
  CALLBACK_ALLOW_PRIVATE: bool,
  CALLBACK_THREAD: bool,
  CALLBACK_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'CALLBACK_RETRY_DELAYS_MS must be milliseconds separated by commas')
    .optional(),
  MESSAGING_PROVIDER: z.enum(['simulator', 'wechaty']).default('simulator'),
  WECHATY_PUPPET: z
    .string()
    .regex(
      /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/,
      'WECHATY_PUPPET must be an npm module name',
    )
    .default('wechaty-puppet-service'),
  WECHATY_PUPPET_ENDPOINT: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'WECHATY_PUPPET_ENDPOINT must be host:port')
    .optional(),
  WECHATY_PUPPET_TOKEN: z
    .string()
    .regex(/^[^\s,]+(,[^\s,]+)*$/, 'WECHATY_PUPPET_TOKEN must be tokens separated by commas')
    .optional(),
  WECHATY_PUPPET_TLS: bool,
  WECHATY_PUPPET_TLS_CA_FILE: z.string().min(1).optional(),
  WECHATY_PUPPET_TLS_SERVER_NAME: z.string().min(1).max(253).optional(),
  WECHATY_ROUTE_HOST: z
    .string()
    .regex(/^([0-9a-fA-F:.]+|[A-Za-z0-9.-]+)$/, 'WECHATY_ROUTE_HOST must be a host name or an IP address')
    .default('127.0.0.1'),
  WECHATY_ROUTE_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  WECHATY_LEASE_SECONDS: z.coerce.number().int().min(3).max(300).default(15),
  QR_TTL_SECONDS: positiveInt(QR_TTL_SECONDS_DEFAULT),
  SEND_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  SEND_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(60_000),
  SIM_REPLY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1200),
  SIM_CHATTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(90),
  SESSION_IDLE_MINUTES: positiveInt(120),
  SESSION_MAX_HOURS: positiveInt(24 * 7),
  RATE_LIMIT_PER_MINUTE: positiveInt(600),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  DATABASE_PREPARED_STATEMENTS: bool,
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  OVERLOAD_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  REQUEST_SLICE_MS: z.coerce.number().int().min(0).max(1_000).default(0),
  TRUST_PROXY: bool,
  CORS_ORIGINS: z.string().default(''),
  SHOWCASE: bool,
  WEB_DIST_DIR: z.string().optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded SQLite in `dataDir`. */
  databaseUrl: string | undefined;
  /** Per-IP rate limit counters in Redis; unset: in PostgreSQL (`rate_windows`), or in memory on SQLite. */
  redisUrl: string | undefined;
  logLevel: string;
  productTitle: string;
  serverFlag: string;
  /** The service address shown to customers (showByRecord `api`, curl examples). */
  publicUrl: string;
  supportQrUrl: string | null;
  supportText: string;
  admin: { account: string; password: string | undefined };
  /** Demo company and its data: embedded SQLite outside production only. */
  seedDemo: boolean;
  captchaFixedCode: string | undefined;
  sms: { provider: 'dev-outbox' };
  /** `sandbox`: the console's 沙箱支付 step confirms payments; operators confirm bank transfers. */
  payment: { provider: 'sandbox' };
  /** Lets callback URLs reach private, loopback and link-local addresses (on-premise setups). */
  callbackAllowPrivate: boolean;
  /** Callbacks are posted from a worker thread of their own (default); false: on the main thread. */
  callbackThread: boolean;
  /** Waits between callback attempts (tests only); unset: 5 s … 40 min, 8 attempts (callbacks/service.ts). */
  callbackRetryDelaysMs?: number[] | undefined;
  messaging: {
    /** `simulator`: the built-in virtual network; `wechaty`: a real one through a wechaty puppet. */
    provider: 'simulator' | 'wechaty';
    qrTtlMs: number;
    /** Pacing of each account's send queue (about 40 a minute by default). */
    sendIntervalMs: number;
    /**
     * A provider's send is failed after this long (发送超时); a paced account's send slot is held
     * this long plus 5 s, so an account whose sender died mid-send waits that long at most.
     */
    sendTimeoutMs: number;
    simReplyDelayMs: number;
    simChatterMs: number;
  };
  /** MESSAGING_PROVIDER=wechaty: which puppet and how it reaches the network (modules/wechaty). */
  wechaty: {
    module: string;
    endpoint: string | undefined;
    /** Secrets: never logged. One per logged-in account. */
    tokens: string[];
    tls: { enabled: boolean; caCert: string | undefined; serverName: string | undefined };
    /**
     * Several processes: where this one's route server listens for calls the others route to the
     * puppets it runs (port 0: a free one), and how long a device's lease lasts unrenewed (a dead
     * process's accounts are taken over after this).
     */
    routing: { host: string; port: number };
    leaseMs: number;
  };
  session: { idleMs: number; maxMs: number };
  rateLimitPerMinute: number;
  /** PostgreSQL connections per process; a request waits at most `POOL_WAIT_MS` for one (db/index.ts). */
  databasePoolSize: number;
  /** PostgreSQL: statements prepared once per connection (off behind a pooler in transaction mode). */
  databasePreparedStatements: boolean;
  /** Server processes on the port (node:cluster); more than one only with PostgreSQL. */
  workers: number;
  /**
   * Load shedding (lib/overload.ts): while the event loop's mean delay is above this, new requests
   * are answered 503 at once. 0 turns it off.
   */
  overloadEventLoopDelayMs: number;
  /**
   * While a poll phase has started new requests for this long, the rest wait in line and are served
   * about this long at a time between polls (lib/request-slices.ts). 0 (the default) turns it off:
   * it trades throughput and the reads' tail for the sends' (bench/README.md, session 39).
   */
  requestSliceMs: number;
  trustProxy: boolean;
  /**
   * The template showcase (spec "Template demo routes" and "Mock endpoints", DESIGN.md §10): its
   * routes in the menu and `/vue-element-admin/*`. On outside production, off in production unless set.
   */
  showcase: boolean;
  corsOrigins: string[];
  webDistDir: string;
}

export class ConfigError extends Error {}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "unset" (PORT= must not become port 0).
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';

  if (isProduction && e.CAPTCHA_FIXED_CODE) {
    throw new ConfigError('CAPTCHA_FIXED_CODE is for automated tests only and is refused in production');
  }
  if (isProduction && e.SMS_PROVIDER === 'dev-outbox' && !e.SMS_DEV_OUTBOX_IN_PRODUCTION) {
    throw new ConfigError(
      'SMS_PROVIDER=dev-outbox writes codes to the log; in production configure a real SMS provider or set SMS_DEV_OUTBOX_IN_PRODUCTION=true explicitly',
    );
  }
  if (isProduction && e.PAYMENT_PROVIDER === 'sandbox' && !e.PAYMENT_SANDBOX_IN_PRODUCTION) {
    throw new ConfigError(
      'PAYMENT_PROVIDER=sandbox lets customers confirm their own payments; in production configure a real payment provider or set PAYMENT_SANDBOX_IN_PRODUCTION=true explicitly',
    );
  }
  if (isProduction && e.CALLBACK_RETRY_DELAYS_MS) {
    throw new ConfigError(
      'CALLBACK_RETRY_DELAYS_MS is for automated tests only and is refused in production',
    );
  }
  if (e.WORKERS > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      'WORKERS > 1 needs DATABASE_URL (PostgreSQL): processes on one SQLite file cannot tell each other what changed (sessions, send queues, live events); run one process, or use PostgreSQL',
    );
  }
  if (e.MESSAGING_PROVIDER === 'wechaty' && e.WECHATY_PUPPET === 'wechaty-puppet-service') {
    // Without an endpoint the service would look the token up through the wechaty token discovery,
    // which the installed gRPC library no longer supports: the address is always given.
    if (!e.WECHATY_PUPPET_ENDPOINT || !e.WECHATY_PUPPET_TOKEN) {
      throw new ConfigError(
        'MESSAGING_PROVIDER=wechaty with wechaty-puppet-service needs WECHATY_PUPPET_ENDPOINT (host:port of the puppet service) and WECHATY_PUPPET_TOKEN (its token; several separated by commas, one per account online at a time)',
      );
    }
  }
  if (e.MESSAGING_PROVIDER === 'wechaty' && e.WORKERS > 1 && e.WECHATY_ROUTE_PORT !== 0) {
    throw new ConfigError(
      'WECHATY_ROUTE_PORT with WORKERS > 1: each worker needs a route port of its own; leave WECHATY_ROUTE_PORT unset (0: a free port each)',
    );
  }
  let caCert: string | undefined;
  if (e.WECHATY_PUPPET_TLS_CA_FILE) {
    try {
      caCert = readFileSync(e.WECHATY_PUPPET_TLS_CA_FILE, 'utf8');
    } catch {
      throw new ConfigError(`WECHATY_PUPPET_TLS_CA_FILE: cannot read ${e.WECHATY_PUPPET_TLS_CA_FILE}`);
    }
  }
  if (e.SEED_DEMO && (isProduction || e.DATABASE_URL)) {
    throw new ConfigError('SEED_DEMO is only for the embedded SQLite database outside production');
  }

  const publicHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    productTitle: e.PRODUCT_TITLE,
    serverFlag: e.SERVER_FLAG ?? (isProduction ? 'formal' : 'test'),
    publicUrl: (e.PUBLIC_URL ?? `http://${publicHost}:${e.PORT}`).replace(/\/$/, ''),
    supportQrUrl: e.SUPPORT_QR_URL || null,
    supportText: e.SUPPORT_TEXT,
    admin: { account: e.ADMIN_ACCOUNT, password: e.ADMIN_PASSWORD },
    seedDemo: e.SEED_DEMO ?? (!isProduction && !e.DATABASE_URL),
    captchaFixedCode: e.CAPTCHA_FIXED_CODE,
    sms: { provider: e.SMS_PROVIDER },
    payment: { provider: e.PAYMENT_PROVIDER },
    callbackAllowPrivate: e.CALLBACK_ALLOW_PRIVATE ?? false,
    callbackThread: e.CALLBACK_THREAD ?? true,
    callbackRetryDelaysMs: e.CALLBACK_RETRY_DELAYS_MS?.split(',').map(Number),
    messaging: {
      provider: e.MESSAGING_PROVIDER,
      qrTtlMs: e.QR_TTL_SECONDS * 1000,
      sendIntervalMs: e.SEND_INTERVAL_MS,
      sendTimeoutMs: e.SEND_TIMEOUT_MS,
      simReplyDelayMs: e.SIM_REPLY_DELAY_MS,
      simChatterMs: e.SIM_CHATTER_SECONDS * 1000,
    },
    wechaty: {
      module: e.WECHATY_PUPPET,
      endpoint: e.WECHATY_PUPPET_ENDPOINT,
      tokens: e.WECHATY_PUPPET_TOKEN?.split(',') ?? [],
      tls: {
        enabled: e.WECHATY_PUPPET_TLS ?? true,
        caCert,
        serverName: e.WECHATY_PUPPET_TLS_SERVER_NAME,
      },
      routing: { host: e.WECHATY_ROUTE_HOST, port: e.WECHATY_ROUTE_PORT },
      leaseMs: e.WECHATY_LEASE_SECONDS * 1000,
    },
    session: { idleMs: e.SESSION_IDLE_MINUTES * 60_000, maxMs: e.SESSION_MAX_HOURS * 3_600_000 },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS ?? true,
    workers: e.WORKERS,
    overloadEventLoopDelayMs: e.OVERLOAD_EVENT_LOOP_DELAY_MS,
    requestSliceMs: e.REQUEST_SLICE_MS,
    trustProxy: e.TRUST_PROXY ?? false,
    showcase: e.SHOWCASE ?? !isProduction,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? defaultWebDist()),
  };
}

/** The console's build output: beside the server bundle in a checkout. */
function defaultWebDist(): string {
  return path.resolve(import.meta.dirname, '../../web/dist');
}
