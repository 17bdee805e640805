import { findRoute, HOME_PATH, shellGroups } from './routes';
import { SHOWCASE_GROUP_TITLE, showcaseTable } from './showcase-table';

export interface Crumb {
  title: string;
  /** Linked crumbs; the last one (the page itself) and group headings are plain text. */
  path?: string;
}

/** Spec §2 breadcrumbs: home, then the matched titles (menu group, a hidden page's parent, the page). */
export function breadcrumbTrail(path: string | undefined): Crumb[] {
  const demo = path ? showcaseTable()?.findShowcaseRoute(path) : undefined;
  if (demo) {
    // The showcase: its group, then each parent (linked to its own path, which opens its first page).
    return [
      { title: '首页', path: HOME_PATH },
      { title: SHOWCASE_GROUP_TITLE },
      ...demo.ancestors.map((a) => ({ title: a.title, path: a.path })),
      { title: demo.route.meta.title },
    ];
  }
  const route = path ? findRoute(path) : undefined;
  if (!route || route.path === HOME_PATH) return [{ title: '首页' }];
  const trail: Crumb[] = [{ title: '首页', path: HOME_PATH }];
  const group = shellGroups.find((g) => g.routes.includes(route));
  if (group?.title && !route.hidden) trail.push({ title: group.title });
  const parent = route.meta.parent ? findRoute(route.meta.parent) : undefined;
  if (parent) trail.push({ title: parent.meta.title, path: parent.path });
  trail.push({ title: route.meta.title });
  return trail;
}
