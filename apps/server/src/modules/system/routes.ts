import { systemCalls } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Route } from '../../lib/http.js';
import { readImages } from '../realname/upload.js';
import { SUPPORT_QR_PATH, type SupportContact } from './support.js';

export function registerSystemRoutes(
  app: FastifyInstance,
  route: Route,
  config: Config,
  database: Database,
  support: SupportContact,
) {
  route(systemCalls.siteInfo, async () => ({
    productTitle: config.productTitle,
    serverFlag: config.serverFlag,
    callbackPrivateAllowed: config.callbackAllowPrivate,
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
  // The support QR is a contact card meant to be shared: public, under a random name per upload.
  app.get<{ Params: { name: string } }>(
    `${SUPPORT_QR_PATH}:name`,
    { schema: { hide: true } },
    async (req, reply) => {
      const found = await support.open(req.params.name);
      if (!found) return reply.status(404).type('text/plain; charset=utf-8').send('图片不存在');
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .type(found.mime)
        .send(found.data);
    },
  );

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
