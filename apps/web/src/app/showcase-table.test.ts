import { describe, expect, it } from 'vitest';
import { breadcrumbTrail } from './breadcrumbs';
import { routeMetaFor } from './cached-views';
import { decide } from './guard';
import { isExternal, loadShowcaseTable, showcaseTable } from './showcase-table';

// Its own file: the table module is loaded once per test file, and these cases need it not loaded.
describe('the showcase table, loaded only while the switch is on', () => {
  const base = { search: '', hasToken: true, roles: ['customer'] } as const;

  it('before it loads, a showcase path is no page of the console: the router answers /404', () => {
    expect(showcaseTable()).toBeUndefined();
    // The guard lets the router decide; the router's catch-all sends an unknown path to /404.
    expect(decide({ ...base, pathname: '/documentation/index', showcase: false })).toEqual({ kind: 'allow' });
    expect(routeMetaFor('/documentation/index')).toBeUndefined();
    expect(breadcrumbTrail('/documentation/index')).toEqual([{ title: '首页' }]);
    // The product's own pages do not need it.
    expect(routeMetaFor('/myAPI/index')?.title).toBeTruthy();
  });

  it('once loaded, the guard, cached views and breadcrumbs know its pages', async () => {
    const table = await loadShowcaseTable();
    expect(showcaseTable()).toBe(table);
    expect(await loadShowcaseTable()).toBe(table);
    expect(decide({ ...base, pathname: '/documentation/index', showcase: false })).toEqual({
      kind: 'redirect',
      to: '/404',
    });
    expect(decide({ ...base, pathname: '/documentation/index', showcase: true })).toEqual({ kind: 'allow' });
    expect(routeMetaFor('/documentation/index')?.title).toBe('文档');
    expect(breadcrumbTrail('/documentation/index').map((c) => c.title)).toEqual(['首页', '模板示例', '文档']);
  });

  it('tells the external menu entry from a route', () => {
    expect(isExternal('https://github.com/PanJiaChen/vue-element-admin')).toBe(true);
    expect(isExternal('HTTP://example.com')).toBe(true);
    expect(isExternal('/documentation/index')).toBe(false);
  });
});
