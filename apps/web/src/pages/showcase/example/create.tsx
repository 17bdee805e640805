import { useNavigate } from 'react-router';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { ArticleForm } from './ArticleForm';
import '../showcase.css';
import './example.css';

/** /example/create (Create Article): a new article, published or as a draft; then the list. */
export default function CreateArticle() {
  const navigate = useNavigate();
  return (
    <div className="page showcase-page" data-testid="article-create">
      <PageHeader subtitle="新建一篇示例文章：富文本正文、Markdown 摘要，发布或存为草稿" />
      <Card>
        <ArticleForm onSaved={() => navigate('/example/list')} />
      </Card>
    </div>
  );
}
