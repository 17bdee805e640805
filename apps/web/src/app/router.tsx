import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  type PatchRoutesOnNavigationFunction,
  type RouteObject,
  redirect,
} from 'react-router';
import { useSite } from '../stores/site';
import { guardLoader, loadSiteInfo } from './guard-loader';
import { RootErrorBoundary, RootFallback, RootLayout } from './RootLayout';
import { REDIRECT_PREFIX } from './redirect-route';
import { type AppRoute, HOME_PATH, publicRoutes, shellRoutes } from './routes';
import { loadShowcaseTable, type ShowcaseTable } from './showcase-table';

/** Route objects from the route table: each page is its own lazily loaded chunk. */
function toRouteObject(route: AppRoute): RouteObject {
  return {
    path: route.path,
    handle: { meta: route.meta, path: route.path },
    lazy: async () => ({ Component: (await route.load()).default }),
  };
}

/** The template showcase's pages and its parents' own paths (which lead to their first page). */
export function showcaseRouteObjects(table: ShowcaseTable): RouteObject[] {
  return [
    ...table.showcaseRoutes.map(toRouteObject),
    ...table.showcaseRedirects.map(({ path, to }) => ({ path, loader: () => redirect(to) })),
  ];
}

/**
 * The router asks this before it opens a path that only the catch-all (or a pattern with
 * parameters) matches: while the SHOWCASE switch is on, the showcase's routes join the shell's once.
 * With the switch off they never do, so each showcase path is unknown (/404), as the guard says.
 */
const patchShowcaseRoutes: PatchRoutesOnNavigationFunction = async ({ patch, signal }) => {
  if (patched) return;
  await loadSiteInfo();
  if (!useSite.getState().showcase) return;
  const table = await loadShowcaseTable();
  // A navigation overtaken by another (a link clicked while the first load still waits) has its
  // patch ignored by the router: only a patch that took counts, or the next one would skip it.
  if (patched || signal.aborted) return;
  patch('shell', showcaseRouteObjects(table));
  patched = true;
};
let patched = false;

/**
 * The route tree around `Shell` (layout/Shell, handed in by main.tsx: app/ sits below layout/).
 * The shell is part of the entry (vite.config.ts, chunk groups): every console page needs it, and a
 * lazy shell split what it shares with the pages into dozens of small files.
 */
export const buildRoutes = (Shell: ComponentType): RouteObject[] => [
  {
    id: 'root',
    loader: guardLoader,
    // The guard runs on every navigation, not only when params change.
    shouldRevalidate: () => true,
    Component: RootLayout,
    HydrateFallback: RootFallback,
    ErrorBoundary: RootErrorBoundary,
    children: [
      ...publicRoutes.map(toRouteObject),
      {
        id: 'shell',
        Component: Shell,
        children: [
          { index: true, loader: () => redirect(HOME_PATH) },
          ...shellRoutes.map(toRouteObject),
          // The template showcase's routes are patched in here (patchShowcaseRoutes).
          // The tab 刷新 helper: no title, no tab, replaces itself with the page it names.
          {
            path: `${REDIRECT_PREFIX}/*`,
            lazy: async () => ({ Component: (await import('../layout/Redirect')).default }),
          },
        ],
      },
      { path: '*', loader: () => redirect('/404') },
    ],
  },
];

export function createRouter(Shell: ComponentType) {
  return createBrowserRouter(buildRoutes(Shell), { patchRoutesOnNavigation: patchShowcaseRoutes });
}
