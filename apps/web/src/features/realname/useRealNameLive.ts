import * as authCalls from '@wxc/contract/calls/auth';
import { useEffect } from 'react';
import { call } from '../../api/client';
import { setUser, useSession } from '../../stores/session';
import { liveConnection } from '../messaging/useLive';

/** While a review is pending, the status is re-read this often (besides focus and live events). */
export const REVIEW_POLL_MS = 15_000;

/** Re-reads the user info quietly and keeps the session (and so the badge) in step. */
export async function refreshRealName(): Promise<void> {
  if (!useSession.getState().token) return;
  try {
    const user = await call(authCalls.refreshLoginInfo, {}, { quiet: true });
    const current = useSession.getState().user;
    if (current && current.realNameUser !== user.realNameUser)
      setUser({ ...current, realNameUser: user.realNameUser });
  } catch {
    // a failed refresh changes nothing; the next one will tell
  }
}

/**
 * Keeps the top bar's real-name badge live: a `realname` event on the tab's live connection
 * (/api/events) updates it at once; as a fallback the status is re-read when the tab comes back into
 * view, and every REVIEW_POLL_MS while a review is pending (the only state an operator changes).
 */
export function useRealNameLive(): void {
  const status = useSession((s) => s.user?.realNameUser);
  const isCustomer = useSession((s) => !!s.user && !s.user.roles.includes('admin'));
  useEffect(() => {
    if (!isCustomer) return;
    // The tab's one live connection (the shell's wx-count badge holds it open already).
    return liveConnection.subscribe((event) => {
      if (event.kind === 'realname') onRealNameEvent(event.status);
    });
  }, [isCustomer]);
  useEffect(() => {
    if (!isCustomer) return;
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refreshRealName();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    const timer = status === 2 ? window.setInterval(() => void refreshRealName(), REVIEW_POLL_MS) : undefined;
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
      if (timer !== undefined) window.clearInterval(timer);
    };
  }, [status, isCustomer]);
}

/** A live `realname` event: the status it carries is the company's new one. */
export function onRealNameEvent(status: number): void {
  const user = useSession.getState().user;
  if (user && user.realNameUser !== status) setUser({ ...user, realNameUser: status });
}
