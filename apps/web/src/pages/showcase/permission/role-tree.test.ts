import { SHOWCASE_ROUTES, type ShowcaseRoute } from '@wxc/contract/calls/showcase';
import { describe, expect, it } from 'vitest';
import { allPaths, checkedKeysFor, leafKeys, resolvePath, routesFromChecked, toTreeData } from './role-tree';

describe('role tree ↔ routes', () => {
  it('resolves full paths', () => {
    expect(resolvePath('/', '')).toBe('/');
    expect(resolvePath('/', 'dashboard')).toBe('/dashboard');
    expect(resolvePath('/example', 'list')).toBe('/example/list');
    expect(resolvePath('/nested/menu1', '/nested/x')).toBe('/nested/x');
    expect(resolvePath('/external-link', 'https://github.com/x')).toBe('https://github.com/x');
    expect(resolvePath('/', 'external-link')).toBe('/external-link');
  });

  const tree = toTreeData(SHOWCASE_ROUTES, { '/permission': '权限测试页' });

  it('builds the tree: single-page layouts collapse, hidden routes are left out, titles mapped', () => {
    const top = tree.map((n) => n.key);
    expect(top).toContain('/dashboard');
    expect(top).toContain('/documentation/index');
    expect(top).toContain('/permission');
    expect(top).not.toContain('/pdf/download');
    const permission = tree.find((n) => n.key === '/permission')!;
    expect(permission.title).toBe('权限测试页');
    expect(permission.children?.map((c) => c.key)).toEqual([
      '/permission/page',
      '/permission/directive',
      '/permission/role',
    ]);
    const example = tree.find((n) => n.key === '/example')!;
    expect(example.children?.map((c) => c.key)).toEqual(['/example/create', '/example/list']);
    expect(leafKeys(tree)).toContain('/nested/menu1/menu1-2/menu1-2-2');
    expect(leafKeys(tree)).toContain('https://github.com/PanJiaChen/vue-element-admin');
  });

  it('cuts a role out of the table from checked leaves, and reads the leaves back', () => {
    const routes = routesFromChecked(SHOWCASE_ROUTES, ['/permission/directive', '/example/list']);
    expect(routes.map((r) => r.path)).toEqual(['/permission', '/example']);
    expect(routes[0]!.children!.map((c) => c.path)).toEqual(['directive']);
    // The hidden editor goes with its parent.
    expect(routes[1]!.children!.map((c) => c.path)).toEqual(['edit/:id(\\d+)', 'list']);
    expect(allPaths(routes)).toContain('/example/list');
    expect(checkedKeysFor(tree, routes).sort()).toEqual(['/example/list', '/permission/directive']);
  });

  it('round-trips every leaf and nothing', () => {
    const all = leafKeys(tree);
    const routes = routesFromChecked(SHOWCASE_ROUTES, all);
    expect(checkedKeysFor(tree, routes).sort()).toEqual([...all].sort());
    expect(routesFromChecked(SHOWCASE_ROUTES, [])).toEqual([]);
  });

  it('a parent checked on its own brings its pages; deep trees keep their levels', () => {
    const routes = routesFromChecked(SHOWCASE_ROUTES, ['/nested/menu1/menu1-2']);
    const nested = routes[0] as ShowcaseRoute;
    expect(nested.path).toBe('/nested');
    expect(nested.children![0]!.children![0]!.children!.map((c) => c.path)).toEqual([
      'menu1-2-1',
      'menu1-2-2',
    ]);
    expect(checkedKeysFor(tree, routes)).toEqual([
      '/nested/menu1/menu1-2/menu1-2-1',
      '/nested/menu1/menu1-2/menu1-2-2',
    ]);
  });
});
