import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import { MEDIA_MAX_BYTES } from '@wxc/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { registerApiDocs } from './docs.js';
import { startHousekeeping } from './housekeeping.js';
import { clientErrorHandler, frameworkErrors, installErrorHandler, NO_STORE } from './lib/error-handler.js';
import { createRouter } from './lib/http.js';
import { nulError, pathOfNul, RequestValidationError } from './lib/validation.js';
import { registerApiAccountRoutes } from './modules/api-accounts/routes.js';
import { createApiAccountService } from './modules/api-accounts/service.js';
import { createApiAuth, installBodyDigest } from './modules/api-auth/service.js';
import { createAuditService } from './modules/audit/service.js';
import { findUserById } from './modules/auth/repo.js';
import { registerAuthRoutes } from './modules/auth/routes.js';
import { createAuthService } from './modules/auth/service.js';
import { createSessionService, tokenFromHeader } from './modules/auth/sessions.js';
import { registerCallbackRoutes } from './modules/callbacks/routes.js';
import { type CallbackService, createCallbackService } from './modules/callbacks/service.js';
import { type CaptchaGenerator, createCaptchaService } from './modules/captcha/service.js';
import { registerCatalogueRoutes } from './modules/catalogue/routes.js';
import { createCatalogueService } from './modules/catalogue/service.js';
import { createLocalBus, type EventBus } from './modules/events/bus.js';
import { registerEventRoutes } from './modules/events/routes.js';
import { registerMediaRoutes } from './modules/media/routes.js';
import { createMediaService } from './modules/media/service.js';
import * as messagingRepo from './modules/messaging/repo.js';
import { registerMessagingRoutes } from './modules/messaging/routes.js';
import { createGateway } from './modules/messaging/service.js';
import { registerOnboardingRoutes } from './modules/onboarding/routes.js';
import { createOnboardingService } from './modules/onboarding/service.js';
import { registerOperatorRoutes } from './modules/operator/routes.js';
import { createOperatorService } from './modules/operator/service.js';
import { createOrderService } from './modules/orders/service.js';
import { registerPackageRoutes } from './modules/packages/routes.js';
import { createPackageService } from './modules/packages/service.js';
import { createCompanyGate } from './modules/realname/gate.js';
import { registerRealNameRoutes } from './modules/realname/routes.js';
import { createRealNameService } from './modules/realname/service.js';
import { registerRecordRoutes } from './modules/records/routes.js';
import { createRecordService } from './modules/records/service.js';
import { createSettingsService } from './modules/settings/service.js';
import { createSimulator } from './modules/sim/provider.js';
import { registerSimulatorRoutes } from './modules/sim/routes.js';
import { devOutboxProvider, type SmsProvider } from './modules/sms/provider.js';
import { createSmsService } from './modules/sms/service.js';
import { registerStatisticsRoutes } from './modules/statistics/routes.js';
import { createStatisticsService } from './modules/statistics/service.js';
import { localStorage } from './modules/storage/local.js';
import { registerSystemRoutes } from './modules/system/routes.js';
import { createSupportContact } from './modules/system/support.js';
import { registerVisitorRoutes } from './modules/visitors/routes.js';
import { createVisitorService } from './modules/visitors/service.js';
import { COMPRESS_THRESHOLD_BYTES, isApiPath, isApiRequest, registerConsole } from './web.js';

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Replaces the SMS provider chosen by config (tests capture codes this way). */
  smsProvider?: SmsProvider;
  /** Replaces the captcha picture maker (tests need to know the answer). */
  captchaGenerator?: CaptchaGenerator;
  /** Live event bus; default in-process (main.ts passes the PostgreSQL one with DATABASE_URL). */
  bus?: EventBus;
  /** Per-IP limit of captcha, SMS and login calls per minute. */
  sensitiveRateLimit?: number;
  housekeeping?: boolean;
  /** Runs the gateway's sweeper (QR expiry, account expiry, stray send queues); default true. */
  gatewayWorker?: boolean;
  /** Runs the callback delivery worker (default true; tests may drive deliveries themselves). */
  callbackWorker?: boolean;
  /** Waits between callback attempts (default: 5 s … 40 min, 8 attempts); tests use short ones. */
  callbackRetryDelaysMs?: number[];
  /** Per-attempt callback timeout (default 5 s). */
  callbackTimeoutMs?: number;
}

/** Builds the whole service from its config and database. main.ts and the tests both use it. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Failures before routing (a bad percent-encoding, a request the HTTP parser refuses) answer
    // the envelope too, not Fastify's own JSON.
    frameworkErrors,
    clientErrorHandler,
    // Schemas are zod: parse with zod (the error names the field), serialize through the response
    // schema so nothing undeclared leaves the service.
  });
  app.setValidatorCompiler(({ schema }) => (data: unknown) => {
    // reportInput: issues keep the offending value, so "missing" and "wrong type" read differently.
    const result = (schema as ZodType).safeParse(data ?? undefined, { reportInput: true });
    if (!result.success) return { error: new RequestValidationError(result.error.issues) };
    // Fields with their own text rule have said it better already; this catches every other string.
    const nul = pathOfNul(result.data);
    return nul ? { error: nulError(nul) } : { value: result.data };
  });
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // API answers carry tokens and personal data: never stored (errors and misses included).
    if (isApiRequest(req)) reply.header('cache-control', NO_STORE);
  });
  installErrorHandler(app);
  // JSON only (text/plain is refused with 415); an empty JSON body means "no input". Signed API
  // requests are verified over the raw bytes before this parser runs (api-auth/body-digest.ts).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        Object.assign(new Error('invalid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }),
        undefined,
      );
    }
  });

  if (config.captchaFixedCode) {
    app.log.warn(
      'CAPTCHA_FIXED_CODE is set: every captcha accepts that code. For automated tests and demos only.',
    );
  }

  const directives = {
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    styleSrc: ["'self'", "'unsafe-inline'"], // antd writes its styles at run time
    scriptSrc: ["'self'"],
    connectSrc: ["'self'"],
    frameAncestors: ["'none'"],
  };
  // upgrade-insecure-requests and HSTS only over https: served over plain http (a LAN address,
  // say) they would send the browser to an https origin that does not exist, a blank console.
  await app.register(helmet, {
    contentSecurityPolicy: { directives: { ...directives, upgradeInsecureRequests: null } },
    hsts: false,
    crossOriginEmbedderPolicy: false,
  });
  const alwaysHttps = new URL(config.publicUrl).protocol === 'https:';
  app.addHook('onRequest', async (req, reply) => {
    // req.protocol honours X-Forwarded-Proto only with TRUST_PROXY.
    if (alwaysHttps || req.protocol === 'https') {
      reply.helmet({
        contentSecurityPolicy: { directives },
        hsts: { maxAge: 31_536_000, includeSubDomains: true },
      });
    }
  });
  // Large API answers (the OpenAPI document, long lists) compressed on the fly; small ones are not
  // worth the CPU. The console's files come precompressed from the build (web.ts).
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    store: RouteAddressStore,
    // API calls are what can be abused; the console's static files (dozens per page) are not limited.
    // Decided by the route the request matched, never by its raw URL: `/%61pi/...` is `/api/...`.
    allowList: (req) => !isApiPath(req.routeOptions.url ?? ''),
  });
  if (config.corsOrigins.length > 0) {
    // Same-origin only unless the operator lists other origins; imported lazily as few need it.
    const cors = (await import('@fastify/cors')).default;
    await app.register(cors, { origin: config.corsOrigins });
  }
  await registerApiDocs(app, config);

  const db = database.db;
  const sessions = createSessionService(db, config.session);
  const captcha = createCaptchaService(db, config.captchaFixedCode, opts.captchaGenerator);
  const sms = createSmsService(db, opts.smsProvider ?? devOutboxProvider(app.log));
  const settings = createSettingsService(db);
  const audit = createAuditService(db);
  const auth = createAuthService({
    db,
    serverFlag: config.serverFlag,
    captcha,
    sms,
    sessions,
    settings,
    audit,
  });

  const apiAuth = createApiAuth(db, { secretNeedsHttps: config.isProduction });
  installBodyDigest(app, apiAuth.precheckSigned); // signed API requests: SHA-256 of the exact body bytes
  const route = createRouter(app, {
    session: (req) => sessions.authenticate(tokenFromHeader(req.headers.authorization)),
    credentials: (req) => apiAuth.fromCredentials(req),
    company: async (id) => {
      const user = await findUserById(db, id);
      return user?.role === 'customer' ? { id: user.id, account: user.account } : null;
    },
    audit: ({ operatorId, companyId, call, ip }) =>
      audit.record({ userId: operatorId, action: 'support.view', ip, detail: { companyId, call } }),
  });
  const support = createSupportContact(settings, localStorage(config.dataDir), config);
  registerSystemRoutes(app, route, config, database, support);
  registerAuthRoutes(route, auth, captcha, { sensitivePerMinute: opts.sensitiveRateLimit ?? 30 });

  const packages = createPackageService(db, config.publicUrl);
  // Operator rules on what a company may do: the real-name switch and the service expiry.
  const gate = createCompanyGate(db, settings);
  const orders = createOrderService(db, audit, gate);
  const apiAccounts = createApiAccountService({
    gate,
    db,
    packages,
    audit,
    usage: (companyId) => messagingRepo.onlineBySubAccount(db, companyId),
    allowPrivateCallbacks: config.callbackAllowPrivate,
  });
  registerPackageRoutes(route, packages, orders, apiAccounts);
  registerApiAccountRoutes(route, apiAccounts);

  // ---- messaging gateway: live events, callbacks, records, statistics, catalogue, provider
  const bus = opts.bus ?? createLocalBus();
  app.addHook('onClose', () => bus.close());
  const callbacks = createCallbackService({
    db,
    log: app.log,
    bus,
    allowPrivate: config.callbackAllowPrivate,
    retryDelaysMs: opts.callbackRetryDelaysMs,
    timeoutMs: opts.callbackTimeoutMs,
  });
  registerCallbackRoutes(route, callbacks);
  if (opts.callbackWorker ?? true) app.addHook('onReady', async () => callbacks.start());
  app.addHook('onClose', () => callbacks.stop()); // before the bus closes (hooks run in reverse)

  // records, statistics and the online tester's catalogue: read-only views of the gateway's tables
  const records = createRecordService(db);
  const statistics = createStatisticsService(db);
  const catalogue = createCatalogueService();
  registerRecordRoutes(route, records);
  registerStatisticsRoutes(route, statistics);
  registerCatalogueRoutes(route, catalogue);

  // the gateway and its provider (the simulator), media files and their signed links
  await app.register(multipart, { limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 5 } });
  const media = createMediaService(db, localStorage(config.dataDir), config.publicUrl);
  const simulator = createSimulator({
    db,
    log: app.log,
    media,
    publicUrl: config.publicUrl,
    replyDelayMs: config.messaging.simReplyDelayMs,
    chatterIntervalMs: config.messaging.simChatterMs,
  });
  const gateway = createGateway({
    db,
    log: app.log,
    bus,
    callbacks,
    provider: simulator.provider,
    media,
    qrTtlMs: config.messaging.qrTtlMs,
    sendIntervalMs: config.messaging.sendIntervalMs,
    serviceGate: gate,
  });
  registerMessagingRoutes(route, gateway, media);
  registerMediaRoutes(app, media);
  registerSimulatorRoutes(app, route, gateway, simulator);
  registerEventRoutes(app, bus, sessions);
  if (opts.gatewayWorker ?? true) app.addHook('onReady', async () => gateway.start());

  // real-name verification, the operator area and the console's own visitor counts
  const realName = createRealNameService({ db, storage: localStorage(config.dataDir), settings, audit, bus });
  registerRealNameRoutes(app, route, realName);
  const operator = createOperatorService({ db, packages, apiAccounts, audit });
  registerOperatorRoutes(route, operator);
  const visitors = createVisitorService(db);
  registerVisitorRoutes(route, visitors);
  // 开始使用: the first-day checklist, read from the modules that own each step's records
  const onboarding = createOnboardingService({
    subscriptions: (companyId) => packages.mySubscriptions(companyId),
    apiAccounts: (companyId) => apiAccounts.list(companyId, false),
    companyConfig: (companyId) => apiAccounts.getCompanyConfig(companyId),
    gateway: (companyId) => messagingRepo.progressOf(db, companyId),
    realName: (companyId) => realName.info(companyId),
  });
  registerOnboardingRoutes(route, onboarding);
  app.addHook('onClose', () => gateway.stop());

  app.decorate('services', {
    db,
    bus,
    sessions,
    auth,
    packages,
    orders,
    apiAccounts,
    callbacks,
    records,
    statistics,
    catalogue,
    media,
    gateway,
    simulator,
    realName,
    operator,
    visitors,
  });

  await registerConsole(app, config.webDistDir, config);

  if (opts.housekeeping ?? true) {
    let stop: (() => void) | undefined;
    app.addHook('onReady', async () => {
      stop = startHousekeeping(db, app.log);
    });
    app.addHook('onClose', async () => stop?.());
  }
  return app;
}

/** Counters kept at most (client and route pairs); expired ones go first, then the oldest. */
const MAX_RATE_WINDOWS = 50_000;

/**
 * The rate limiter's in-process counters, one per client and route *address*. The plugin's own
 * store counts each route and method apart, so the HEAD that Fastify answers with a GET route's
 * handler (issuing a captcha, say) would get a second budget of its own; here they share one.
 */
class RouteAddressStore implements FastifyRateLimitStore {
  constructor(
    _options?: unknown,
    private readonly windows = new Map<string, { count: number; resetAt: number }>(),
    private readonly scope = '',
  ) {}

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    const id = this.scope + key;
    let window = this.windows.get(id);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + timeWindow };
      this.windows.delete(id); // re-inserted: the map stays in order of window start
      this.windows.set(id, window);
      if (this.windows.size > MAX_RATE_WINDOWS) this.evict(now);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.resetAt - now });
  }

  /** A route's own limit: its counters, scoped by the route's address (not its method). */
  child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    // The plugin passes its merged limit options with the route under `routeInfo`.
    const url = (options as { routeInfo?: { url?: string } }).routeInfo?.url ?? '';
    return new RouteAddressStore(undefined, this.windows, `${url} `);
  }

  private evict(now: number): void {
    for (const [id, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(id);
    }
    for (const id of this.windows.keys()) {
      if (this.windows.size <= MAX_RATE_WINDOWS) break;
      this.windows.delete(id);
    }
  }
}

/** The app's services, for main.ts (workers) and API tests that drive them at the edges. */
export interface Services {
  db: Database['db'];
  bus: EventBus;
  sessions: ReturnType<typeof createSessionService>;
  auth: ReturnType<typeof createAuthService>;
  packages: ReturnType<typeof createPackageService>;
  orders: ReturnType<typeof createOrderService>;
  apiAccounts: ReturnType<typeof createApiAccountService>;
  records: ReturnType<typeof createRecordService>;
  statistics: ReturnType<typeof createStatisticsService>;
  catalogue: ReturnType<typeof createCatalogueService>;
  callbacks: CallbackService;
  media: ReturnType<typeof createMediaService>;
  gateway: ReturnType<typeof createGateway>;
  simulator: ReturnType<typeof createSimulator>;
  realName: ReturnType<typeof createRealNameService>;
  operator: ReturnType<typeof createOperatorService>;
  visitors: ReturnType<typeof createVisitorService>;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
