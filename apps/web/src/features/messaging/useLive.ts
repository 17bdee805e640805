import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { getToken, onLogout } from '../../stores/session';
import { createLiveConnection, type LiveStatus } from './live';
import { createInvalidator } from './queries';
import type { LiveEvent } from './sse';

/** The tab's one live-event connection; a logout ends it (and a new login's pages start it again). */
export const liveConnection = createLiveConnection({
  fetch: (input, init) => fetch(input, init),
  getToken,
});
onLogout(() => liveConnection.stop());

const invalidators = new WeakMap<QueryClient, (event: LiveEvent) => void>();
function invalidatorFor(client: QueryClient) {
  let found = invalidators.get(client);
  if (!found) {
    found = createInvalidator(client);
    invalidators.set(client, found);
  }
  return found;
}

/**
 * Listens to live events while the component is mounted: queries they make stale are refetched
 * (batched, once per tab), and `handler` (optional) sees every event.
 */
export function useLiveEvents(handler?: (event: LiveEvent) => void): void {
  const client = useQueryClient();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const invalidate = invalidatorFor(client);
    return liveConnection.subscribe((event) => {
      invalidate(event);
      ref.current?.(event);
    });
  }, [client]);
}

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(liveConnection.onStatus, liveConnection.status, liveConnection.status);
}
