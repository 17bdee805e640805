import { Activity, lazy, type ReactNode, Suspense, useRef } from 'react';
import {
  type Location,
  type NavigationType,
  UNSAFE_LocationContext,
  useLocation,
  useNavigationType,
  useOutlet,
} from 'react-router';
import { isCached, keysToKeep, routeMetaFor, viewKey } from '../app/cached-views';
import { useRouteMeta } from '../app/RootLayout';
import { isRedirectPath, REDIRECT_PREFIX, redirectTarget } from '../app/redirect-route';
import type { RouteMeta } from '../app/routes';
import { useIsOperator, useViewedCompany } from '../stores/support-view';
import { useTags } from '../stores/tags';
import { pathOnly } from '../stores/tags-logic';

// Operators only (the support view); the top bar's company switcher, from the same chunk, loads it
// as soon as an operator's shell is up.
const SupportBanner = lazy(() =>
  import('../features/support-view/SupportView').then((m) => ({ default: m.SupportBanner })),
);
const SupportChooser = lazy(() =>
  import('../features/support-view/SupportView').then((m) => ({ default: m.SupportChooser })),
);

interface CachedView {
  element: ReactNode;
  /** The location the page was last shown at: a hidden page keeps reading it (its own query). */
  location: { location: Location; navigationType: NavigationType };
}

/**
 * The page area, with cached views (app/cached-views.ts): every visited page whose tab is open stays
 * mounted inside React's `<Activity>`, hidden while another tab is on screen — its state kept, its
 * effects (requests, timers, live subscriptions, focus) stopped until it is shown again. A route
 * marked noCache mounts afresh on every visit. Closing its tab drops a view; a tab's 刷新 goes through
 * /redirect/<path> (layout/Redirect.tsx), which drops the view first, so the page mounts afresh.
 *
 * An operator on a customer page reads it through the support view: with a company chosen, the
 * page (cached per company, so a switch mounts it afresh) under the 正在查看 banner; without one, a
 * company chooser instead of the page.
 */
export function AppMain() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const outlet = useOutlet();
  const handle = useRouteMeta();
  const operator = useIsOperator();
  const viewed = useViewedCompany();
  const views = useTags((s) => s.views);
  const cache = useRef(new Map<string, CachedView>()).current;

  const scopeOf = (meta: RouteMeta | undefined) =>
    operator && meta?.customer && viewed ? `company:${viewed.id}` : '';
  const keyOf = (fullPath: string, meta: RouteMeta | undefined) => viewKey(fullPath, meta, scopeOf(meta));

  const full = location.pathname + location.search;
  const redirecting = isRedirectPath(location.pathname);
  const meta = redirecting ? undefined : handle?.meta;
  const supportPage = operator && Boolean(meta?.customer);
  const chooser = supportPage && !viewed;
  const current = !chooser && isCached(meta) ? keyOf(full, meta) : null;

  // 刷新: the page the helper re-opens is dropped now, so it mounts afresh.
  let dropped: string | null = null;
  if (redirecting) {
    const target = redirectTarget(location.pathname.slice(REDIRECT_PREFIX.length), location.search);
    dropped = keyOf(target, routeMetaFor(pathOnly(target)));
  }
  if (current && outlet) cache.set(current, { element: outlet, location: { location, navigationType } });
  const tabKeys = new Set(views.map((v) => keyOf(v.path, routeMetaFor(pathOnly(v.path)))));
  const keep = new Set(keysToKeep(cache.keys(), tabKeys, current, dropped));
  for (const key of [...cache.keys()]) if (!keep.has(key)) cache.delete(key);

  const banner =
    supportPage && viewed ? (
      <Suspense fallback={null}>
        <SupportBanner />
      </Suspense>
    ) : null;
  // Each view has a wrapper of its own, outside its <Activity> (so its class changes at once, not at
  // the hidden tree's low priority): the one on screen is `.app-main` (the page area, padded), the
  // hidden ones `.app-main-cached` (not displayed). Only a class changes when a view is shown or
  // hidden, so the page under it keeps its place in the tree, and its state.
  return (
    <main className="app-views">
      {chooser ? (
        <div className="app-main">
          <Suspense fallback={null}>
            <SupportChooser />
          </Suspense>
        </div>
      ) : current ? null : (
        <div className="app-main" key={`${scopeOf(meta)}|${full}`}>
          {banner}
          {outlet}
        </div>
      )}
      {[...cache].map(([key, view]) => (
        <div key={key} className={key === current ? 'app-main' : 'app-main-cached'} data-view={key}>
          {key === current ? banner : null}
          <Activity mode={key === current ? 'visible' : 'hidden'}>
            <UNSAFE_LocationContext.Provider value={view.location}>
              {view.element}
            </UNSAFE_LocationContext.Provider>
          </Activity>
        </div>
      ))}
    </main>
  );
}
