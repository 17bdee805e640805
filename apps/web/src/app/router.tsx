import { createBrowserRouter, type RouteObject, redirect } from 'react-router';
import { guardLoader } from './guard-loader';
import { RootErrorBoundary, RootFallback, RootLayout } from './RootLayout';
import { REDIRECT_PREFIX } from './redirect-route';
import { type AppRoute, HOME_PATH, publicRoutes, shellRoutes } from './routes';
import { showcaseRedirects, showcaseRoutes } from './showcase-routes';

/** Route objects from the route table: each page is its own lazily loaded chunk. */
function toRouteObject(route: AppRoute): RouteObject {
  return {
    path: route.path,
    handle: { meta: route.meta, path: route.path },
    lazy: async () => ({ Component: (await route.load()).default }),
  };
}

export const routes: RouteObject[] = [
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
        lazy: async () => ({ Component: (await import('../layout/Shell')).default }),
        children: [
          { index: true, loader: () => redirect(HOME_PATH) },
          ...shellRoutes.map(toRouteObject),
          // The template showcase: always in the table, opened only while the switch is on (the
          // guard answers /404 otherwise, and the menu leaves it out).
          ...showcaseRoutes.map(toRouteObject),
          ...showcaseRedirects.map(({ path, to }) => ({ path, loader: () => redirect(to) })),
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

export function createRouter() {
  return createBrowserRouter(routes);
}
