import type { articleList, ShowcaseRequest } from '@wxc/contract/calls/showcase';
import { SHOWCASE_PAGE_SIZE } from '@wxc/contract/calls/showcase';

export type ArticleType = 'CN' | 'US' | 'JP' | 'EU';

/** The article list's filters as the page holds them. */
export interface ArticleFilters {
  title: string;
  importance?: 1 | 2 | 3 | undefined;
  type?: ArticleType | undefined;
  sort: '+id' | '-id';
  page: number;
}

export const INITIAL_FILTERS: ArticleFilters = { title: '', sort: '+id', page: 1 };

export const TYPE_LABELS: Record<ArticleType, string> = { CN: '中国', US: '美国', JP: '日本', EU: '欧元区' };

/** The `GET article/list` query for the filters: empty filters left out, page size 20. */
export function articleListQuery(f: ArticleFilters): ShowcaseRequest<typeof articleList> {
  const title = f.title.trim();
  return {
    page: String(Math.max(1, Math.floor(f.page))),
    limit: String(SHOWCASE_PAGE_SIZE),
    sort: f.sort,
    ...(f.importance ? { importance: String(f.importance) } : {}),
    ...(f.type ? { type: f.type } : {}),
    ...(title ? { title } : {}),
  };
}

/** New filters from a change: anything but the page goes back to page 1. */
export function withFilter(f: ArticleFilters, change: Partial<ArticleFilters>): ArticleFilters {
  return { ...f, ...change, page: change.page ?? 1 };
}

/** `/example/edit/:id`: digits only (a leading zero is still the same article). */
export function articleIdFrom(param: string | undefined): number | null {
  if (!param || !/^\d{1,10}$/.test(param)) return null;
  const id = Number(param);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}
