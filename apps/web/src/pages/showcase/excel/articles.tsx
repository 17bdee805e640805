import { useQuery } from '@tanstack/react-query';
import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import { articleList } from '@wxc/contract/calls/showcase';
import { Empty, Table, type TableColumnsType, type TableProps } from 'antd';
import { showcaseCall } from '../../../api/showcase';

/** The list's largest page (the contract's `limit` maximum). */
const PAGE = 100;
/** At most this many articles are loaded for an export (ten requests). */
export const EXPORT_MAX = 1000;

/** All of the company's articles (up to EXPORT_MAX), by id: what the export pages list and export. */
async function allArticles(signal: AbortSignal): Promise<ShowcaseArticle[]> {
  const items: ShowcaseArticle[] = [];
  for (let page = 1; items.length < EXPORT_MAX; page++) {
    const answer = await showcaseCall(articleList, { page: String(page), limit: String(PAGE) }, { signal });
    items.push(...answer.items);
    if (answer.items.length < PAGE || items.length >= answer.total) break;
  }
  return items.slice(0, EXPORT_MAX);
}

export function useAllArticles() {
  return useQuery({
    queryKey: ['showcase', 'articles', 'all'],
    queryFn: ({ signal }) => allArticles(signal),
  });
}

const columns: TableColumnsType<ShowcaseArticle> = [
  { title: 'ID', dataIndex: 'id', width: 70 },
  { title: '标题', dataIndex: 'title', ellipsis: true },
  { title: '作者', dataIndex: 'author', width: 110 },
  { title: '阅读数', dataIndex: 'pageviews', width: 90 },
  { title: '日期', dataIndex: 'display_time', width: 170 },
];

/** The articles as the export pages show them: a table that scrolls inside its box on phones. */
export function ArticleTable({
  articles,
  loading,
  rowSelection,
}: {
  articles: ShowcaseArticle[];
  loading: boolean;
  rowSelection?: TableProps<ShowcaseArticle>['rowSelection'];
}) {
  return (
    <Table<ShowcaseArticle>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={articles}
      loading={loading}
      rowSelection={rowSelection}
      scroll={{ x: 640 }}
      aria-label="文章列表"
      locale={{ emptyText: <Empty description="还没有文章" /> }}
      pagination={
        articles.length > 20
          ? {
              pageSize: 20,
              showTotal: (t) => `共 ${t} 条`,
              responsive: true,
              showLessItems: true,
              showSizeChanger: false,
            }
          : false
      }
    />
  );
}
