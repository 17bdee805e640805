import { authCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { CaptchaService } from '../captcha/service.js';
import type { AuthService } from './service.js';

export interface AuthRouteLimits {
  /** Requests per minute per IP for captcha, SMS and login calls. */
  sensitivePerMinute: number;
}

export function registerAuthRoutes(
  route: Route,
  auth: AuthService,
  captcha: CaptchaService,
  limits: AuthRouteLimits,
) {
  const sensitive = { rateLimitPerMinute: limits.sensitivePerMinute };

  route(authCalls.getVerifyCode, () => captcha.issue(), sensitive);

  route(
    authCalls.checkVerifyCode,
    async ({ input }) => {
      await captcha.check(input.captchaId, input.captchaCode);
      return { valid: true as const };
    },
    sensitive,
  );

  route(
    authCalls.sendRegisterSms,
    async ({ input, ip, userAgent }) => {
      await captcha.consume(input.captchaId, input.captchaCode);
      return auth.sendSms(input.phone, 'register', { ip, userAgent }, null);
    },
    sensitive,
  );

  route(
    authCalls.sendSms,
    async ({ input, ip, userAgent, auth: session }) => {
      await captcha.consume(input.captchaId, input.captchaCode);
      return auth.sendSms(input.phone, input.scene, { ip, userAgent }, session);
    },
    sensitive,
  );

  route(authCalls.register, ({ input, ip, userAgent }) => auth.register(input, { ip, userAgent }), sensitive);

  route(authCalls.login, ({ input, ip, userAgent }) => auth.login(input, { ip, userAgent }), sensitive);

  route(authCalls.refreshLoginInfo, ({ auth: session }) => auth.userInfo(session));

  route(authCalls.logout, async ({ auth: session, ip, userAgent }) => {
    await auth.logout(session, { ip, userAgent });
    return null;
  });

  route(
    authCalls.resetPassword,
    async ({ input, auth: session, ip, userAgent }) => {
      await auth.resetPassword(input, session, { ip, userAgent });
      return null;
    },
    sensitive,
  );

  route(authCalls.updateCompanyInfo, ({ input, auth: session, ip, userAgent }) =>
    auth.updateCompanyInfo(session, input.companyName, { ip, userAgent }),
  );

  route(authCalls.modUserName, ({ input, auth: session, ip, userAgent }) =>
    auth.modUserName(session, input.userName, { ip, userAgent }),
  );

  route(
    authCalls.changePhone,
    ({ input, auth: session, ip, userAgent }) =>
      auth.changePhone(session, input.phone, input.verifyCode, { ip, userAgent }),
    sensitive,
  );

  route(authCalls.isAutoRegiste, async () => ({ open: await auth.isAutoRegisterOpen() }));

  route(authCalls.openAutoRegiste, async ({ input, auth: session, ip, userAgent }) => ({
    open: await auth.setAutoRegister(session, input.open, { ip, userAgent }),
  }));
}
