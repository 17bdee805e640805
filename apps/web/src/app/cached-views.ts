import { pathOnly } from '../stores/tags-logic';
import { findShellRoute, type RouteMeta } from './routes';
import { showcaseTable } from './showcase-table';

/**
 * Cached views (DESIGN.md §10, the template's keep-alive): a visited page stays mounted, hidden,
 * while its tab is open, so switching tabs keeps its state (layout/AppMain.tsx renders each in
 * React's `<Activity>`). These are the rules, as pure functions:
 * - one cached view per tab: keyed like the tab (full path with the query), or by path alone for a
 *   page whose query is its own state (`tabByPath`);
 * - a route marked `noCache` is never kept; the /redirect/* helper (刷新) is none;
 * - a view whose tab is gone (closed, 关闭其他, 关闭所有, logout) is dropped, and so is the page a
 *   刷新 re-opens.
 */
export function routeMetaFor(pathname: string): RouteMeta | undefined {
  const product = findShellRoute(pathname);
  if (product) return product.meta;
  const demo = showcaseTable()?.matchShowcase(pathname);
  return demo?.kind === 'page' ? demo.route.meta : undefined;
}

/** The cache key of a tab's full path; `scope` separates views of different support-view companies. */
export function viewKey(fullPath: string, meta: RouteMeta | undefined, scope = ''): string {
  const key = meta?.tabByPath ? pathOnly(fullPath) : fullPath;
  return scope ? `${scope}|${key}` : key;
}

export function isCached(meta: RouteMeta | undefined): boolean {
  return Boolean(meta) && !meta?.noCache;
}

/**
 * The keys to keep after a navigation: those of the open tabs (with the current scope), plus the
 * page on screen; minus `dropped` (the page a 刷新 is re-opening).
 */
export function keysToKeep(
  cached: Iterable<string>,
  tabKeys: ReadonlySet<string>,
  current: string | null,
  dropped: string | null = null,
): string[] {
  const keep: string[] = [];
  for (const key of cached) {
    if (key === dropped) continue;
    if (key === current || tabKeys.has(key)) keep.push(key);
  }
  return keep;
}
