import type { ShowcaseRoute } from '@wxc/contract/calls/showcase';
import { isExternal } from '../../../app/showcase-table';

/**
 * A role's routes ↔ the checkbox tree of the role page (the template's views/permission/role.vue):
 * the route table (GET routes) becomes tree nodes keyed by full path; a role's route tree gives the
 * checked keys; the checked keys cut the role's route tree back out of the table.
 */

export interface RouteTreeNode {
  key: string;
  title: string;
  children?: RouteTreeNode[];
}

/** A child's full path under its parent's (`/example` + `list` → `/example/list`). */
export function resolvePath(base: string, path: string): string {
  if (isExternal(path)) return path;
  if (path.startsWith('/')) return path;
  const joined = `${base.replace(/\/+$/, '')}/${path}`;
  const clean = joined.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return clean.startsWith('/') ? clean || '/' : `/${clean}`;
}

const visible = (routes: readonly ShowcaseRoute[] | undefined) => (routes ?? []).filter((r) => !r.hidden);

/**
 * The tree of the route table: hidden routes left out; a parent with exactly one visible child and
 * no title of its own (a layout around one page) is shown as that child, as the template's menu does.
 * `titles` maps a full path to the title to show (the console's Chinese menu titles).
 */
export function toTreeData(
  routes: readonly ShowcaseRoute[],
  titles: Record<string, string> = {},
  base = '/',
): RouteTreeNode[] {
  const out: RouteTreeNode[] = [];
  for (const route of visible(routes)) {
    const full = resolvePath(base, route.path);
    const kids = visible(route.children);
    if (kids.length === 1 && !route.meta?.title && !route.alwaysShow) {
      out.push(...toTreeData(kids, titles, full));
      continue;
    }
    const node: RouteTreeNode = { key: full, title: titles[full] ?? route.meta?.title ?? full };
    if (kids.length > 0) node.children = toTreeData(kids, titles, full);
    out.push(node);
  }
  return out;
}

/** Every full path of a route tree (hidden ones too). */
export function allPaths(routes: readonly ShowcaseRoute[] | undefined, base = '/'): string[] {
  return (routes ?? []).flatMap((r) => {
    const full = resolvePath(base, r.path);
    return [full, ...allPaths(r.children, full)];
  });
}

/** The tree's leaf keys. */
export function leafKeys(nodes: readonly RouteTreeNode[]): string[] {
  return nodes.flatMap((n) => (n.children?.length ? leafKeys(n.children) : [n.key]));
}

/**
 * The keys to check for a role: the leaves of the tree the role's routes contain (a parent shows as
 * checked or half-checked from its leaves; antd's Tree works it out).
 */
export function checkedKeysFor(
  tree: readonly RouteTreeNode[],
  roleRoutes: readonly ShowcaseRoute[],
): string[] {
  const has = new Set(allPaths(roleRoutes));
  return leafKeys(tree).filter((k) => has.has(k));
}

/**
 * The role's route tree from the checked keys: the table's routes kept when checked or when one of
 * their descendants is; a kept parent keeps its hidden children (a page's hidden sub-page, like the
 * article editor, goes with it). Parents' own keys need not be in `checked`.
 */
export function routesFromChecked(
  routes: readonly ShowcaseRoute[],
  checked: Iterable<string>,
  base = '/',
): ShowcaseRoute[] {
  const keys = checked instanceof Set ? (checked as Set<string>) : new Set(checked);
  const out: ShowcaseRoute[] = [];
  for (const route of routes) {
    if (route.hidden) continue;
    const full = resolvePath(base, route.path);
    if (route.children?.length) {
      const kept = routesFromChecked(route.children, keys, full);
      if (kept.length === 0 && !keys.has(full)) continue;
      const byPath = new Map(kept.map((k) => [k.path, k]));
      // The table's order; a parent checked on its own brings all its pages.
      const children = route.children.flatMap((c) =>
        c.hidden ? [c] : (byPath.get(c.path) ?? (kept.length === 0 ? [c] : [])),
      );
      out.push({ ...route, children });
    } else if (keys.has(full)) {
      out.push(route);
    }
  }
  return out;
}
