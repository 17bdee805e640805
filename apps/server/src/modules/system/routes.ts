import { systemCalls } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Route } from '../../lib/http.js';

export function registerSystemRoutes(app: FastifyInstance, route: Route, config: Config, database: Database) {
  route(systemCalls.siteInfo, async () => ({
    productTitle: config.productTitle,
    serverFlag: config.serverFlag,
    supportQrUrl: config.supportQrUrl,
    supportText: config.supportText,
  }));

  // Liveness: the process answers. Readiness: it can reach its database.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await database.ping();
      return { status: 'ready', database: database.dialect };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: database.dialect });
    }
  });
}
