import { useQuery } from '@tanstack/react-query';
import * as calls from '@wxc/contract/calls/showcase';
import { Button, Result } from 'antd';
import { Navigate, useNavigate, useParams } from 'react-router';
import { showcaseCall } from '../../../api/showcase';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { ArticleForm } from './ArticleForm';
import { articleIdFrom } from './query';
import '../showcase.css';
import './example.css';

/** /example/edit/:id (Edit Article, not cached): digits only, another id goes to /404. */
export default function EditArticle() {
  const id = articleIdFrom(useParams().id);
  if (id === null) return <Navigate to="/404" replace />;
  return <Editor id={id} />;
}

function Editor({ id }: { id: number }) {
  const navigate = useNavigate();
  const detail = useQuery({
    queryKey: ['showcase', 'article', id],
    queryFn: ({ signal }) => showcaseCall(calls.articleDetail, { id: String(id) }, { signal }),
    retry: false,
  });
  const missing = detail.isError && 'code' in detail.error && detail.error.code === '40400';
  return (
    <div className="page showcase-page" data-testid="article-edit">
      <PageHeader subtitle={`编辑文章 #${id}`} />
      <Card>
        {missing ? (
          <Result
            status="404"
            title="文章不存在"
            subTitle="这篇文章不存在，或不属于本公司。"
            extra={
              <Button type="primary" onClick={() => navigate('/example/list')}>
                返回文章列表
              </Button>
            }
          />
        ) : (
          <QueryState query={detail} rows={8}>
            {(article) => <ArticleForm key={article.id} article={article} onSaved={() => undefined} />}
          </QueryState>
        )}
      </Card>
    </div>
  );
}
