import { catalogueCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { CatalogueService } from './service.js';

/** The online tester's catalogue of public API calls and their parameters. */
export function registerCatalogueRoutes(route: Route, catalogue: CatalogueService) {
  route(catalogueCalls.wechatApiList, async ({ input }) => catalogue.list(input.keyword));
  route(catalogueCalls.wechatApiParamList, async ({ input }) => catalogue.params(input.path));
}
