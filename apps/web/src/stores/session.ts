import { TOKEN_COOKIE } from '@wxc/contract/constants';
import type { RoleValue, UserInfo } from '@wxc/contract/domain';
import { create } from 'zustand';
import { getCookie, removeCookie, setCookie } from '../utils/cookies';
import { useTags } from './tags';

/** Session store (spec §3): the token (kept in the Admin-Token cookie), the user info and roles. */
export interface SessionState {
  token: string | undefined;
  user: UserInfo | null;
  /** null until the user info is loaded: the guard fetches it then. */
  roles: RoleValue[] | null;
}

export const useSession = create<SessionState>(() => ({
  token: getCookie(TOKEN_COOKIE) || undefined,
  user: null,
  roles: null,
}));

export function getToken(): string | undefined {
  return useSession.getState().token;
}

/** After login or registration: keep the token in the cookie and the user in the store. */
export function signIn(token: string, user: UserInfo): void {
  setCookie(TOKEN_COOKIE, token);
  useSession.setState({ token, user, roles: user.roles });
}

export function setUser(user: UserInfo): void {
  useSession.setState({ user, roles: user.roles });
}

/** Forgets the token (cookie included) and the user; the next guarded navigation goes to /login. */
export function resetToken(): void {
  removeCookie(TOKEN_COOKIE);
  useSession.setState({ token: undefined, user: null, roles: null });
}

const logoutHooks = new Set<() => void>();
/** Lets the shell register what else a logout clears (the query cache), without importing it here. */
export function onLogout(hook: () => void): () => void {
  logoutHooks.add(hook);
  return () => logoutHooks.delete(hook);
}

/** Spec §4: logout clears token, roles, cookie, routes (roles), session storage and tabs. */
export function logoutLocal(): void {
  resetToken();
  useTags.getState().reset();
  try {
    sessionStorage.clear();
  } catch {
    // storage may be unavailable (private mode); nothing to clear then
  }
  for (const hook of logoutHooks) hook();
}
