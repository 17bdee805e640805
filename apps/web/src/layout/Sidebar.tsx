import { Menu, type MenuProps } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { filterMenu } from '../app/access';
import { shellGroups } from '../app/routes';
import type { ShowcaseIcon, ShowcaseNode } from '../app/showcase-routes';
import { isExternal, SHOWCASE_GROUP_TITLE, useShowcaseTable } from '../app/showcase-table';
import { useApp } from '../stores/app';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { showcaseRoleFor, useShowcase } from '../stores/showcase';
import { useSite } from '../stores/site';
import { ROUTE_ICONS } from './icons';

type Items = NonNullable<MenuProps['items']>;
type Icons = Record<ShowcaseIcon, ReactNode> | null;

/** The showcase's menu entries: sub-menus for parents, a new-tab link for the external entry. */
function showcaseItems(nodes: readonly ShowcaseNode[], icons: Icons): Items {
  return nodes.map((n) => {
    const icon = n.icon && icons ? icons[n.icon] : undefined;
    if (isExternal(n.path)) {
      return {
        key: n.path,
        icon,
        label: (
          <a href={n.path} target="_blank" rel="noopener noreferrer" data-testid="external-link">
            {n.title}
          </a>
        ),
      };
    }
    if (n.children) return { key: n.path, icon, label: n.title, children: showcaseItems(n.children, icons) };
    return { key: n.path, icon, label: n.title };
  });
}

/** The parents of the page on screen: their sub-menus open. */
function parentsOf(nodes: readonly ShowcaseNode[], pathname: string, trail: string[] = []): string[] {
  for (const n of nodes) {
    if (n.path === pathname) return trail;
    if (n.children) {
      const found = parentsOf(n.children, pathname, [...trail, n.path]);
      if (found.length) return found;
    }
  }
  return [];
}

/** The showcase menu for the showcase role; nothing while the switch is off or its table loads. */
function useShowcaseMenu(): { items: Items; tree: ShowcaseNode[] } {
  const on = useSite((s) => s.showcase);
  const table = useShowcaseTable();
  const roles = useSession((s) => s.roles);
  const override = useShowcase((s) => s.override);
  const [icons, setIcons] = useState<Icons>(null);
  useEffect(() => {
    if (!on || icons) return;
    let live = true;
    void import('./showcase-icons').then((m) => live && setIcons(m.SHOWCASE_ICONS));
    return () => {
      live = false;
    };
  }, [on, icons]);
  return useMemo(() => {
    if (!on || !table) return { items: [], tree: [] };
    const tree = table.filterShowcase(table.showcaseTree, showcaseRoleFor(roles, override));
    return {
      tree,
      items: [
        {
          type: 'group',
          key: `group:${SHOWCASE_GROUP_TITLE}`,
          label: SHOWCASE_GROUP_TITLE,
          children: showcaseItems(tree, icons),
        },
      ] as Items,
    };
  }, [on, table, roles, override, icons]);
}

export function Sidebar() {
  const roles = useSession((s) => s.roles) ?? [];
  const userFlag = useSession((s) => s.user?.serverFlag);
  const { productTitle, serverFlag: siteFlag } = useSite();
  const showLogo = useSettings((s) => s.sidebarLogo);
  const { sidebarOpened, device } = useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const collapsed = device === 'desktop' && !sidebarOpened;
  const formal = (userFlag ?? siteFlag) === 'formal';
  const showcase = useShowcaseMenu();
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  // Opening a page of a sub-menu (from a tab, a link) opens its parents.
  useEffect(() => {
    const parents = parentsOf(showcase.tree, location.pathname);
    if (parents.length) setOpenKeys((keys) => [...new Set([...keys, ...parents])]);
  }, [showcase.tree, location.pathname]);

  const items = useMemo<Items>(() => {
    const out: Items = [];
    for (const group of filterMenu(shellGroups, roles)) {
      const children = group.routes.map((r) => ({
        key: r.path,
        icon: r.meta.icon ? ROUTE_ICONS[r.meta.icon] : undefined,
        label: r.meta.title,
      }));
      if (group.title) out.push({ type: 'group', key: `group:${group.title}`, label: group.title, children });
      else out.push(...children);
    }
    out.push(...showcase.items);
    return out;
  }, [roles, showcase.items]);

  return (
    <aside className={`sidebar${collapsed ? ' collapsed' : ''}`} aria-label="主菜单">
      {showLogo ? (
        // The title gives way (ellipsis, full text in the tooltip); the 正式版 label never does.
        // Collapsed, the label sits under the logo.
        <Link
          to="/"
          className="sidebar-logo"
          title={formal ? `${productTitle}（正式版）` : productTitle}
          aria-label={formal ? `${productTitle} 正式版` : productTitle}
        >
          <img className="sidebar-logo-img" src="/favicon.svg" alt="" width={28} height={28} />
          {collapsed ? null : <span className="sidebar-title">{productTitle}</span>}
          {formal ? (
            <span className="sidebar-flag" data-testid="formal-flag">
              正式版
            </span>
          ) : null}
        </Link>
      ) : null}
      <div className="sidebar-scroll">
        <Menu
          theme="dark"
          mode="inline"
          inlineCollapsed={collapsed}
          selectedKeys={[location.pathname]}
          items={items}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={setOpenKeys}
          // The external entry is a plain link (new tab); every other entry opens its page.
          onClick={({ key }) => {
            if (!isExternal(key)) navigate(key);
          }}
        />
      </div>
    </aside>
  );
}
