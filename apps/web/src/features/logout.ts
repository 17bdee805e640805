import * as authCalls from '@wxc/contract/calls/auth';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../api/client';
import { logoutLocal } from '../stores/session';

/**
 * Logout: the service revokes the token first (a failure there must not keep anyone logged in
 * here), then the console forgets token, roles, cookie, cache, session storage and tabs.
 */
export async function logout(): Promise<void> {
  await call(authCalls.logout, {}, { quiet: true }).catch(() => undefined);
  logoutLocal();
}

export function useLogout() {
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout();
    navigate('/login', { replace: true });
  }, [navigate]);
}
