import { DownloadOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import * as calls from '@wxc/contract/calls/showcase';
import { Button, Empty, Input, Rate, Select, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { showcaseCall } from '../../../api/showcase';
import { Card } from '../../../components/Card';
import { ListView } from '../../../components/PagedList';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import {
  type ArticleFilters,
  type ArticleType,
  articleListQuery,
  INITIAL_FILTERS,
  TYPE_LABELS,
  withFilter,
} from './query';
import { StatusTag } from './StatusTag';
import '../showcase.css';
import './example.css';

/** /example/list (Article List): the company's articles, filtered, sorted and paged (20 a page). */
export default function ArticleList() {
  const navigate = useNavigate();
  const [filters, setFilters] = useState<ArticleFilters>(INITIAL_FILTERS);
  const [title, setTitle] = useState('');
  const query = articleListQuery(filters);
  const list = useQuery({
    queryKey: ['showcase', 'articles', query],
    queryFn: ({ signal }) => showcaseCall(calls.articleList, query, { signal }),
    placeholderData: keepPreviousData,
  });
  const change = (c: Partial<ArticleFilters>) => setFilters((f) => withFilter(f, c));

  const columns: TableColumnsType<ShowcaseArticle> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    { title: '日期', dataIndex: 'display_time', width: 170 },
    {
      title: '标题',
      dataIndex: 'title',
      render: (t: string, a) => (
        <span className="article-title-cell">
          <Link to={`/example/edit/${a.id}`}>{t}</Link> <Tag>{TYPE_LABELS[a.type]}</Tag>
        </span>
      ),
    },
    { title: '作者', dataIndex: 'author', width: 110 },
    {
      title: '重要性',
      dataIndex: 'importance',
      width: 110,
      render: (n: number) => (
        <Rate disabled count={3} value={n} className="article-rate" aria-label={`重要性 ${n}`} />
      ),
    },
    { title: '阅读数', dataIndex: 'pageviews', width: 90 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: ShowcaseArticle['status']) => <StatusTag status={s} />,
    },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_, a) => <Link to={`/example/edit/${a.id}`}>编辑</Link>,
    },
  ];

  return (
    <div className="page showcase-page" data-testid="article-list">
      <PageHeader
        subtitle="本公司的示例文章：按重要性、类型、标题筛选，按 ID 排序，每页 20 条"
        extra={
          <>
            <Button icon={<DownloadOutlined />} onClick={() => navigate('/excel/export-excel')}>
              导出 Excel
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/example/create')}>
              新建文章
            </Button>
          </>
        }
      />
      <Card>
        <search className="article-filters">
          <Input
            allowClear
            placeholder="标题"
            aria-label="按标题筛选"
            value={title}
            maxLength={100}
            onChange={(e) => {
              setTitle(e.target.value);
              if (e.target.value === '') change({ title: '' });
            }}
            onPressEnter={() => change({ title })}
          />
          <Select
            allowClear
            placeholder="重要性"
            aria-label="按重要性筛选"
            value={filters.importance}
            onChange={(v) => change({ importance: v })}
            options={[1, 2, 3].map((n) => ({ value: n, label: `${'★'.repeat(n)}（${n}）` }))}
          />
          <Select
            allowClear
            placeholder="类型"
            aria-label="按类型筛选"
            value={filters.type}
            onChange={(v) => change({ type: v })}
            options={(Object.keys(TYPE_LABELS) as ArticleType[]).map((t) => ({
              value: t,
              label: TYPE_LABELS[t],
            }))}
          />
          <Select
            aria-label="排序"
            value={filters.sort}
            onChange={(v) => change({ sort: v })}
            options={[
              { value: '+id', label: 'ID 升序' },
              { value: '-id', label: 'ID 降序' },
            ]}
          />
          <Button type="primary" icon={<SearchOutlined />} onClick={() => change({ title })}>
            搜索
          </Button>
        </search>
        <QueryState query={list} rows={8}>
          {(data) => (
            <ListView<ShowcaseArticle>
              rows={data.items}
              columns={columns}
              rowKey="id"
              label="文章列表"
              loading={list.isFetching}
              sizeChanger={false}
              scrollX={900}
              paging={{
                page: filters.page,
                pageSize: calls.SHOWCASE_PAGE_SIZE,
                total: data.total,
                onPage: (page) => change({ page }),
              }}
              empty={<Empty description="没有符合条件的文章" />}
              cardProps={(a) => ({ testId: `article-card-${a.id}` })}
              card={(a) => (
                <>
                  <div className="list-card-head">
                    <Link to={`/example/edit/${a.id}`}>{a.title}</Link>
                    <StatusTag status={a.status} />
                  </div>
                  <div className="showcase-muted">
                    #{a.id} · {a.display_time} · {a.author} · {TYPE_LABELS[a.type]}
                  </div>
                  <Rate disabled count={3} value={a.importance} className="article-rate" />
                </>
              )}
            />
          )}
        </QueryState>
      </Card>
    </div>
  );
}
