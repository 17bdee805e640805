import { packageCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { ApiAccountService } from '../api-accounts/service.js';
import type { OrderService } from '../orders/service.js';
import { toOrder } from '../orders/service.js';
import type { PackageService } from './service.js';

/** 套餐、订单、消费记录, and the operator's catalogue and offline payments. */
export function registerPackageRoutes(
  route: Route,
  packages: PackageService,
  orders: OrderService,
  apiAccounts: ApiAccountService,
) {
  route(packageCalls.list, async () => ({ list: await packages.catalogue() }));
  route(packageCalls.packageById, ({ input, auth }) => packages.packageForCompany(auth.user.id, input.id));
  route(packageCalls.queryPackage, ({ auth }) => packages.mySubscriptions(auth.user.id));
  route(packageCalls.showByRecord, ({ auth }) => packages.showByRecord(auth.user.id));
  route(packageCalls.buy, ({ input, auth }) => orders.buy(auth.user.id, input));
  route(packageCalls.renew, ({ input, auth }) => orders.renew(auth.user.id, input));

  route(packageCalls.queryOrders, async ({ input, auth }) => {
    const { rows, ...page } = await orders.list(
      { companyId: auth.user.id, state: input.state, from: input.from, to: input.to },
      input.page,
      input.pageSize,
    );
    return { list: rows.map(toOrder), ...page };
  });
  route(packageCalls.paySandbox, ({ input, auth, ip }) => orders.paySandbox(auth.user.id, input.orderNo, ip));
  route(packageCalls.cancelOrder, ({ input, auth }) => orders.cancel(auth.user.id, input.orderNo));
  route(packageCalls.consumeRecord, ({ input, auth }) =>
    orders.consumeRecords(auth.user.id, input.page, input.pageSize),
  );
  route(packageCalls.openService, async ({ auth }) => ({
    ...(await packages.activeServices(auth.user.id)),
    ...(await apiAccounts.summary(auth.user.id)),
  }));

  // ---- operator
  route(packageCalls.adminListPackages, async () => ({ list: await packages.allPackages() }));
  route(packageCalls.adminSavePackage, ({ input }) => {
    const { id, ...fields } = input;
    return packages.savePackage(id, fields);
  });
  route(packageCalls.adminQueryOrders, async ({ input }) => {
    const { rows, ...page } = await orders.list(
      { state: input.state, keyword: input.keyword },
      input.page,
      input.pageSize,
    );
    return { list: rows.map(toAdminOrder), ...page };
  });
  route(packageCalls.adminMarkPaid, async ({ input, auth, ip }) => {
    await orders.markPaidOffline(input.orderNo, input.note, auth.user.id, ip);
    const { rows } = await orders.list({ orderNo: input.orderNo }, 1, 1);
    return toAdminOrder(rows[0]!);
  });
}

function toAdminOrder(
  row: Parameters<typeof toOrder>[0] & { company_name: string; company_account: string },
) {
  return {
    ...toOrder(row),
    companyId: row.company_id,
    companyName: row.company_name,
    companyAccount: row.company_account,
  };
}
