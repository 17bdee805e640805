import { clientErrorCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { ClientErrorService } from './service.js';

export function registerClientErrorRoutes(route: Route, clientErrors: ClientErrorService) {
  route(
    clientErrorCalls.report,
    async ({ input, auth, userAgent }) => {
      await clientErrors.report(auth.user.id, input, userAgent);
      return null;
    },
    { rateLimitPerMinute: clientErrorCalls.CLIENT_ERROR_REPORTS_PER_MINUTE },
  );
  route(clientErrorCalls.list, ({ input, auth }) => clientErrors.list(auth.user, input.page, input.pageSize));
}
