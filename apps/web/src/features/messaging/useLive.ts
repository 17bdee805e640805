import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { getToken, onLogout } from '../../stores/session';
import { useReadOnly } from '../../stores/support-view';
import { commerceKeys } from '../commerce/keys';
import { onboardingKeys } from '../onboarding/keys';
import { createInvalidator, messagingKeys } from './keys';
import { createLiveConnection, type LiveStatus } from './live';
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
  const supportView = useReadOnly();
  useEffect(() => {
    // The support view has no live events (they are the company's own): what they would refresh
    // is refetched on a timer and whenever the tab regains focus instead.
    if (supportView) return pollWhileViewing(client);
    const invalidate = invalidatorFor(client);
    return liveConnection.subscribe((event) => {
      invalidate(event);
      ref.current?.(event);
    });
  }, [client, supportView]);
}

/** How often the support view refreshes what live events would (ms). */
export const SUPPORT_VIEW_REFRESH_MS = 15_000;

/**
 * Everything the company's own activity may change: accounts, figures, records, messages,
 * deliveries, the checklist, and its packages, orders and sub-accounts.
 */
function refreshAll(client: QueryClient) {
  for (const queryKey of [messagingKeys.all, onboardingKeys.all, commerceKeys.all])
    void client.invalidateQueries({ queryKey });
}

/** One timer per tab however many components listen (a page and its dialogs). */
let pollers = 0;
let stopPolling: (() => void) | null = null;

function pollWhileViewing(client: QueryClient): () => void {
  pollers += 1;
  if (pollers === 1) {
    const timer = setInterval(() => refreshAll(client), SUPPORT_VIEW_REFRESH_MS);
    const onFocus = () => refreshAll(client);
    window.addEventListener('focus', onFocus);
    stopPolling = () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }
  return () => {
    pollers -= 1;
    if (pollers === 0) {
      stopPolling?.();
      stopPolling = null;
    }
  };
}

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(liveConnection.onStatus, liveConnection.status, liveConnection.status);
}
