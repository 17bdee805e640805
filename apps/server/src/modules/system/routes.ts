import { systemCalls } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Route } from '../../lib/http.js';
import { ANSWERED_UNDER_LOAD } from '../../lib/overload.js';
import { readImages } from '../files/upload.js';
import type { SupportContact } from './support.js';

export function registerSystemRoutes(
  app: FastifyInstance,
  route: Route,
  config: Config,
  database: Database,
  support: SupportContact,
  /** The messaging network is the built-in simulator (services.simulator). */
  simulatedNetwork: boolean,
) {
  route(systemCalls.siteInfo, async () => ({
    productTitle: config.productTitle,
    serverFlag: config.serverFlag,
    callbackPrivateAllowed: config.callbackAllowPrivate,
    showcase: config.showcase,
    simulatedNetwork,
    ...(await support.contact()),
  }));
  route(systemCalls.adminSaveSupport, ({ input }) => support.save(input));
  route(
    systemCalls.adminUploadSupportQr,
    async ({ req }) => {
      const [img] = await readImages(req, 'img', 1);
      return support.uploadQr(img!);
    },
    { rateLimitPerMinute: 30 },
  );
  // Liveness: the process answers, overloaded or not. Readiness: it can take work now (while it
  // sheds load, lib/overload.ts answers 503 here too) and reach its database.
  app.get('/healthz', { schema: { hide: true }, config: ANSWERED_UNDER_LOAD }, async () => ({
    status: 'ok',
  }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await database.ping();
      return { status: 'ready', database: database.dialect };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: database.dialect });
    }
  });
}
