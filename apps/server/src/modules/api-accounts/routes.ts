import { apiAccountCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { ApiAccountService } from './service.js';

/** 子账号 (API applications), company API settings and 申请开通 API. */
export function registerApiAccountRoutes(route: Route, accounts: ApiAccountService) {
  route(apiAccountCalls.queryApiAccount, ({ input, auth }) =>
    accounts.list(auth.user.id, input.includeRecovered),
  );
  route(apiAccountCalls.openApiAccount, ({ input, auth, ip }) => accounts.open(auth.user.id, input, ip));
  route(apiAccountCalls.updateApiAccount, ({ input, auth }) => accounts.update(auth.user.id, input));
  route(apiAccountCalls.resetApiSecret, ({ input, auth, ip }) =>
    accounts.resetSecret(auth.user.id, input.id, ip),
  );
  route(apiAccountCalls.recoveryApiAccount, ({ input, auth, ip }) =>
    accounts.recover(auth.user.id, input.id, ip),
  );
  route(apiAccountCalls.updateAvailableNum, ({ input, auth }) =>
    accounts.setAvailable(auth.user.id, input.id, input.availableNum),
  );
  route(apiAccountCalls.getConfigCompanyInfo, ({ auth }) => accounts.getCompanyConfig(auth.user.id));
  route(apiAccountCalls.configCompanyInfo, ({ input, auth }) =>
    accounts.setCompanyConfig(auth.user.id, input),
  );
  route(apiAccountCalls.applyApis, ({ auth, ip }) => accounts.applyApis(auth.user.id, ip));
}
