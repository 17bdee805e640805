import { Outlet, useLocation } from 'react-router';
import { useTags } from '../stores/tags';

/** The page area. A tab's 刷新 bumps its key, which re-mounts the page. */
export function AppMain() {
  const location = useLocation();
  const fullPath = location.pathname + location.search;
  const refreshKey = useTags((s) => s.refreshKeys[fullPath] ?? 0);
  return (
    <main className="app-main">
      <Outlet key={`${fullPath}#${refreshKey}`} />
    </main>
  );
}
