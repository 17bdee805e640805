import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { MEDIA_MAX_BYTES } from '@wxc/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { registerApiDocs } from './docs.js';
import { startHousekeeping } from './housekeeping.js';
import { installErrorHandler } from './lib/error-handler.js';
import { createRouter } from './lib/http.js';
import { RequestValidationError } from './lib/validation.js';
import { registerApiAccountRoutes } from './modules/api-accounts/routes.js';
import { createApiAccountService } from './modules/api-accounts/service.js';
import { createApiAuth } from './modules/api-auth/service.js';
import { createAuditService } from './modules/audit/service.js';
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
import { registerVisitorRoutes } from './modules/visitors/routes.js';
import { createVisitorService } from './modules/visitors/service.js';
import { registerConsole } from './web.js';

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
    // Schemas are zod: parse with zod (the error names the field), serialize through the response
    // schema so nothing undeclared leaves the service.
  });
  app.setValidatorCompiler(({ schema }) => (data: unknown) => {
    // reportInput: issues keep the offending value, so "missing" and "wrong type" read differently.
    const result = (schema as ZodType).safeParse(data ?? undefined, { reportInput: true });
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(result.error.issues) };
  });
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  installErrorHandler(app);
  // JSON bodies keep their raw text: signed API requests are verified over the exact bytes sent.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    (req as { rawBody?: string }).rawBody = text;
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

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"], // antd writes its styles at run time
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // API calls are what can be abused; the console's static files (dozens per page) are not limited.
    allowList: (req) => !req.url.startsWith('/api/'),
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

  const apiAuth = createApiAuth(db);
  const route = createRouter(app, {
    session: (req) => sessions.authenticate(tokenFromHeader(req.headers.authorization)),
    api: (req, session) => apiAuth.resolve(req, session),
  });
  registerSystemRoutes(app, route, config, database);
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
  registerEventRoutes(app, bus, (req) => sessions.authenticate(tokenFromHeader(req.headers.authorization)));
  if (opts.gatewayWorker ?? true) app.addHook('onReady', async () => gateway.start());

  // real-name verification, the operator area and the console's own visitor counts
  const realName = createRealNameService({ db, storage: localStorage(config.dataDir), settings, audit, bus });
  registerRealNameRoutes(app, route, realName);
  const operator = createOperatorService({ db, packages, apiAccounts, audit });
  registerOperatorRoutes(route, operator);
  const visitors = createVisitorService(db);
  registerVisitorRoutes(route, visitors);
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

  await registerConsole(app, config.webDistDir);

  if (opts.housekeeping ?? true) {
    let stop: (() => void) | undefined;
    app.addHook('onReady', async () => {
      stop = startHousekeeping(db, app.log);
    });
    app.addHook('onClose', async () => stop?.());
  }
  return app;
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
