import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallRequest } from '@wxc/contract/call';
import * as operatorCalls from '@wxc/contract/calls/operator';
import * as orderCalls from '@wxc/contract/calls/orders';
import * as packageCalls from '@wxc/contract/calls/packages';
import * as realNameCalls from '@wxc/contract/calls/realname';
import * as visitorCalls from '@wxc/contract/calls/visitors';
import { call } from '../../api/client';

/** Query keys of the operator area; every write invalidates the whole area (few, cheap reads). */
export const opsKeys = {
  all: ['operator'] as const,
  reviews: (f: ReviewFilter) => [...opsKeys.all, 'reviews', f] as const,
  companies: (f: CompanyFilter) => [...opsKeys.all, 'companies', f] as const,
  companyPackages: (id: string) => [...opsKeys.all, 'companyPackages', id] as const,
  companySubs: (id: string) => [...opsKeys.all, 'companySubs', id] as const,
  panel: (days: number) => [...opsKeys.all, 'panel', days] as const,
  visitors: (days: number) => [...opsKeys.all, 'visitors', days] as const,
  switches: () => [...opsKeys.all, 'switches'] as const,
  packages: () => [...opsKeys.all, 'packages'] as const,
  orders: (f: OrderFilter) => [...opsKeys.all, 'orders', f] as const,
};

export type ReviewFilter = CallRequest<typeof realNameCalls.adminReviewList>;
export type CompanyFilter = CallRequest<typeof operatorCalls.registeUser>;
export type OrderFilter = CallRequest<typeof orderCalls.adminQueryOrders>;

export const invalidateOps = (client: QueryClient) => client.invalidateQueries({ queryKey: opsKeys.all });
export function useInvalidateOps(): () => Promise<void> {
  const client = useQueryClient();
  return () => invalidateOps(client);
}

export const useReviews = (f: ReviewFilter) =>
  useQuery({
    queryKey: opsKeys.reviews(f),
    queryFn: ({ signal }) => call(realNameCalls.adminReviewList, f, { signal }),
  });
export const useCompanies = (f: CompanyFilter) =>
  useQuery({
    queryKey: opsKeys.companies(f),
    queryFn: ({ signal }) => call(operatorCalls.registeUser, f, { signal }),
  });
export const useCompanyPackages = (userId: string) =>
  useQuery({
    queryKey: opsKeys.companyPackages(userId),
    queryFn: ({ signal }) => call(operatorCalls.companyPackages, { userId }, { signal }),
  });
export const useCompanySubAccounts = (userId: string) =>
  useQuery({
    queryKey: opsKeys.companySubs(userId),
    queryFn: ({ signal }) => call(operatorCalls.companySubAccounts, { userId }, { signal }),
  });
export const usePanel = (days: number) =>
  useQuery({
    queryKey: opsKeys.panel(days),
    queryFn: ({ signal }) => call(operatorCalls.agentPanel, { days }, { signal }),
  });
export const useVisitors = (days: number) =>
  useQuery({
    queryKey: opsKeys.visitors(days),
    queryFn: ({ signal }) => call(visitorCalls.visitors, { days }, { signal }),
  });
export const useAdminPackages = () =>
  useQuery({
    queryKey: opsKeys.packages(),
    queryFn: ({ signal }) => call(packageCalls.adminListPackages, {}, { signal }),
  });
export const useAdminOrders = (f: OrderFilter) =>
  useQuery({
    queryKey: opsKeys.orders(f),
    queryFn: ({ signal }) => call(orderCalls.adminQueryOrders, f, { signal }),
  });
