import * as authCalls from '@wxc/contract/calls/auth';
import { useCallback } from 'react';
import { call } from '../api/client';
import { getToken, logoutLocal } from '../stores/session';
import { navigateTo } from '../utils/navigate';

/**
 * Logout: the console forgets token, roles, cookie, cache, session storage and tabs at once (so a
 * page's call refused meanwhile can't ask to "log in again"), then the service revokes the token
 * it was given; a failure there must not keep anyone logged in here.
 */
export async function logout(): Promise<void> {
  const token = getToken();
  logoutLocal();
  if (token) await call(authCalls.logout, {}, { quiet: true, token }).catch(() => undefined);
}

/** Logs out, then on to the sign-in page (a page of its own: a full page load). */
export function useLogout() {
  return useCallback(async () => {
    await logout();
    navigateTo('/login', true);
  }, []);
}
