import { operatorCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { OperatorService } from './service.js';

/** 运营: totals, companies (remarks, service expiry, read-only packages and sub-accounts). */
export function registerOperatorRoutes(route: Route, operator: OperatorService) {
  route(operatorCalls.agentPanel, ({ input }) => operator.panel(input.days));
  route(operatorCalls.registeUser, ({ input }) => {
    const { page, pageSize, ...filter } = input;
    return operator.companies(filter, page, pageSize);
  });
  route(operatorCalls.updateCompanyRemarks, ({ input, auth, ip }) =>
    operator.updateRemark(auth.user.id, input.userId, input.remark, ip),
  );
  route(operatorCalls.updateCompanyExpireTime, ({ input, auth, ip }) =>
    operator.updateExpireTime(auth.user.id, input.userId, input.expireAt, ip),
  );
  route(operatorCalls.companyPackages, ({ input }) => operator.packagesOf(input.userId));
  route(operatorCalls.companySubAccounts, ({ input }) => operator.subAccountsOf(input.userId));
}
