import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import type { DB } from './db/schema.js';
import type { Changes } from './lib/copies.js';
import type { LoopLag } from './lib/loop-lag.js';
import { createDirectoryCache } from './modules/api-accounts/cache.js';
import { createApiAccountService } from './modules/api-accounts/service.js';
import { createApiAuth } from './modules/api-auth/service.js';
import { createAuditService } from './modules/audit/service.js';
import { createAuthCache } from './modules/auth/cache.js';
import { createAuthService } from './modules/auth/service.js';
import { createSessionService } from './modules/auth/sessions.js';
import { createUserDirectory } from './modules/auth/users.js';
import { createCallbackService } from './modules/callbacks/service.js';
import { type CaptchaGenerator, createCaptchaService } from './modules/captcha/service.js';
import { createCatalogueService } from './modules/catalogue/service.js';
import { createClientErrorService } from './modules/client-errors/service.js';
import { createCompanyService } from './modules/company/service.js';
import { createLocalBus, type EventBus, type StateChange } from './modules/events/bus.js';
import { createFileService } from './modules/files/service.js';
import type { MessagingProvider } from './modules/messaging/provider.js';
import { createGateway } from './modules/messaging/service.js';
import { createOnboardingService } from './modules/onboarding/service.js';
import { createOperatorService } from './modules/operator/service.js';
import { createOrderService } from './modules/orders/service.js';
import { createPackageService } from './modules/packages/service.js';
import { createRateLimits } from './modules/rate-limits/service.js';
import { createRealNameService } from './modules/realname/service.js';
import { createRecordService } from './modules/records/service.js';
import { createSettingsService } from './modules/settings/service.js';
import { createShowcaseService } from './modules/showcase/service.js';
import { createSimulator } from './modules/sim/provider.js';
import { devOutboxProvider, type SmsProvider } from './modules/sms/provider.js';
import { createSmsService } from './modules/sms/service.js';
import { createStatisticsService } from './modules/statistics/service.js';
import { localStorage } from './modules/storage/local.js';
import { createSupportContact } from './modules/system/support.js';
import { createVisitorService } from './modules/visitors/service.js';

export interface ServiceOptions {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  smsProvider?: SmsProvider | undefined;
  captchaGenerator?: CaptchaGenerator | undefined;
  bus?: EventBus | undefined;
  callbackRetryDelaysMs?: number[] | undefined;
  callbackTimeoutMs?: number | undefined;
  /** A send claim's lease (tests shorten it; default: messaging/send-queue.ts). */
  sendLeaseMs?: number | undefined;
  /** This process's event loop lag (app.ts): callbacks are delivered faster while the loop idles. */
  loopLag?: LoopLag | undefined;
  /** Prefix of the rate limits' Redis keys (tests give each run its own). */
  rateLimitKeyPrefix?: string | undefined;
  /** The messaging network (app.ts loads the configured one); unset: the built-in simulator. */
  messagingProvider?: MessagingProviderFactory | undefined;
}

/** Makes a messaging provider from the services it may use. */
export type MessagingProviderFactory = (deps: {
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  files: ReturnType<typeof createFileService>;
}) => MessagingProvider;

/**
 * Every module's service, each given only what it needs of the others (narrow `Pick<…>` or
 * function dependencies; docs/ARCHITECTURE.md "Modules" lists who may use whom). A dependency on a
 * module built further down is a closure, called only once everything is built.
 */
export function createServices(opts: ServiceOptions) {
  const { config, database, log } = opts;
  const db = database.db;
  const storage = localStorage(config.dataDir);

  // ---- accounts and the installation
  const settings = createSettingsService(db);
  const audit = createAuditService(db);
  // Per-IP rate limits: Redis with REDIS_URL, else the database on PostgreSQL, else this process.
  const rateLimits = createRateLimits({
    database,
    redisUrl: config.redisUrl,
    log,
    redisKeyPrefix: opts.rateLimitKeyPrefix,
  });
  const bus = opts.bus ?? createLocalBus();
  // Copies of sessions and users for authenticated requests; changes travel on the bus, so every
  // process drops its copies before a revoking or updating call answers (auth/cache.ts).
  // Every cache of copies hears the same announcements (lib/copies.ts: Changes).
  const stateChanges: Changes<StateChange> = {
    announce: (change) => bus.announceChange(change),
    listen: (listener) => bus.onChange(listener),
    live: () => bus.changesLive(),
  };
  const authCache = createAuthCache(stateChanges);
  const sessions = createSessionService(db, config.session, authCache);
  const users = createUserDirectory(db, authCache);
  const captcha = createCaptchaService(db, config.captchaFixedCode, opts.captchaGenerator);
  const sms = createSmsService(db, opts.smsProvider ?? devOutboxProvider(log));
  const auth = createAuthService({
    db,
    serverFlag: config.serverFlag,
    captcha,
    sms,
    sessions,
    settings,
    audit,
    cache: authCache,
  });
  const files = createFileService({ db, storage, settings, publicUrl: config.publicUrl });
  const support = createSupportContact(settings, files, config);

  // ---- commerce: operator rules, packages, orders, sub-accounts
  const company = createCompanyService({ db, settings });
  const packages = createPackageService({
    db,
    publicUrl: config.publicUrl,
    allocatedSlots: (companyId) => apiAccounts.allocatedSlots(companyId),
    apiSummary: (companyId) => apiAccounts.summary(companyId),
  });
  const orders = createOrderService({ db, audit, packages, gate: company });
  const apiAccounts = createApiAccountService({
    db,
    packages,
    audit,
    gate: company,
    usage: (companyId) => gateway.onlineBySubAccount(companyId),
    allowPrivateCallbacks: config.callbackAllowPrivate,
    // Copies of sub-accounts and API settings for credential checks, sends and callbacks, dropped
    // on every process before a changing call answers (api-accounts/cache.ts).
    cache: createDirectoryCache(stateChanges),
  });
  const apiAuth = createApiAuth({ db, accounts: apiAccounts }, { secretNeedsHttps: config.isProduction });

  // ---- the messaging gateway, its provider (the simulator unless another is chosen), callbacks and
  // the records it writes
  const callbacks = createCallbackService({
    db,
    writes: database.writes,
    log,
    bus,
    subAccounts: apiAccounts,
    allowPrivate: config.callbackAllowPrivate,
    thread: config.callbackThread,
    retryDelaysMs: opts.callbackRetryDelaysMs ?? config.callbackRetryDelaysMs,
    timeoutMs: opts.callbackTimeoutMs,
    loopLag: opts.loopLag,
  });
  const simulator = opts.messagingProvider
    ? null
    : createSimulator({
        db,
        log,
        files,
        onlineAccounts: (limit) => gateway.someOnlineAccounts(limit),
        publicUrl: config.publicUrl,
        replyDelayMs: config.messaging.simReplyDelayMs,
        chatterIntervalMs: config.messaging.simChatterMs,
        // Copies of the contacts sends look up, dropped on every process when one changes.
        contactChanges: stateChanges,
      });
  const gateway = createGateway({
    db,
    writes: database.writes,
    log,
    bus,
    callbacks,
    provider: simulator?.provider ?? opts.messagingProvider!({ db, log, files }),
    files,
    subAccounts: apiAccounts,
    packages,
    qrTtlMs: config.messaging.qrTtlMs,
    sendIntervalMs: config.messaging.sendIntervalMs,
    sendTimeoutMs: config.messaging.sendTimeoutMs,
    sendLeaseMs: opts.sendLeaseMs,
    loopLag: opts.loopLag,
    serviceGate: company,
  });
  const records = createRecordService({ db, accounts: gateway });
  const statistics = createStatisticsService({ db, records });
  const catalogue = createCatalogueService();

  // ---- real-name verification, the operator area, visitors, the first-day checklist
  const realName = createRealNameService({ db, files, users, settings, audit, bus });
  const operator = createOperatorService({ db, packages, apiAccounts, companyOps: company, audit });
  const visitors = createVisitorService(db, settings);
  // The template showcase's backend (/vue-element-admin/*): its own tables; its uploads are files.
  const showcase = createShowcaseService(db, files);
  // The console's error log: its own table, read with the reporting company's name.
  const clientErrors = createClientErrorService(db);
  const onboarding = createOnboardingService({
    subscriptions: (companyId) => packages.mySubscriptions(companyId),
    apiAccounts: (companyId) => apiAccounts.list(companyId, false),
    companyConfig: (companyId) => apiAccounts.getCompanyConfig(companyId),
    gateway: (companyId) => gateway.progressOf(companyId),
    realName: (companyId) => realName.info(companyId),
  });

  return {
    db,
    bus,
    sessions,
    users,
    captcha,
    auth,
    apiAuth,
    settings,
    audit,
    rateLimits,
    files,
    support,
    company,
    packages,
    orders,
    apiAccounts,
    callbacks,
    records,
    statistics,
    catalogue,
    gateway,
    simulator,
    realName,
    operator,
    visitors,
    showcase,
    clientErrors,
    onboarding,
  };
}

/** The app's services, for main.ts (workers), demo.ts and API tests that drive them at the edges. */
export type Services = ReturnType<typeof createServices>;
