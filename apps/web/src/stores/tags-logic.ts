/**
 * Visited-page tabs (spec §2 "tags view"), as pure functions over a list so they are unit-tested.
 * A view is keyed by its full path (path + query), like the template's keep-alive keys.
 * Affix (pinned) views — the dashboard — are always present, first, and cannot be closed.
 */
export interface TagView {
  /** Full path with the query: the key and the link. */
  path: string;
  title: string;
  affix?: boolean;
}

/** Puts the pinned views first (once each) and keeps the rest in visiting order. */
export function withAffix(views: readonly TagView[], affix: readonly TagView[]): TagView[] {
  const pinned = affix.map((a) => ({ ...a, affix: true }));
  const rest = views.filter((v) => !pinned.some((p) => p.path === v.path));
  return [...pinned, ...rest.map((v) => ({ ...v, affix: false }))];
}

/** The path without its query. */
export function pathOnly(fullPath: string): string {
  const q = fullPath.indexOf('?');
  return q === -1 ? fullPath : fullPath.slice(0, q);
}

/**
 * Adds a view once, keyed by its full path. `byPath`: the page keeps its own state in the query
 * (a showcase page's ?tab=), so it has one tab per path, whose link follows the latest query.
 */
export function addView(views: readonly TagView[], view: TagView, byPath = false): TagView[] {
  const index = byPath
    ? views.findIndex((v) => pathOnly(v.path) === pathOnly(view.path))
    : views.findIndex((v) => v.path === view.path);
  if (index === -1) return [...views, view];
  const current = views[index]!;
  if (current.title === view.title && current.path === view.path) return views as TagView[];
  const next = [...views];
  next[index] = { ...current, path: view.path, title: view.title };
  return next;
}

export interface CloseResult {
  views: TagView[];
  /** Where to go when the active view was closed; undefined to stay. */
  navigateTo?: string;
}

/** The view to show after the active one is gone: the last one left, or home. */
function lastView(views: readonly TagView[]): string {
  return views.at(-1)?.path ?? '/';
}

export function closeView(views: readonly TagView[], path: string, activePath: string): CloseResult {
  const target = views.find((v) => v.path === path);
  if (!target || target.affix) return { views: views as TagView[] };
  const next = views.filter((v) => v.path !== path);
  return path === activePath ? { views: next, navigateTo: lastView(next) } : { views: next };
}

export function closeOthers(views: readonly TagView[], path: string, activePath: string): CloseResult {
  const next = views.filter((v) => v.affix || v.path === path);
  return path === activePath ? { views: next } : { views: next, navigateTo: path };
}

export function closeAll(views: readonly TagView[], activePath: string): CloseResult {
  const next = views.filter((v) => v.affix);
  // Stay when the active page is pinned; otherwise go home: the first pinned tab (the dashboard,
  // not the showcase's 文档 pinned after it), or / when nothing is pinned.
  return next.some((v) => v.path === activePath)
    ? { views: next }
    : { views: next, navigateTo: next[0]?.path ?? '/' };
}
