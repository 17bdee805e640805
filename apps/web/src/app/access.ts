import { Role, type RoleValue } from '@wxc/contract/domain';
import type { MenuGroup } from './routes';

/**
 * Role access (spec §5, §6), as pure functions. A route with meta.roles shows only to users holding
 * one of them; `admin` sees everything. Hiding is not the protection — the service checks every call
 * — but a typed URL to a route the user may not see shows /401, never the page (see guard.ts).
 */
export function canSee(
  routeRoles: readonly RoleValue[] | undefined,
  userRoles: readonly RoleValue[],
): boolean {
  if (userRoles.includes(Role.ADMIN)) return true;
  if (!routeRoles || routeRoles.length === 0) return true;
  return routeRoles.some((r) => userRoles.includes(r));
}

/** The menu a user sees: forbidden and hidden routes removed, empty groups dropped. */
export function filterMenu(groups: readonly MenuGroup[], userRoles: readonly RoleValue[]): MenuGroup[] {
  return groups
    .map((g) => ({ ...g, routes: g.routes.filter((r) => !r.hidden && canSee(r.meta.roles, userRoles)) }))
    .filter((g) => g.routes.length > 0);
}
