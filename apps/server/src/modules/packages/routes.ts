import { packageCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { PackageService } from './service.js';

/** 套餐: the catalogue, what a company bought, and the operator's catalogue editing. */
export function registerPackageRoutes(route: Route, packages: PackageService) {
  route(packageCalls.list, async () => ({ list: await packages.catalogue() }));
  route(packageCalls.packageById, ({ input, auth }) => packages.packageForCompany(auth.user.id, input.id));
  route(packageCalls.queryPackage, ({ auth }) => packages.mySubscriptions(auth.user.id));
  route(packageCalls.showByRecord, ({ auth }) => packages.showByRecord(auth.user.id));
  route(packageCalls.openService, ({ auth }) => packages.openService(auth.user.id));

  // ---- operator
  route(packageCalls.adminListPackages, async () => ({ list: await packages.allPackages() }));
  route(packageCalls.adminSavePackage, ({ input }) => {
    const { id, ...fields } = input;
    return packages.savePackage(id, fields);
  });
}
