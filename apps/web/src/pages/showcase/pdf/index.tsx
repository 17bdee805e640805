import { FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { Button, Empty, Select } from 'antd';
import { useRef, useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { useAllArticles } from '../excel/articles';
import { saveBlob } from '../excel/save-file';
import { fileNameFor } from '../excel/sheet';
import { ArticleDocument } from './ArticleDocument';
import { elementToPdf } from './make-pdf';
import '../showcase.css';

/** /pdf/index: an article as a document; print it (the print view) or download it as a PDF. */
export default function PdfPage() {
  const articles = useAllArticles();
  const { message } = useFeedback();
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const doc = useRef<HTMLDivElement>(null);
  const list = articles.data ?? [];
  const article = list.find((a) => a.id === chosenId) ?? list[0];

  const download = async () => {
    const element = doc.current?.querySelector<HTMLElement>('.pdf-doc');
    if (!article || !element) return;
    setBusy(true);
    try {
      saveBlob(await elementToPdf(element), fileNameFor(article.title, 'pdf', `文章-${article.id}`));
      void message.success('PDF 已生成');
    } catch {
      void message.error('生成 PDF 失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page showcase-page" data-testid="pdf-page">
      <PageHeader subtitle="把文章排成可打印的文档：打开打印视图用浏览器打印，或直接在浏览器中生成 PDF 文件下载" />
      <Card>
        <div className="pdf-toolbar">
          <Select
            aria-label="选择文章"
            placeholder="选择文章"
            loading={articles.isPending}
            value={article?.id}
            onChange={setChosenId}
            options={list.map((a) => ({ value: a.id, label: `#${a.id} ${a.title}` }))}
            showSearch={{ optionFilterProp: 'label' }}
          />
          <Button
            icon={<PrinterOutlined />}
            disabled={!article}
            href={article ? `/pdf/download?id=${article.id}` : undefined}
            target="_blank"
          >
            打印视图
          </Button>
          <Button
            type="primary"
            icon={<FilePdfOutlined />}
            disabled={!article}
            loading={busy}
            onClick={() => void download()}
          >
            下载 PDF
          </Button>
        </div>
        <QueryState query={articles} rows={8}>
          {() =>
            article ? (
              <div className="pdf-frame" ref={doc}>
                <ArticleDocument article={article} />
              </div>
            ) : (
              <Empty description="还没有文章，先到 Example › Create Article 写一篇" />
            )
          }
        </QueryState>
      </Card>
    </div>
  );
}
