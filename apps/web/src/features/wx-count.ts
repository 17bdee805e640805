import { useQuery } from '@tanstack/react-query';
import * as statisticsCalls from '@wxc/contract/calls/statistics';
import { useEffect } from 'react';
import { call } from '../api/client';
import { setWxCount } from '../stores/session';
import { messagingKeys } from './messaging/keys';
import { useLiveEvents } from './messaging/useLive';

/**
 * Keeps the session store's wxCount (spec §3) live: the company's messaging accounts online now
 * (getOnlineCountNow, the same cached figure as the dashboard's first card), refetched whenever a
 * live event says an account went on- or offline (features/messaging/queries.ts keysForEvent).
 * Mounted by the shell for customers only (operators have no accounts and no live events).
 */
export function useWxCountLive(): void {
  useLiveEvents();
  const query = useQuery({
    queryKey: messagingKeys.figure(statisticsCalls.getOnlineCountNow.id),
    // Quiet: the count is an aside in the top bar; a page that shows it prominently reports failures.
    queryFn: ({ signal }) => call(statisticsCalls.getOnlineCountNow, {}, { signal, quiet: true }),
  });
  const value = query.data?.value;
  useEffect(() => {
    if (value !== undefined) setWxCount(value);
  }, [value]);
}
