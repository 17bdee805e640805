import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import { emptyRequest, MEDIA_MAX_BYTES } from '@wxc/contract';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { ZodType } from 'zod';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { registerApiDocs } from './docs.js';
import { startHousekeeping } from './housekeeping.js';
import { registerCompression } from './lib/compression.js';
import { clientErrorHandler, frameworkErrors, installErrorHandler } from './lib/error-handler.js';
import { AppError } from './lib/errors.js';
import { createRouter } from './lib/http.js';
import { lazyChildLoggerFactory } from './lib/lazy-logger.js';
import { type LoopLag, watchLoopLag } from './lib/loop-lag.js';
import { registerLoadShedding } from './lib/overload.js';
import { createRequestSlices } from './lib/request-slices.js';
import { securityHeaders } from './lib/security-headers.js';
import { createSerializerCompiler } from './lib/serializer.js';
import { emptyInput, nulError, pathOfNul, RequestValidationError } from './lib/validation.js';
import { registerApiAccountRoutes } from './modules/api-accounts/routes.js';
import { installBodyDigest } from './modules/api-auth/service.js';
import { registerAuthRoutes } from './modules/auth/routes.js';
import { tokenFromHeader } from './modules/auth/sessions.js';
import { registerCallbackRoutes } from './modules/callbacks/routes.js';
import type { CaptchaGenerator } from './modules/captcha/service.js';
import { registerCatalogueRoutes } from './modules/catalogue/routes.js';
import { registerClientErrorRoutes } from './modules/client-errors/routes.js';
import type { EventBus } from './modules/events/bus.js';
import { registerEventRoutes } from './modules/events/routes.js';
import { registerFileRoutes } from './modules/files/routes.js';
import { registerMessagingRoutes } from './modules/messaging/routes.js';
import { registerOnboardingRoutes } from './modules/onboarding/routes.js';
import { registerOperatorRoutes } from './modules/operator/routes.js';
import { registerOrderRoutes } from './modules/orders/routes.js';
import { registerPackageRoutes } from './modules/packages/routes.js';
import { installRateLimits } from './modules/rate-limits/hook.js';
import { registerRealNameRoutes } from './modules/realname/routes.js';
import { registerRecordRoutes } from './modules/records/routes.js';
import { registerShowcaseRoutes } from './modules/showcase/routes.js';
import { registerSimulatorOff, registerSimulatorRoutes } from './modules/sim/routes.js';
import type { SmsProvider } from './modules/sms/provider.js';
import { registerStatisticsRoutes } from './modules/statistics/routes.js';
import { registerSystemRoutes } from './modules/system/routes.js';
import { registerVisitorRoutes } from './modules/visitors/routes.js';
import { createServices, type MessagingProviderFactory, type Services } from './services.js';
import { isApiRequest, isSubresourceRequest, registerConsole } from './web.js';

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
  /** Prefix of the rate limits' Redis keys with REDIS_URL (tests give each run its own). */
  rateLimitKeyPrefix?: string;
  housekeeping?: boolean;
  /** Runs the gateway's sweeper (QR expiry, account expiry, stray send queues); default true. */
  gatewayWorker?: boolean;
  /** Runs the callback delivery worker (default true; tests may drive deliveries themselves). */
  callbackWorker?: boolean;
  /** Waits between callback attempts (default: 5 s … 40 min, 8 attempts); tests use short ones. */
  callbackRetryDelaysMs?: number[];
  /** Per-attempt callback timeout (default 5 s). */
  callbackTimeoutMs?: number;
  /** A send claim's lease (default 5 min); tests shorten it. */
  sendLeaseMs?: number;
  /** How far behind the event loop runs, in place of this process's reading (tests: a loop behind). */
  loopLag?: LoopLag;
  /** Replaces the messaging network chosen by config (tests hand in a wechaty mock puppet). */
  messagingProvider?: MessagingProviderFactory;
  /**
   * Closes the database when the app closes, after every worker has stopped and settled what it had
   * under way (main.ts; tests close their own).
   */
  closeDatabase?: boolean;
}

/**
 * Connection timeouts, chosen rather than inherited (a thousand kept-alive clients is a normal day):
 * - keepAliveTimeout 72 s: an idle kept-alive connection is closed after this; longer than the 60 s
 *   idle timeout of common proxies and load balancers, so they close first (never a request sent on
 *   a connection we are closing);
 * - headersTimeout 30 s: a request's headers must arrive within this (slow-header clients do not
 *   hold connections);
 * - requestTimeout 300 s: a whole request, body included (a 20 MB media upload on a slow link);
 *   Fastify's default would be none at all.
 * The listen backlog is main.ts's (LISTEN_BACKLOG).
 */
export const CONNECTION_LIMITS = {
  keepAliveTimeout: 72_000,
  requestTimeout: 300_000,
} as const;
const HEADERS_TIMEOUT_MS = 30_000;

/**
 * The messaging network config chooses, when it is not the built-in simulator: the wechaty provider
 * and its puppet module, loaded only then (a missing module stops the start with the fix).
 */
async function configuredMessagingProvider(config: Config): Promise<MessagingProviderFactory | undefined> {
  if (config.messaging.provider !== 'wechaty') return undefined;
  const { loadPuppetModule } = await import('./modules/wechaty/puppet.js');
  const { createWechatyProvider } = await import('./modules/wechaty/provider.js');
  const { createPuppet, FileBox, forwardLogs } = await loadPuppetModule(config.wechaty);
  return ({ db, log, files }) => {
    forwardLogs(log);
    return createWechatyProvider({
      db,
      log,
      files,
      createPuppet,
      FileBox,
      tokens: config.wechaty.tokens,
      routing: config.wechaty.routing,
      leaseMs: config.wechaty.leaseMs,
    });
  };
}

/** Builds the whole service from its config and database. main.ts and the tests both use it. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    ...CONNECTION_LIMITS,
    logger: opts.logger ?? { level: config.logLevel },
    childLoggerFactory: lazyChildLoggerFactory,
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
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  // onClose hooks run last-registered first: registered before any worker's, this one runs after
  // them all. (Added by main.ts after buildApp, it ran first: a callback delivery or a send in flight
  // at SIGTERM could not settle, and its claim held the event for a minute.)
  if (opts.closeDatabase) app.addHook('onClose', () => database.close());
  app.setValidatorCompiler(({ schema }) => {
    // Calls without parameters (most reads): an empty body or {} is all there is to check.
    if (schema === emptyRequest) return emptyInput;
    return (data: unknown) => {
      // reportInput: issues keep the offending value, so "missing" and "wrong type" read differently.
      const result = (schema as ZodType).safeParse(data ?? undefined, { reportInput: true });
      if (!result.success) return { error: new RequestValidationError(result.error.issues) };
      // Fields with their own text rule have said it better already; this catches every other string.
      const nul = pathOfNul(result.data);
      return nul ? { error: nulError(nul) } : { value: result.data };
    };
  });
  // Compiled from the response schema once per route (lib/serializer.ts); the test suites also
  // check every answer against zod's own encoding of it.
  app.setSerializerCompiler(createSerializerCompiler({ verify: config.env === 'test' }));
  installErrorHandler(app);
  // JSON only (text/plain is refused with 415); an empty JSON body means "no input". Signed API
  // requests are verified over the raw bytes before this parser runs (api-auth/body-digest.ts).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // Bodies are taken as sent, never decompressed: an encoded one (gzip, say) is refused by name
    // rather than read as garbage.
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      return done(
        new AppError('BAD_REQUEST', '不支持压缩的请求体（Content-Encoding），请发送未压缩的 JSON'),
        undefined,
      );
    }
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

  // Every answer's own headers, set in one place before anything can answer (so a shed 503, a 429,
  // a miss and an error carry them too): the security headers of its kind, worked out once at start
  // (the API's include no-store), and the request's id, which support asks for. Scripts and styles
  // go without the id: a page loads dozens.
  const headers = securityHeaders();
  const alwaysHttps = new URL(config.publicUrl).protocol === 'https:';
  app.addHook('onRequest', (req, reply, done) => {
    const kind = isApiRequest(req)
      ? headers.api
      : isSubresourceRequest(req.url)
        ? headers.subresource
        : headers.page;
    // req.protocol honours X-Forwarded-Proto only with TRUST_PROXY.
    reply.headers(alwaysHttps || req.protocol === 'https' ? kind.https : kind.http);
    if (kind !== headers.subresource) reply.header('x-request-id', req.id);
    done();
  });
  // How far behind the event loop runs: what load shedding and the callbacks' delivery pace go by.
  const loopLag = opts.loopLag ?? watchLoopLag();
  app.addHook('onClose', async () => loopLag.stop());
  // A poll phase starts new requests for a few ms; the rest wait in line for a slice between polls,
  // so answers already on their way (the database's) are read sooner (lib/request-slices.ts; off
  // unless REQUEST_SLICE_MS asks: a trade, measured in bench/README.md session 39).
  const slices = createRequestSlices({
    sliceMs: config.requestSliceMs,
    skip: (req) => Boolean(req.routeOptions.config.answeredUnderLoad),
  });
  // Right after the security headers: a shed request costs nothing more than its 503. A loop is
  // behind when it lags, or when its line for a slice moves that slowly.
  registerLoadShedding(app, config.overloadEventLoopDelayMs, () =>
    Math.max(loopLag.ms(), slices.oldestWaitMs()),
  );
  if (config.requestSliceMs > 0) app.addHook('onRequest', slices.onRequest);
  // Large answers compressed on the fly; small ones are not worth the CPU (lib/compression.ts).
  registerCompression(app);
  // Built before the rate limiter, whose store is one of them (modules/rate-limits).
  const services = createServices({
    config,
    database,
    log: app.log,
    smsProvider: opts.smsProvider,
    captchaGenerator: opts.captchaGenerator,
    bus: opts.bus,
    callbackRetryDelaysMs: opts.callbackRetryDelaysMs,
    callbackTimeoutMs: opts.callbackTimeoutMs,
    sendLeaseMs: opts.sendLeaseMs,
    loopLag,
    rateLimitKeyPrefix: opts.rateLimitKeyPrefix,
    messagingProvider: opts.messagingProvider ?? (await configuredMessagingProvider(config)),
  });
  // Per-client limits on every route added from here on: counters shared by every process (Redis
  // or PostgreSQL) or kept in this one (embedded SQLite): modules/rate-limits.
  installRateLimits(app, {
    counter: services.rateLimits.counter,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // API calls are what can be abused; the console's static files (dozens per page) are not limited.
    // Decided by the route the request matched, never by its raw URL: `/%61pi/...` is `/api/...`
    // (the hook runs on matched routes only: misses have no rate limit).
    exempt: (req) => !isApiRequest(req),
  });
  if (config.corsOrigins.length > 0) {
    // Same-origin only unless the operator lists other origins; imported lazily as few need it.
    const cors = (await import('@fastify/cors')).default;
    await app.register(cors, { origin: config.corsOrigins });
  }
  await registerApiDocs(app, config);

  // Registered before any route that reads uploads.
  await app.register(multipart, { limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 5 } });

  const { db, bus, sessions, apiAuth, audit, users, callbacks, gateway } = services;
  app.decorate('services', services);

  installBodyDigest(app, apiAuth.precheckSigned); // signed API requests: SHA-256 of the exact body bytes
  const session = (req: FastifyRequest) => sessions.authenticate(tokenFromHeader(req.headers.authorization));
  const route = createRouter(app, {
    session,
    credentials: (req) => apiAuth.fromCredentials(req),
    company: (id) => users.customer(id),
    audit: ({ operatorId, companyId, call, ip }) =>
      audit.record({ userId: operatorId, action: 'support.view', ip, detail: { companyId, call } }),
  });

  // One line per module (docs/ARCHITECTURE.md "Modules").
  registerSystemRoutes(app, route, config, database, services.support, services.simulator !== null);
  registerVisitorRoutes(route, services.visitors);
  registerAuthRoutes(route, services.auth, services.captcha, {
    sensitivePerMinute: opts.sensitiveRateLimit ?? 30,
  });
  registerFileRoutes(app, route, services.files);
  registerPackageRoutes(route, services.packages);
  registerOrderRoutes(route, services.orders);
  registerApiAccountRoutes(route, services.apiAccounts);
  registerMessagingRoutes(route, gateway);
  if (services.simulator) registerSimulatorRoutes(app, route, gateway, services.simulator);
  else registerSimulatorOff(route);
  registerCallbackRoutes(route, callbacks);
  registerEventRoutes(app, bus, sessions);
  registerRecordRoutes(route, services.records);
  registerStatisticsRoutes(route, services.statistics);
  registerCatalogueRoutes(route, services.catalogue);
  registerRealNameRoutes(route, services.realName);
  registerOperatorRoutes(route, services.operator);
  registerOnboardingRoutes(route, services.onboarding);
  registerClientErrorRoutes(route, services.clientErrors);
  // The template showcase: its own protocol ({ code: 20000, data }); 404 throughout when SHOWCASE is off.
  registerShowcaseRoutes(app, services.showcase, {
    enabled: config.showcase,
    session,
    rateLimitPerMinute: config.rateLimitPerMinute,
  });

  // Workers. onClose hooks run in reverse order: the gateway and the callback worker stop before
  // the bus closes.
  app.addHook('onClose', () => bus.close());
  if (opts.callbackWorker ?? true) app.addHook('onReady', async () => callbacks.start());
  app.addHook('onClose', () => callbacks.stop());
  if (opts.gatewayWorker ?? true) app.addHook('onReady', async () => gateway.start());
  app.addHook('onClose', () => gateway.stop());
  app.addHook('onReady', () => services.rateLimits.start());
  app.addHook('onClose', () => services.rateLimits.close());

  await registerConsole(app, config.webDistDir, config);

  if (opts.housekeeping ?? true) {
    let stop: (() => void) | undefined;
    app.addHook('onReady', async () => {
      const stopHousekeeping = startHousekeeping(db, app.log);
      const stopSweeping = services.rateLimits.startSweeping(); // expired rate windows (PostgreSQL)
      stop = () => {
        stopHousekeeping();
        stopSweeping();
      };
    });
    app.addHook('onClose', async () => stop?.());
  }
  return app;
}

export type { Services };

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
