import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { type CSSProperties, useEffect } from 'react';
import { useLocation } from 'react-router';
import { type RouteHandle, useRouteMeta } from '../app/RootLayout';
import { affixRoutes } from '../app/routes';
import { useShowcaseTable } from '../app/showcase-table';
import { closeSidebar, isMobileWidth, setDevice, useApp } from '../stores/app';
import { onLogout } from '../stores/session';
import { useSettings } from '../stores/settings';
import { setShowcaseRole } from '../stores/showcase';
import { useSite } from '../stores/site';
import { onSupportViewChange } from '../stores/support-view';
import { ensureAffix, useTags } from '../stores/tags';
import { addView } from '../stores/tags-logic';
import { themeConfig, themeVars } from '../utils/theme';
import { AppMain } from './AppMain';
import { Navbar } from './Navbar';
import { SettingsButton } from './SettingsButton';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import './shell.css';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
// Logout drops every cached answer: the next user must not see the previous one's data.
onLogout(() => queryClient.clear());
// …and the showcase role chosen on the permission page.
onLogout(() => setShowcaseRole(null));
// Another company in the support view: drop every customer answer (the operator's own stay), before
// the pages mount again for the new company.
onSupportViewChange(() => queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'operator' }));

const SIZE_TO_ANTD = { small: 'small', medium: 'middle', large: 'large' } as const;

function useResponsive() {
  useEffect(() => {
    const update = () => {
      const mobile = isMobileWidth(window.innerWidth);
      setDevice(mobile ? 'mobile' : 'desktop');
    };
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
}

function useVisitedTabs(handle: RouteHandle | undefined) {
  const location = useLocation();
  // The showcase's pinned tab (文档) is there from the start while the switch is on, as in the
  // template (meta.affix); with the switch off the product's tab row stays as it was. Until the site
  // settings and the showcase's table have loaded, a pinned showcase tab from this browser session
  // (a pinned tab that is not the product's) stays as it is.
  const showcase = useSite((s) => s.showcase);
  const siteLoaded = useSite((s) => s.loaded);
  const table = useShowcaseTable();
  useEffect(() => {
    const { views, setViews } = useTags.getState();
    const productPinned = affixRoutes.map((r) => ({ path: r.path, title: r.meta.title, affix: true }));
    const showcaseKept = views.filter((v) => v.affix && !affixRoutes.some((r) => r.path === v.path));
    const showcasePinned = table
      ? table.showcaseAffix.map((r) => ({ path: r.path, title: r.meta.title, affix: true }))
      : siteLoaded && !showcase
        ? []
        : showcaseKept;
    ensureAffix([...productPinned, ...showcasePinned]);
    if (siteLoaded && !showcase) {
      // A tab of the showcase left from a session when it was on.
      const now = useTags.getState().views;
      const kept = now.filter((v) => !showcaseKept.some((s) => s.path === v.path));
      if (kept.length !== now.length) setViews(kept);
    }
  }, [showcase, siteLoaded, table]);
  useEffect(() => {
    if (!handle) return;
    const { views, setViews } = useTags.getState();
    const view = { path: location.pathname + location.search, title: handle.meta.title };
    if (handle.meta.affix && handle.meta.showcase) {
      const pinned = views.filter((v) => v.affix && v.path !== view.path);
      if (!views.some((v) => v.path === view.path && v.affix))
        ensureAffix([...pinned, { ...view, affix: true }]);
      return;
    }
    setViews(addView(views, view, handle.meta.tabByPath));
  }, [handle, location.pathname, location.search]);
}

/** The shell around every logged-in page: sidebar, navbar, tabs, settings (spec §2). */
export default function Shell() {
  const theme = useSettings((s) => s.theme);
  const fixedHeader = useSettings((s) => s.fixedHeader);
  const tagsView = useSettings((s) => s.tagsView);
  const { sidebarOpened, withoutAnimation, device, size } = useApp();
  const handle = useRouteMeta();
  const location = useLocation();
  useResponsive();
  useVisitedTabs(handle);

  // On a phone, following a menu link closes the sidebar.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only.
  useEffect(() => {
    if (useApp.getState().device === 'mobile' && useApp.getState().sidebarOpened) closeSidebar();
  }, [location.pathname]);

  const classes = [
    'app-wrapper',
    sidebarOpened ? 'sidebar-open' : 'sidebar-closed',
    device === 'mobile' ? 'mobile' : 'desktop',
    withoutAnimation ? 'without-animation' : '',
  ].join(' ');

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={zhCN} theme={themeConfig(theme)} componentSize={SIZE_TO_ANTD[size]}>
        {/* Not antd's App: its toast and dialog holders stay off the first load (components/feedback). */}
        <div className={classes} style={themeVars(theme) as CSSProperties}>
          {device === 'mobile' && sidebarOpened ? (
            <button
              type="button"
              className="drawer-bg"
              aria-label="关闭菜单"
              onClick={() => closeSidebar()}
            />
          ) : null}
          <Sidebar />
          <div className="main-container">
            <header className={fixedHeader ? 'app-header fixed-header' : 'app-header'}>
              <Navbar />
              {tagsView ? <TagsView /> : null}
            </header>
            <AppMain />
          </div>
          <SettingsButton />
        </div>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
