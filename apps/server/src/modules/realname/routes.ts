import { realNameCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import { readImages } from '../files/upload.js';
import type { RealNameService } from './service.js';

/** Per-IP uploads per minute (each up to 2 images of 2 MB). */
const UPLOADS_PER_MINUTE = 30;

/** 实名认证 calls and the operator's review calls (the images are served by files/routes.ts). */
export function registerRealNameRoutes(route: Route, realName: RealNameService) {
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
}
