import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import { TYPE_LABELS } from '../example/query';
import { SafeHtml } from '../example/SafeHtml';
import './pdf.css';

/** An article laid out as a printable document: title, meta line, summary, content. */
export function ArticleDocument({ article }: { article: ShowcaseArticle }) {
  return (
    <article className="pdf-doc" data-testid="pdf-doc">
      <h1 className="pdf-doc-title">{article.title}</h1>
      <p className="pdf-doc-meta">
        <span>作者：{article.author || '—'}</span>
        <span>日期：{article.display_time}</span>
        <span>地区：{TYPE_LABELS[article.type]}</span>
        <span>阅读数：{article.pageviews}</span>
      </p>
      {article.content_short ? <p className="pdf-doc-summary">{article.content_short}</p> : null}
      {/* The content is the server's sanitised rich text (see SafeHtml). */}
      <SafeHtml className="pdf-doc-content" html={article.content} />
    </article>
  );
}
