import * as calls from '@wxc/contract/calls/showcase';
import { describe, expect, it } from 'vitest';
import { articleIdFrom, articleListQuery, INITIAL_FILTERS, withFilter } from './query';

describe('article list query', () => {
  it('sends page, size 20 and sort; leaves out empty filters', () => {
    expect(articleListQuery(INITIAL_FILTERS)).toEqual({ page: '1', limit: '20', sort: '+id' });
  });

  it('sends the filters the contract takes', () => {
    const q = articleListQuery({ title: '  新闻 ', importance: 3, type: 'JP', sort: '-id', page: 2 });
    expect(q).toEqual({ page: '2', limit: '20', sort: '-id', importance: '3', type: 'JP', title: '新闻' });
    const parsed = calls.articleList.request.parse(q);
    expect(parsed).toMatchObject({
      page: 2,
      limit: 20,
      sort: '-id',
      importance: 3,
      type: 'JP',
      title: '新闻',
    });
  });

  it('a filter change goes back to page 1; a page change keeps the filters', () => {
    const f = { ...INITIAL_FILTERS, page: 4, type: 'US' as const };
    expect(withFilter(f, { importance: 2 })).toMatchObject({ page: 1, importance: 2, type: 'US' });
    expect(withFilter(f, { page: 5 })).toMatchObject({ page: 5, type: 'US' });
  });

  it('takes digits-only article ids', () => {
    expect(articleIdFrom('12')).toBe(12);
    expect(articleIdFrom('007')).toBe(7);
    expect(articleIdFrom('abc')).toBeNull();
    expect(articleIdFrom('1e3')).toBeNull();
    expect(articleIdFrom('0')).toBeNull();
    expect(articleIdFrom('99999999999')).toBeNull();
    expect(articleIdFrom(undefined)).toBeNull();
  });
});
