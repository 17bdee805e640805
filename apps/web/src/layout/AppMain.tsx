import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useRouteMeta } from '../app/RootLayout';
import { useIsOperator, useViewedCompany } from '../stores/support-view';

// Operators only (the support view); the top bar's company switcher, from the same chunk, loads it
// as soon as an operator's shell is up.
const SupportBanner = lazy(() =>
  import('../features/support-view/SupportView').then((m) => ({ default: m.SupportBanner })),
);
const SupportChooser = lazy(() =>
  import('../features/support-view/SupportView').then((m) => ({ default: m.SupportChooser })),
);

/**
 * The page area, keyed by the full path: a new path (or query) mounts the page afresh. A tab's 刷新
 * goes through /redirect/<path> (app/redirect.ts), which changes the key twice.
 *
 * An operator on a customer page reads it through the support view: with a company chosen, the
 * page (keyed by the company too, so a switch mounts it afresh) under the 正在查看 banner; without
 * one, a company chooser instead of the page.
 */
export function AppMain() {
  const location = useLocation();
  const handle = useRouteMeta();
  const operator = useIsOperator();
  const viewed = useViewedCompany();
  const key = location.pathname + location.search;
  if (operator && handle?.meta.customer) {
    return (
      <main className="app-main">
        {viewed ? (
          <>
            <Suspense fallback={null}>
              <SupportBanner />
            </Suspense>
            <Outlet key={`${viewed.id}:${key}`} />
          </>
        ) : (
          <Suspense fallback={null}>
            <SupportChooser />
          </Suspense>
        )}
      </main>
    );
  }
  return (
    <main className="app-main">
      <Outlet key={key} />
    </main>
  );
}
