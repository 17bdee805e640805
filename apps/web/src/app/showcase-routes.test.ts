import { beforeAll, describe, expect, it } from 'vitest';
import { showcaseRoleFor } from '../stores/showcase';
import { breadcrumbTrail } from './breadcrumbs';
import { isCached, keysToKeep, routeMetaFor, viewKey } from './cached-views';
import { decide } from './guard';
import {
  canSeeShowcase,
  EXTERNAL_LINK,
  filterShowcase,
  matchShowcase,
  type ShowcaseNode,
  showcaseAffix,
  showcaseRedirects,
  showcaseRoutes,
  showcaseTree,
} from './showcase-routes';
import { loadShowcaseTable } from './showcase-table';

// The guard, breadcrumbs and cached views read the table once it has loaded (showcase-table.ts).
beforeAll(() => loadShowcaseTable());

/** Every path of a menu tree, parents included. */
const paths = (nodes: readonly ShowcaseNode[]): string[] =>
  nodes.flatMap((n) => [n.path, ...(n.children ? paths(n.children) : [])]);
const node = (path: string) => {
  const find = (nodes: readonly ShowcaseNode[]): ShowcaseNode | undefined => {
    for (const n of nodes) {
      if (n.path === path) return n;
      const inner = n.children && find(n.children);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(showcaseTree)!;
};

describe('showcase route table (spec "Template demo routes")', () => {
  it('has the spec routes, with their meta', () => {
    expect(paths(showcaseTree)).toEqual([
      '/documentation/index',
      '/guide/index',
      '/permission',
      '/permission/page',
      '/permission/directive',
      '/permission/role',
      '/icon/index',
      '/components',
      ...[
        'tinymce',
        'markdown',
        'json-editor',
        'split-pane',
        'avatar-upload',
        'dropzone',
        'sticky',
        'count-to',
        'mixin',
        'back-to-top',
        'drag-dialog',
        'drag-select',
        'dnd-list',
        'drag-kanban',
      ].map((name) => `/components/${name}`),
      '/charts',
      '/charts/keyboard',
      '/charts/line',
      '/charts/mixchart',
      '/nested',
      '/nested/menu1',
      '/nested/menu1/menu1-1',
      '/nested/menu1/menu1-2',
      '/nested/menu1/menu1-2/menu1-2-1',
      '/nested/menu1/menu1-2/menu1-2-2',
      '/nested/menu1/menu1-3',
      '/nested/menu2',
      '/example',
      '/example/create',
      '/example/edit/:id',
      '/example/list',
      '/tab/index',
      '/error',
      '/error/401',
      '/error/404',
      '/error-log/log',
      '/excel',
      '/excel/export-excel',
      '/excel/export-selected-excel',
      '/excel/export-merge-header',
      '/excel/upload-excel',
      '/zip',
      '/zip/download',
      '/pdf/index',
      '/pdf/download',
      '/theme/index',
      '/clipboard/index',
      '/i18n/index',
      EXTERNAL_LINK,
    ]);
    expect(showcaseAffix.map((r) => r.path)).toEqual(['/documentation/index']);
    expect(showcaseRoutes.filter((r) => r.meta.noCache).map((r) => r.path)).toEqual([
      '/guide/index',
      '/charts/keyboard',
      '/charts/line',
      '/charts/mixchart',
      '/example/edit/:id',
      '/pdf/download',
    ]);
    expect(node('/pdf/download').hidden).toBe(true);
    expect(node('/zip').alwaysShow).toBe(true);
    expect(node('/permission')).toMatchObject({ alwaysShow: true, roles: ['admin', 'editor'] });
    expect(node('/permission/page').roles).toEqual(['admin']);
    expect(node('/permission/directive').roles).toBeUndefined();
    expect(node('/permission/role').roles).toEqual(['admin']);
    expect(node('/example/create').title).toBe('Create Article');
    expect(node('/example/list').title).toBe('Article List');
    expect(node('/example/edit/:id')).toMatchObject({ hidden: true, noCache: true });
    expect(showcaseRedirects).toContainEqual({ path: '/example', to: '/example/list' });
    expect(EXTERNAL_LINK).toBe('https://github.com/PanJiaChen/vue-element-admin');
    expect(showcaseRoutes.every((r) => r.meta.showcase)).toBe(true);
  });

  it('shows admin everything, editor all but the admin-only pages, visitor what has no roles', () => {
    const admin = paths(filterShowcase(showcaseTree, 'admin'));
    expect(admin).toContain('/permission/role');
    expect(admin).not.toContain('/example/edit/:id');
    const editor = paths(filterShowcase(showcaseTree, 'editor'));
    expect(editor).toContain('/permission');
    expect(editor).toContain('/permission/directive');
    expect(editor).not.toContain('/permission/page');
    expect(editor).not.toContain('/permission/role');
    const visitor = paths(filterShowcase(showcaseTree, 'visitor'));
    expect(visitor).not.toContain('/permission');
    expect(visitor).not.toContain('/permission/directive');
    expect(visitor).toContain('/documentation/index');
    expect(canSeeShowcase(['admin'], 'admin')).toBe(true);
    expect(canSeeShowcase(undefined, 'visitor')).toBe(true);
    expect(canSeeShowcase(['admin', 'editor'], 'visitor')).toBe(false);
  });

  it('matches paths: pages, parents that redirect, digits-only article ids', () => {
    expect(matchShowcase('/example/edit/12')).toMatchObject({ kind: 'page' });
    expect(matchShowcase('/example/edit/12a')).toEqual({ kind: 'invalid' });
    expect(matchShowcase('/example')).toMatchObject({ kind: 'redirect', to: '/example/list' });
    expect(matchShowcase('/nested/menu1/menu1-2')).toMatchObject({
      kind: 'redirect',
      to: '/nested/menu1/menu1-2/menu1-2-1',
    });
    // A child inherits its parents' roles: /permission/page is admin and (admin|editor) → admin.
    expect(matchShowcase('/permission/page')).toMatchObject({ kind: 'page', roles: ['admin'] });
    expect(matchShowcase('/permission/directive')).toMatchObject({ roles: ['admin', 'editor'] });
    expect(matchShowcase('/dashboard')).toBeUndefined();
    expect(matchShowcase('/errors')).toBeUndefined();
  });

  it('derives the showcase role: operators admin, customers editor, unless switched', () => {
    expect(showcaseRoleFor(['admin'], null)).toBe('admin');
    expect(showcaseRoleFor(['customer'], null)).toBe('editor');
    expect(showcaseRoleFor(null, null)).toBe('editor');
    expect(showcaseRoleFor(['admin'], 'visitor')).toBe('visitor');
  });

  it('draws breadcrumbs through the showcase group and the parents', () => {
    expect(breadcrumbTrail('/nested/menu1/menu1-2/menu1-2-1')).toEqual([
      { title: '首页', path: '/dashboard' },
      { title: '模板示例' },
      { title: '路由嵌套', path: '/nested' },
      { title: '菜单 1', path: '/nested/menu1' },
      { title: '菜单 1-2', path: '/nested/menu1/menu1-2' },
      { title: '菜单 1-2-1' },
    ]);
  });
});

describe('guard on showcase routes', () => {
  const base = { search: '', hasToken: true, roles: ['customer'] as const };

  it('answers /404 while the switch is off, for pages and parents alike', () => {
    for (const pathname of ['/documentation/index', '/nested', '/example/edit/3', '/i18n/index']) {
      expect(decide({ ...base, pathname, showcase: false })).toEqual({ kind: 'redirect', to: '/404' });
    }
  });

  it('opens pages the showcase role may see, sends the others to /401', () => {
    const on = { ...base, showcase: true } as const;
    expect(decide({ ...on, pathname: '/documentation/index', showcaseRole: 'editor' })).toEqual({
      kind: 'allow',
    });
    expect(decide({ ...on, pathname: '/permission/directive', showcaseRole: 'editor' })).toEqual({
      kind: 'allow',
    });
    expect(decide({ ...on, pathname: '/permission/role', showcaseRole: 'editor' })).toEqual({
      kind: 'redirect',
      to: '/401',
    });
    expect(decide({ ...on, pathname: '/permission/directive', showcaseRole: 'visitor' })).toEqual({
      kind: 'redirect',
      to: '/401',
    });
    expect(decide({ ...on, pathname: '/permission/role', showcaseRole: 'admin' })).toEqual({ kind: 'allow' });
    // The hidden edit page opens by its URL; a non-digit id is no page.
    expect(decide({ ...on, pathname: '/example/edit/7', showcaseRole: 'editor' })).toEqual({ kind: 'allow' });
    expect(decide({ ...on, pathname: '/example/edit/x', showcaseRole: 'admin' })).toEqual({
      kind: 'redirect',
      to: '/404',
    });
    expect(decide({ ...on, pathname: '/example', showcaseRole: 'editor' })).toEqual({
      kind: 'redirect',
      to: '/example/list',
    });
  });

  it('leaves the product routes as they were', () => {
    expect(decide({ ...base, pathname: '/myAPI/index', showcase: false })).toEqual({ kind: 'allow' });
    expect(decide({ ...base, pathname: '/operator/index', showcase: true })).toEqual({
      kind: 'redirect',
      to: '/401',
    });
  });
});

describe('cached views', () => {
  it('keys a view like its tab: full path, or the path alone for a page whose query is its state', () => {
    expect(viewKey('/wechatList/index?page=2', routeMetaFor('/wechatList/index'))).toBe(
      '/wechatList/index?page=2',
    );
    expect(viewKey('/tab/index?tab=US', routeMetaFor('/tab/index'))).toBe('/tab/index');
    expect(viewKey('/wechatList/index', routeMetaFor('/wechatList/index'), 'company:7')).toBe(
      'company:7|/wechatList/index',
    );
  });

  it('caches pages except those marked not cached; the refresh helper is none', () => {
    expect(isCached(routeMetaFor('/myAPI/index'))).toBe(true);
    expect(isCached(routeMetaFor('/nested/menu2'))).toBe(true);
    expect(isCached(routeMetaFor('/guide/index'))).toBe(false);
    expect(isCached(routeMetaFor('/example/edit/5'))).toBe(false);
    expect(isCached(routeMetaFor('/redirect/myAPI/index'))).toBe(false);
  });

  it('keeps the views of open tabs and the page on screen; drops closed tabs and the refreshed page', () => {
    const cached = ['/dashboard', '/myAPI/index', '/nested/menu2', '/tab/index'];
    const tabs = new Set(['/dashboard', '/nested/menu2', '/tab/index']);
    expect(keysToKeep(cached, tabs, '/myAPI/index')).toEqual(cached);
    expect(keysToKeep(cached, tabs, '/nested/menu2')).toEqual(['/dashboard', '/nested/menu2', '/tab/index']);
    expect(keysToKeep(cached, tabs, null, '/nested/menu2')).toEqual(['/dashboard', '/tab/index']);
  });
});
