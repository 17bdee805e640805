import { useQuery } from '@tanstack/react-query';
import * as callbackCalls from '@wxc/contract/calls/callbacks';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as recordCalls from '@wxc/contract/calls/records';
import { call } from '../../api/client';
import { messagingKeys } from './keys';

export { createInvalidator, keysForEvent, messagingKeys } from './keys';

// ---- shared reads

/** Online accounts of the company (for wxid pickers); at most 100, newest login first. */
export const useOnlineAccounts = (enabled = true) =>
  useQuery({
    queryKey: messagingKeys.online(),
    queryFn: ({ signal }) =>
      call(recordCalls.queryHistoryWx, { status: 'online', page: 1, pageSize: 100 }, { signal }),
    enabled,
    staleTime: 10_000,
  });

export const useProxies = (enabled = true) =>
  useQuery({
    queryKey: messagingKeys.proxies(),
    queryFn: ({ signal }) => call(messagingCalls.proxyList, {}, { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });

export interface DeliveryFilter {
  page: number;
  pageSize: number;
  status?: 'pending' | 'delivered' | 'failed' | undefined;
  wxid?: string | undefined;
  subAccountId?: string | undefined;
}

export const useDeliveries = (filter: DeliveryFilter, enabled = true) =>
  useQuery({
    queryKey: messagingKeys.deliveryList(filter),
    queryFn: ({ signal }) => call(callbackCalls.listDeliveries, filter, { signal }),
    placeholderData: (previous) => previous,
    enabled,
  });
