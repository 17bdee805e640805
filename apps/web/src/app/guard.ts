import { Role, type RoleValue } from '@wxc/contract/domain';
import type { ShowcaseRole } from '../stores/showcase';
import { isSignInPath, loginRedirect } from '../utils/redirects';
import { canSee } from './access';
import { findShellRoute, HOME_PATH, OPERATOR_HOME, WHITE_LIST } from './routes';
import { showcaseTable } from './showcase-table';

/**
 * The navigation guard's decision (spec §2), a pure function of where we go and what we know:
 * - with a token: /login (and /register, the same screen) go to /; without roles, load the user
 *   first; a route the roles don't allow goes to /401;
 * - an operator landing on / or /dashboard without a company chosen for the support view goes to
 *   the operator area (the customer dashboard shows a company, and an operator is none);
 * - a template showcase path: /404 while the switch is off (or for a bad article id), /401 when the
 *   showcase role may not see it, a parent's own path to its first page;
 * - without a token: only the white list is open; anything else goes to /login?redirect=<path>.
 * The loader in navigation.ts carries it out.
 */
export interface GuardInput {
  pathname: string;
  /** Query string with its `?`, or ''. */
  search: string;
  hasToken: boolean;
  roles: readonly RoleValue[] | null;
  /** An operator has chosen a company to read (stores/support-view.ts). */
  supportView?: boolean;
  /** The SHOWCASE switch (siteInfo.showcase): off, every showcase path is unknown (/404). */
  showcase?: boolean;
  /** The showcase role (stores/showcase.ts), for the showcase routes' roles. */
  showcaseRole?: ShowcaseRole;
}

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'load-user' };

export { loginRedirect, safeRedirect } from '../utils/redirects';

/** Open whatever the session: the sign-in hand-off checks its own token (a stale one in the cookie
 * must not send it to the login screen, losing the hand-off). */
export const HANDOFF_PATH = '/auth-redirect';

export function decide({
  pathname,
  search,
  hasToken,
  roles,
  supportView = false,
  showcase = false,
  showcaseRole = 'editor',
}: GuardInput): GuardDecision {
  if (pathname === HANDOFF_PATH) return { kind: 'allow' };
  if (hasToken) {
    if (isSignInPath(pathname)) return { kind: 'redirect', to: '/' };
    if (!roles || roles.length === 0) return { kind: 'load-user' };
    const route = findShellRoute(pathname);
    if (route && !canSee(route.meta.roles, roles)) return { kind: 'redirect', to: '/401' };
    // The showcase's table is there whenever a path of it is opened with the switch on (the router
    // loads it first); with the switch off it usually is not, and the path is unknown: /404 either way.
    const table = route ? undefined : showcaseTable();
    const demo = table?.matchShowcase(pathname);
    if (table && demo) {
      if (!showcase || demo.kind === 'invalid') return { kind: 'redirect', to: '/404' };
      if (!table.canSeeShowcase(demo.roles, showcaseRole)) return { kind: 'redirect', to: '/401' };
      if (demo.kind === 'redirect') return { kind: 'redirect', to: demo.to };
    }
    const home = pathname === '/' || findShellRoute(pathname)?.path === HOME_PATH;
    if (home && roles.includes(Role.ADMIN) && !supportView) return { kind: 'redirect', to: OPERATOR_HOME };
    return { kind: 'allow' };
  }
  if (WHITE_LIST.includes(pathname)) return { kind: 'allow' };
  return { kind: 'redirect', to: loginRedirect(pathname + search) };
}
