import { HolderOutlined, UndoOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { articleList, type ShowcaseArticle } from '@wxc/contract/calls/showcase';
import { Button } from 'antd';
import { useState } from 'react';
import { showcaseCall } from '../../../api/showcase';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { type Lanes, orderText } from './dnd/lanes';
import { SortableLanes } from './dnd/SortableLanes';
import '../showcase.css';

interface Row {
  id: string;
  articleId: number;
  title: string;
  author: string;
}

/** The first page of ten articles (the query's numbers travel as text). */
const ARTICLES_QUERY = { page: '1', limit: '10' };
const LANE_NAMES: Record<string, string> = { a: '列表 A', b: '列表 B' };

/** The first page of articles, split in two lists: the first half in A, the rest in B. */
function splitArticles(items: ShowcaseArticle[]): Lanes<Row> {
  const rows = items.map((a) => ({
    id: `article-${a.id}`,
    articleId: a.id,
    title: a.title,
    author: a.author,
  }));
  const half = Math.ceil(rows.length / 2);
  return { a: rows.slice(0, half), b: rows.slice(half) };
}

/** /components/dnd-list (列表拖拽): two lists of articles; drag within and between them. */
export default function DndListPage() {
  const articles = useQuery({
    queryKey: ['showcase', 'articles', ARTICLES_QUERY],
    queryFn: ({ signal }) => showcaseCall(articleList, ARTICLES_QUERY, { signal }),
  });
  // The lists as arranged on this page (null: as loaded).
  const [arranged, setArranged] = useState<Lanes<Row> | null>(null);

  return (
    <div className="page showcase-page" data-testid="dnd-list-page">
      <PageHeader subtitle="两个列表之间、列表之内都可以拖动排序；也可以用键盘：Tab 选中，空格拿起，方向键移动，空格放下" />
      <Card
        title="文章列表"
        extra={
          <Button icon={<UndoOutlined />} disabled={!arranged} onClick={() => setArranged(null)}>
            恢复
          </Button>
        }
      >
        <QueryState query={articles} rows={6}>
          {(data) => {
            const lanes = arranged ?? splitArticles(data.items);
            return (
              <SortableLanes
                lanes={lanes}
                onChange={setArranged}
                laneName={(key) => LANE_NAMES[key] ?? key}
                itemName={(row) => `#${row.articleId} ${row.title}`}
                laneHeader={(key, items) => (
                  <>
                    <div className="dnd-lane-head">
                      {LANE_NAMES[key]} <span className="showcase-muted">{items.length} 篇</span>
                    </div>
                    <p className="dnd-lane-order" data-testid={`order-${key}`}>
                      顺序：{orderText(items, (row) => `#${row.articleId}`)}
                    </p>
                  </>
                )}
                renderItem={(row) => (
                  <>
                    <HolderOutlined className="dnd-handle" />
                    <span className="dnd-item-main">
                      <span className="showcase-muted">#{row.articleId}</span> {row.title}
                    </span>
                    <span className="dnd-item-meta">{row.author}</span>
                  </>
                )}
              />
            );
          }}
        </QueryState>
      </Card>
    </div>
  );
}
