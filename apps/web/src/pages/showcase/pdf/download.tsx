import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { articleDetail, articleList } from '@wxc/contract/calls/showcase';
import { Button, Empty } from 'antd';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { showcaseCall } from '../../../api/showcase';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { articleIdFrom } from '../example/query';
import { ArticleDocument } from './ArticleDocument';
import '../showcase.css';

/** The article of `?id=`, or the first one when none is named. */
async function articleToPrint(id: number | null, signal: AbortSignal) {
  if (id !== null) return showcaseCall(articleDetail, { id: String(id) }, { signal });
  const first = await showcaseCall(articleList, { page: '1', limit: '1' }, { signal });
  return first.items[0] ?? null;
}

/**
 * /pdf/download (hidden): the article in a print layout; opens the print dialog once it is on
 * screen. While the page is mounted, <body> carries `pdf-print-view`, which the print CSS (pdf.css)
 * is scoped to: the shell (sidebar, navbar, tags) is left out of the print, on this page only.
 */
export default function PdfPrintPage() {
  const [params] = useSearchParams();
  const id = articleIdFrom(params.get('id') ?? undefined);
  const article = useQuery({
    queryKey: ['showcase', 'article-print', id],
    queryFn: ({ signal }) => articleToPrint(id, signal),
  });
  const printed = useRef(false);

  useEffect(() => {
    document.body.classList.add('pdf-print-view');
    return () => document.body.classList.remove('pdf-print-view');
  }, []);

  useEffect(() => {
    if (!article.data || printed.current) return;
    printed.current = true;
    let frame = 0;
    // After the fonts and one frame: the dialog then prints the laid-out document.
    void document.fonts.ready.then(() => {
      frame = requestAnimationFrame(() => window.print());
    });
    return () => cancelAnimationFrame(frame);
  }, [article.data]);

  return (
    <div className="page showcase-page" data-testid="pdf-print-page">
      <div className="pdf-screen-only">
        <PageHeader
          subtitle="打印视图：打印对话框会自动打开，也可以在这里再次打印（打印时只输出文档本身）"
          extra={
            <Button
              type="primary"
              icon={<PrinterOutlined />}
              disabled={!article.data}
              onClick={() => window.print()}
            >
              打印
            </Button>
          }
        />
      </div>
      <Card>
        <QueryState query={article} rows={8}>
          {(a) =>
            a ? (
              <div className="pdf-frame">
                <ArticleDocument article={a} />
              </div>
            ) : (
              <Empty description="还没有文章可打印" />
            )
          }
        </QueryState>
      </Card>
    </div>
  );
}
