/**
 * The commerce screens' query keys, apart from their read hooks (queries.ts): the live-event and
 * checklist code of the first dashboard needs the keys, not the call definitions.
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
