import { visitorCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { VisitorService } from './service.js';

export function registerVisitorRoutes(route: Route, visitors: VisitorService) {
  route(
    visitorCalls.trackVisit,
    async ({ ip, userAgent }) => {
      await visitors.record(ip, userAgent);
      return null;
    },
    { rateLimitPerMinute: 120 },
  );
  route(visitorCalls.visitors, ({ input }) => visitors.report(input.days));
}
