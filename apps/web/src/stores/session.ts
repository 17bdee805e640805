import { TOKEN_COOKIE } from '@wxc/contract/constants';
import type { RoleValue, UserInfo } from '@wxc/contract/domain';
import { create } from 'zustand';
import { getCookie, removeCookie, setCookie } from '../utils/cookies';
import { identityOf } from '../utils/identity';
import { useTags } from './tags';

/**
 * Session store (spec §3): token, name, avatar, introduction, roles, wxCount — and the user info
 * they come from. The token is kept in the Admin-Token cookie. name / avatar / introduction follow
 * the user info (utils/identity.ts); wxCount is kept live by the shell (features/wx-count.ts).
 */
export interface SessionState {
  token: string | undefined;
  user: UserInfo | null;
  /** null until the user info is loaded: the guard fetches it then. */
  roles: RoleValue[] | null;
  /** Shown name: the operator's or the customer's chosen name, else the company name. */
  name: string;
  /** A generated initials avatar (SVG data URL); '' before the user info is loaded. */
  avatar: string;
  /** The characters the avatar shows. */
  avatarText: string;
  /** One line about the account: company and access mode, or 运营管理员. */
  introduction: string;
  /** The company's messaging accounts online now (customers); null until known or for operators. */
  wxCount: number | null;
}

const SIGNED_OUT = {
  user: null,
  roles: null,
  name: '',
  avatar: '',
  avatarText: '',
  introduction: '',
  wxCount: null,
};

export const useSession = create<SessionState>(() => ({
  token: getCookie(TOKEN_COOKIE) || undefined,
  ...SIGNED_OUT,
}));

export function getToken(): string | undefined {
  return useSession.getState().token;
}

function fromUser(user: UserInfo) {
  const { name, avatar, avatarText, introduction } = identityOf(user);
  return { user, roles: user.roles, name, avatar, avatarText, introduction };
}

/** After login or registration: keep the token in the cookie and the user in the store. */
export function signIn(token: string, user: UserInfo): void {
  setCookie(TOKEN_COOKIE, token);
  useSession.setState({ token, ...fromUser(user), wxCount: null });
}

export function setUser(user: UserInfo): void {
  useSession.setState(fromUser(user));
}

export function setWxCount(wxCount: number | null): void {
  if (useSession.getState().wxCount !== wxCount) useSession.setState({ wxCount });
}

/** Forgets the token (cookie included) and the user; the next guarded navigation goes to /login. */
export function resetToken(): void {
  removeCookie(TOKEN_COOKIE);
  useSession.setState({ token: undefined, ...SIGNED_OUT });
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
