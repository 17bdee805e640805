import { useEffect } from 'react';
import {
  isRouteErrorResponse,
  Outlet,
  useLocation,
  useMatches,
  useNavigate,
  useRouteError,
} from 'react-router';
import { useSettings } from '../stores/settings';
import { useSite } from '../stores/site';
import { registerNavigate } from '../utils/navigate';
import { errorReporter, errorReportingOn } from './error-reporting';
import { pageTitle } from './page-title';
import { isRedirectPath } from './redirect-route';
import type { RouteMeta } from './routes';

export interface RouteHandle {
  meta: RouteMeta;
  path: string;
}

/** The innermost matched route's table entry (title, icon, roles…). */
export function useRouteMeta(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.meta) return handle;
  }
  return undefined;
}

export function RootLayout() {
  const navigate = useNavigate();
  const handle = useRouteMeta();
  const productTitle = useSite((s) => s.productTitle);
  const theme = useSettings((s) => s.theme);

  useEffect(() => registerNavigate(navigate), [navigate]);
  // The theme colour reaches the plain-CSS screens (sign-in, 404) too, not only antd; the shell adds
  // the accents derived from it (app/theme.ts themeVars), which only it needs.
  useEffect(() => {
    document.documentElement.style.setProperty('--wxc-primary', theme);
  }, [theme]);
  useEffect(() => {
    document.title = pageTitle(handle?.meta.title, productTitle);
  }, [handle, productTitle]);
  // Page views for the operator's visitor counts (features/visit.ts).
  const { pathname } = useLocation();
  // Loaded on demand: its call definition pulls the operator schemas, which the login page doesn't need.
  // The /redirect/ hop of a tab's 刷新 is no page of its own: the page it opens counts.
  useEffect(() => {
    if (isRedirectPath(pathname)) return;
    void import('../features/visit').then((m) => m.trackVisit(pathname));
  }, [pathname]);

  return <Outlet />;
}

export function RootFallback() {
  return (
    <div className="boot-loading" role="status" aria-label="加载中">
      <span className="boot-spinner" />
    </div>
  );
}

function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|ChunkLoadError|Loading chunk/i.test(
    text,
  );
}

/**
 * Last line of defence. After a deploy an old page may ask for a chunk that no longer exists:
 * offer a reload instead of a blank page.
 */
export function RootErrorBoundary() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  // The error log: what a page threw while rendering (production builds; not a route's 404 answer).
  useEffect(() => {
    if (errorReportingOn && !isRouteErrorResponse(error)) errorReporter.report('react', error);
  }, [error]);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : '';
  return (
    <div className="status-page">
      <div className="status-card">
        <div className="status-code">{chunk ? '已更新' : '出错了'}</div>
        <h1>{chunk ? '页面资源已更新' : '页面出现了问题'}</h1>
        <p>
          {chunk
            ? '控制台刚刚发布了新版本，请刷新页面后继续。'
            : '请刷新页面重试；如果问题持续出现，请联系客服。'}
        </p>
        {!chunk && detail ? <p className="status-detail">{detail}</p> : null}
        <div className="status-actions">
          <button type="button" className="btn btn-primary" onClick={() => location.reload()}>
            刷新页面
          </button>
          <a className="btn" href="/">
            返回首页
          </a>
        </div>
      </div>
    </div>
  );
}
