import type { ReactNode } from 'react';

/**
 * Whether someone holding `held` may see something limited to `roles`: no limit (undefined or
 * empty) lets everyone; otherwise one held role must be listed. `admin` is not special here: the
 * caller lists it when it should pass (the template's `v-permission` directive works the same way).
 */
export function hasAccess(roles: readonly string[] | undefined, held: string | readonly string[]): boolean {
  if (!roles || roles.length === 0) return true;
  const mine = typeof held === 'string' ? [held] : held;
  return mine.some((r) => roles.includes(r));
}

/**
 * Shows its children only to the roles listed (the template's `v-permission="['admin']"`):
 * `<Access roles={['admin', 'editor']} held={role}>…</Access>`; `fallback` otherwise (nothing by
 * default). It hides; it does not protect: the server decides what a role may do.
 */
export function Access({
  roles,
  held,
  fallback = null,
  children,
}: {
  roles?: readonly string[];
  held: string | readonly string[];
  fallback?: ReactNode;
  children: ReactNode;
}) {
  return <>{hasAccess(roles, held) ? children : fallback}</>;
}
