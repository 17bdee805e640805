import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import * as accountCalls from '@wxc/contract/calls/api-accounts';
import * as packageCalls from '@wxc/contract/calls/packages';
import { call } from '../../api/client';
import { onboardingKeys } from '../onboarding/keys';

/**
 * Query keys and the read hooks of the commerce screens, with one place for invalidation: any
 * purchase, payment or sub-account change refreshes every commerce answer (they share the quota).
 */
export const commerceKeys = {
  all: ['commerce'] as const,
  catalogue: () => [...commerceKeys.all, 'catalogue'] as const,
  packageById: (id: string) => [...commerceKeys.all, 'package', id] as const,
  subscriptions: () => [...commerceKeys.all, 'subscriptions'] as const,
  orders: (filter: OrdersFilter) => [...commerceKeys.all, 'orders', filter] as const,
  service: () => [...commerceKeys.all, 'showByRecord'] as const,
  openService: () => [...commerceKeys.all, 'openService'] as const,
  apiAccounts: (includeRecovered: boolean) => [...commerceKeys.all, 'apiAccounts', includeRecovered] as const,
  companyConfig: () => [...commerceKeys.all, 'companyConfig'] as const,
};

export interface OrdersFilter {
  page: number;
  pageSize: number;
  state?: 'pending' | 'paid' | 'cancelled' | 'expired' | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

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
    queryFn: ({ signal }) => call(packageCalls.queryOrders, filter, { signal }),
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
    queryFn: ({ signal }) => call(accountCalls.queryApiAccount, { includeRecovered }, { signal }),
    placeholderData: (previous) => previous,
  });

export const useCompanyConfig = (enabled = true) =>
  useQuery({
    queryKey: commerceKeys.companyConfig(),
    queryFn: ({ signal }) => call(accountCalls.getConfigCompanyInfo, {}, { signal }),
    enabled,
  });
