/**
 * The tab 刷新 helper route (spec §2 "/redirect/{path*}", inside the shell): opening
 * `/redirect/<path>?<query>` replaces itself at once with `/<path>?<query>`, so the page is
 * mounted afresh. Pure functions here; the route's component is layout/Redirect.tsx.
 */
export const REDIRECT_PREFIX = '/redirect';

/** The helper URL that re-opens `fullPath` (a path of this site, with its query). */
export function refreshPath(fullPath: string): string {
  const path = fullPath.startsWith('/') ? fullPath : `/${fullPath}`;
  return `${REDIRECT_PREFIX}${path}`;
}

/**
 * Where `/redirect/<splat><search>` goes: always a path of this site. Extra leading slashes and
 * backslashes are dropped, so `/redirect//evil.example` can never become a protocol-relative URL.
 */
export function redirectTarget(splat: string | undefined, search = ''): string {
  const path = (splat ?? '').replace(/^[/\\]+/, '');
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  return `/${path}${query}`;
}

export function isRedirectPath(pathname: string): boolean {
  return pathname === REDIRECT_PREFIX || pathname.startsWith(`${REDIRECT_PREFIX}/`);
}
