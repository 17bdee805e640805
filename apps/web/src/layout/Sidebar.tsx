import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { filterMenu } from '../app/access';
import { shellGroups } from '../app/routes';
import { useApp } from '../stores/app';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { useSite } from '../stores/site';
import { ROUTE_ICONS } from './icons';

type Items = NonNullable<MenuProps['items']>;

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
    return out;
  }, [roles]);

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
          onClick={({ key }) => navigate(key)}
        />
      </div>
    </aside>
  );
}
