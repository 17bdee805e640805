import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { useRouteMeta } from '../app/RootLayout';
import { findRoute, HOME_PATH, shellGroups } from '../app/routes';

/** Home, then the matched titles: the menu group, a hidden page's parent, the page (spec §2). */
export function breadcrumbTrail(path: string | undefined): Array<{ title: string; path?: string }> {
  const home = { title: '首页', path: HOME_PATH };
  const route = path ? findRoute(path) : undefined;
  if (!route || route.path === HOME_PATH) return [{ title: '首页' }];
  const trail: Array<{ title: string; path?: string }> = [home];
  const group = shellGroups.find((g) => g.routes.includes(route));
  if (group?.title && !route.hidden) trail.push({ title: group.title });
  const parent = route.meta.parent ? findRoute(route.meta.parent) : undefined;
  if (parent) trail.push({ title: parent.meta.title, path: parent.path });
  trail.push({ title: route.meta.title });
  return trail;
}

export function Breadcrumbs() {
  const handle = useRouteMeta();
  const trail = breadcrumbTrail(handle?.path);
  return (
    <Breadcrumb
      className="app-breadcrumb"
      items={trail.map((item) => ({
        title: item.path ? <Link to={item.path}>{item.title}</Link> : item.title,
      }))}
    />
  );
}
