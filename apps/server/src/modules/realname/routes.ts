import { realNameCalls } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';
import type { Route } from '../../lib/http.js';
import type { RealNameService } from './service.js';
import { IMAGE_PATH } from './service.js';
import { readImages } from './upload.js';

/** Per-IP uploads per minute (each up to 2 images of 2 MB). */
const UPLOADS_PER_MINUTE = 30;

/** 实名认证 calls, the operator's review calls and the signed image links. */
export function registerRealNameRoutes(app: FastifyInstance, route: Route, realName: RealNameService) {
  route(
    realNameCalls.uploadRealNameSource,
    async ({ req, auth, ip }) => {
      const [social, licence] = await readImages(req, 'imgs', 2);
      return realName.submitUploads(auth.user.id, [social!, licence!], ip);
    },
    { rateLimitPerMinute: UPLOADS_PER_MINUTE },
  );
  route(
    realNameCalls.uploadImg,
    async ({ req, auth }) => {
      const [img] = await readImages(req, 'img', 1);
      return realName.uploadOne(auth.user.id, img!);
    },
    { rateLimitPerMinute: UPLOADS_PER_MINUTE },
  );
  route(realNameCalls.updateRealNameImgs, ({ input, auth, ip }) =>
    realName.resubmit(auth.user.id, input.imgs, ip),
  );
  route(realNameCalls.getRealNameImgs, ({ input, auth }) => realName.imagesFor(auth.user, input.userId));
  route(realNameCalls.passRealNameAuth, ({ input, auth, ip }) =>
    realName.decide(auth.user.id, input.userId, { pass: true }, ip),
  );
  route(realNameCalls.refuseRealNameAuth, ({ input, auth, ip }) =>
    realName.decide(auth.user.id, input.userId, { pass: false, reason: input.reason }, ip),
  );
  route(realNameCalls.isOpenRealName, async () => ({ open: await realName.isRequired() }));
  route(realNameCalls.openRealName, ({ input, auth, ip }) =>
    realName.setRequired(input.open, auth.user.id, ip),
  );
  route(realNameCalls.adminReviewList, ({ input }) =>
    realName.reviews(
      { state: input.state, keyword: input.keyword, userId: input.userId },
      input.page,
      input.pageSize,
    ),
  );

  // GET /realname/image/<id>?exp=…&sig=…: links are issued only to the owner and operators and
  // expire in minutes; the files are never listable and never cached by shared caches.
  app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(
    `${IMAGE_PATH}:id`,
    { schema: { hide: true } },
    async (req, reply) => {
      const found = await realName.open(
        req.params.id,
        String(req.query.exp ?? ''),
        String(req.query.sig ?? ''),
      );
      if (!found) return reply.status(404).type('text/plain; charset=utf-8').send('链接无效或已过期');
      return reply
        .header('content-type', found.row.mime)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', 'inline')
        .send(found.data);
    },
  );
}
