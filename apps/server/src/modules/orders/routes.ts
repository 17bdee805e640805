import { orderCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { OrderService } from './service.js';

/** 订单: buying and renewing packages, paying, purchase records; the operator's order list and offline payments. */
export function registerOrderRoutes(route: Route, orders: OrderService) {
  route(orderCalls.buy, ({ input, auth }) => orders.buy(auth.user.id, input));
  route(orderCalls.renew, ({ input, auth }) => orders.renew(auth.user.id, input));
  route(orderCalls.queryOrders, ({ input, auth }) =>
    orders.list(
      { companyId: auth.user.id, state: input.state, from: input.from, to: input.to },
      input.page,
      input.pageSize,
    ),
  );
  route(orderCalls.paySandbox, ({ input, auth, ip }) => orders.paySandbox(auth.user.id, input.orderNo, ip));
  route(orderCalls.cancelOrder, ({ input, auth }) => orders.cancel(auth.user.id, input.orderNo));
  route(orderCalls.consumeRecord, ({ input, auth }) =>
    orders.consumeRecords(auth.user.id, input.page, input.pageSize),
  );

  // ---- operator
  route(orderCalls.adminQueryOrders, ({ input }) =>
    orders.adminList({ state: input.state, keyword: input.keyword }, input.page, input.pageSize),
  );
  route(orderCalls.adminMarkPaid, ({ input, auth, ip }) =>
    orders.markPaidOffline(input.orderNo, input.note, auth.user.id, ip),
  );
}
