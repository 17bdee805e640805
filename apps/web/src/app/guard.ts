import type { RoleValue } from '@wxc/contract/domain';
import { canSee } from './access';
import { findShellRoute, WHITE_LIST } from './routes';

/**
 * The navigation guard's decision (spec §2), a pure function of where we go and what we know:
 * - with a token: /login (and /register, the same screen) go to /; without roles, load the user
 *   first; a route the roles don't allow goes to /401;
 * - without a token: only the white list is open; anything else goes to /login?redirect=<path>.
 * The loader in navigation.ts carries it out.
 */
export interface GuardInput {
  pathname: string;
  /** Query string with its `?`, or ''. */
  search: string;
  hasToken: boolean;
  roles: readonly RoleValue[] | null;
}

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'load-user' };

export function loginRedirect(fullPath: string): string {
  return fullPath && fullPath !== '/' ? `/login?redirect=${encodeURIComponent(fullPath)}` : '/login';
}

export function decide({ pathname, search, hasToken, roles }: GuardInput): GuardDecision {
  if (hasToken) {
    if (pathname === '/login' || pathname === '/register') return { kind: 'redirect', to: '/' };
    if (!roles || roles.length === 0) return { kind: 'load-user' };
    const route = findShellRoute(pathname);
    if (route && !canSee(route.meta.roles, roles)) return { kind: 'redirect', to: '/401' };
    return { kind: 'allow' };
  }
  if (WHITE_LIST.includes(pathname)) return { kind: 'allow' };
  return { kind: 'redirect', to: loginRedirect(pathname + search) };
}

/**
 * Where to go after login: the `redirect` query if it is a path of this site (never another
 * origin, never back to the login screen), else home.
 */
export function safeRedirect(redirect: string | null | undefined): string {
  if (!redirect?.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  const path = redirect.split(/[?#]/)[0] ?? '';
  if (path === '/login' || path === '/register') return '/';
  return redirect;
}
