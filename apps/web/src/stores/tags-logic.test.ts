import { describe, expect, it } from 'vitest';
import { addView, closeAll, closeOthers, closeView, type TagView, withAffix } from './tags-logic';

const dash: TagView = { path: '/dashboard', title: '用户中心', affix: true };
const a: TagView = { path: '/myAPI/index', title: '我的API' };
const b: TagView = { path: '/accountList/index', title: '子账号' };
const c: TagView = { path: '/wechatList/index?page=2', title: '微信管理' };
const views = [dash, a, b, c];

describe('tags view', () => {
  it('puts pinned views first, once, and unpins the rest', () => {
    expect(withAffix([a, { ...dash, affix: false }, b], [dash]).map((v) => [v.path, v.affix])).toEqual([
      ['/dashboard', true],
      ['/myAPI/index', false],
      ['/accountList/index', false],
    ]);
  });

  it('adds a view once, keyed by full path, refreshing its title', () => {
    expect(addView(views, a)).toBe(views);
    expect(addView(views, { ...a, title: '新标题' })[1]!.title).toBe('新标题');
    expect(addView(views, { path: '/wechatList/index', title: '微信管理' })).toHaveLength(5);
  });

  it('keeps one view per path for a page whose query is its own state, following the query', () => {
    const tab: TagView = { path: '/tab/index?tab=CN', title: '标签页' };
    const once = addView(views, tab, true);
    expect(once).toHaveLength(5);
    const moved = addView(once, { path: '/tab/index?tab=US', title: '标签页' }, true);
    expect(moved).toHaveLength(5);
    expect(moved[4]!.path).toBe('/tab/index?tab=US');
    expect(addView(moved, { path: '/tab/index?tab=US', title: '标签页' }, true)).toBe(moved);
  });

  it('closes a view; closing the active one goes to the last view left', () => {
    expect(closeView(views, a.path, c.path)).toEqual({ views: [dash, b, c] });
    expect(closeView(views, c.path, c.path)).toEqual({ views: [dash, a, b], navigateTo: b.path });
    expect(closeView([dash, a], a.path, a.path)).toEqual({ views: [dash], navigateTo: dash.path });
  });

  it('never closes a pinned view', () => {
    expect(closeView(views, dash.path, dash.path).views).toBe(views);
    expect(closeView(views, '/unknown', dash.path).views).toBe(views);
  });

  it('closes the others, keeping pinned ones, and opens the kept view', () => {
    expect(closeOthers(views, b.path, b.path)).toEqual({ views: [dash, b] });
    expect(closeOthers(views, b.path, a.path)).toEqual({ views: [dash, b], navigateTo: b.path });
  });

  it('closes all but the pinned ones and goes to the last pinned one when needed', () => {
    expect(closeAll(views, c.path)).toEqual({ views: [dash], navigateTo: dash.path });
    expect(closeAll(views, dash.path)).toEqual({ views: [dash] });
    expect(closeAll([a], a.path)).toEqual({ views: [], navigateTo: '/' });
    // Home, not the last pinned tab: the showcase's 文档 is pinned after the dashboard.
    const docs: TagView = { path: '/documentation/index', title: '文档', affix: true };
    expect(closeAll([dash, docs, a], a.path)).toEqual({ views: [dash, docs], navigateTo: dash.path });
  });
});
