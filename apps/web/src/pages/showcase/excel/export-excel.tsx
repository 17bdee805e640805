import { DownloadOutlined } from '@ant-design/icons';
import { Button, Select, Switch } from 'antd';
import { useId, useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { ArticleTable, useAllArticles } from './articles';
import { ARTICLE_HEADER, articleRow, BOOK_TYPES, type BookType, fileNameFor } from './sheet';
import { exportRows } from './workbook';
import '../showcase.css';
import './excel.css';
import { FileNameField } from './FileNameField';

/** /excel/export-excel: the company's articles, exported whole as xlsx, csv or txt. */
export default function ExportExcelPage() {
  const articles = useAllArticles();
  const { message } = useFeedback();
  const [name, setName] = useState('');
  const [autoWidth, setAutoWidth] = useState(true);
  const [bookType, setBookType] = useState<BookType>('xlsx');
  const [busy, setBusy] = useState(false);
  const ids = { width: useId(), type: useId() };

  const download = async () => {
    const list = articles.data ?? [];
    if (list.length === 0) {
      void message.warning('没有可导出的文章');
      return;
    }
    setBusy(true);
    try {
      const fileName = fileNameFor(name, bookType, '文章列表');
      await exportRows([[...ARTICLE_HEADER], ...list.map(articleRow)], fileName, bookType, autoWidth);
      void message.success(`已导出 ${list.length} 篇文章：${fileName}`);
    } catch {
      void message.error('导出失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page showcase-page" data-testid="export-excel-page">
      <PageHeader subtitle="把本公司的全部文章导出为 Excel（xlsx）、CSV 或文本文件，文件在浏览器中生成" />
      <Card>
        <div className="excel-toolbar">
          <FileNameField value={name} onChange={setName} placeholder="文章列表" />
          <span className="excel-field">
            <label htmlFor={ids.width}>自动列宽</label>
            <Switch
              id={ids.width}
              checked={autoWidth}
              disabled={bookType !== 'xlsx'}
              onChange={setAutoWidth}
              checkedChildren="开"
              unCheckedChildren="关"
            />
          </span>
          <span className="excel-field">
            <label htmlFor={ids.type}>文件类型</label>
            <Select
              id={ids.type}
              className="excel-type"
              value={bookType}
              onChange={setBookType}
              options={BOOK_TYPES.map((t) => ({ value: t, label: t }))}
            />
          </span>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            loading={busy}
            disabled={!articles.data}
            onClick={() => void download()}
          >
            导出 Excel
          </Button>
        </div>
        <QueryState query={articles} rows={6}>
          {(list) => <ArticleTable articles={list} loading={articles.isFetching} />}
        </QueryState>
      </Card>
    </div>
  );
}
