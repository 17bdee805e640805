import { Outlet, useLocation } from 'react-router';
import { useRouteMeta } from '../app/RootLayout';
import { SupportBanner, SupportChooser } from '../features/support-view/SupportView';
import { useIsOperator, useViewedCompany } from '../stores/support-view';

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
            <SupportBanner />
            <Outlet key={`${viewed.id}:${key}`} />
          </>
        ) : (
          <SupportChooser />
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
