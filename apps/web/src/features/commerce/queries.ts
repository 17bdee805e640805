import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import * as orderCalls from '@wxc/contract/calls/orders';
import * as packageCalls from '@wxc/contract/calls/packages';
import { call } from '../../api/client';
import { onboardingKeys } from '../onboarding/keys';
import { commerceKeys, type OrdersFilter } from './keys';

/**
 * Query keys and the read hooks of the commerce screens, with one place for invalidation: any
 * purchase, payment or sub-account change refreshes every commerce answer (they share the quota).
 */
export { commerceKeys, type OrdersFilter } from './keys';

/** Also the 开始使用 checklist: a package, a sub-account or a callback URL ticks one of its steps. */
export function invalidateCommerce(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: commerceKeys.all }),
    client.invalidateQueries({ queryKey: onboardingKeys.all }),
  ]).then(() => undefined);
}

export function useInvalidateCommerce(): () => Promise<void> {
  const client = useQueryClient();
  return () => invalidateCommerce(client);
}

export const useCatalogue = () =>
  useQuery({
    queryKey: commerceKeys.catalogue(),
    queryFn: ({ signal }) => call(packageCalls.list, {}, { signal }),
  });

export const usePackage = (id: string | undefined) =>
  useQuery({
    queryKey: commerceKeys.packageById(id ?? ''),
    queryFn: ({ signal }) => call(packageCalls.packageById, { id: id! }, { signal }),
    enabled: Boolean(id),
  });

export const useSubscriptions = () =>
  useQuery({
    queryKey: commerceKeys.subscriptions(),
    queryFn: ({ signal }) => call(packageCalls.queryPackage, {}, { signal }),
  });

export const useOrders = (filter: OrdersFilter) =>
  useQuery({
    queryKey: commerceKeys.orders(filter),
    queryFn: ({ signal }) => call(orderCalls.queryOrders, filter, { signal }),
    placeholderData: (previous) => previous,
  });

export const useService = () =>
  useQuery({
    queryKey: commerceKeys.service(),
    queryFn: ({ signal }) => call(packageCalls.showByRecord, {}, { signal }),
  });

export const useOpenService = () =>
  useQuery({
    queryKey: commerceKeys.openService(),
    queryFn: ({ signal }) => call(packageCalls.openService, {}, { signal }),
  });

export const useApiAccounts = (includeRecovered = false) =>
  useQuery({
    queryKey: commerceKeys.apiAccounts(includeRecovered),
    queryFn: ({ signal }) => call(apiAccountCalls.queryApiAccount, { includeRecovered }, { signal }),
    placeholderData: (previous) => previous,
  });

export const useCompanyConfig = (enabled = true) =>
  useQuery({
    queryKey: commerceKeys.companyConfig(),
    queryFn: ({ signal }) => call(apiAccountCalls.getConfigCompanyInfo, {}, { signal }),
    enabled,
  });
