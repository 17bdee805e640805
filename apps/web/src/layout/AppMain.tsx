import { Outlet, useLocation } from 'react-router';

/**
 * The page area, keyed by the full path: a new path (or query) mounts the page afresh. A tab's 刷新
 * goes through /redirect/<path> (app/redirect.ts), which changes the key twice.
 */
export function AppMain() {
  const location = useLocation();
  return (
    <main className="app-main">
      <Outlet key={location.pathname + location.search} />
    </main>
  );
}
