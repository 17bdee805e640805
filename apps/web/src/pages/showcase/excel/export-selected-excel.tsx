import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { type Key, useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { ArticleTable, useAllArticles } from './articles';
import { ARTICLE_HEADER, articleRow, fileNameFor } from './sheet';
import { exportRows } from './workbook';
import '../showcase.css';
import './excel.css';
import { FileNameField } from './FileNameField';

/** /excel/export-selected-excel: tick articles in the table, export only those (xlsx). */
export default function ExportSelectedPage() {
  const articles = useAllArticles();
  const { message } = useFeedback();
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<Key[]>([]);
  const [busy, setBusy] = useState(false);

  const download = async () => {
    const chosen = new Set(selected);
    const rows = (articles.data ?? []).filter((a) => chosen.has(a.id));
    if (rows.length === 0) {
      void message.warning('请先在表格中勾选要导出的文章');
      return;
    }
    setBusy(true);
    try {
      const fileName = fileNameFor(name, 'xlsx', '已选文章');
      await exportRows([[...ARTICLE_HEADER], ...rows.map(articleRow)], fileName, 'xlsx', true);
      void message.success(`已导出 ${rows.length} 篇文章：${fileName}`);
    } catch {
      void message.error('导出失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page showcase-page" data-testid="export-selected-page">
      <PageHeader subtitle="勾选表格中的文章，只导出选中的行（xlsx）" />
      <Card>
        <div className="excel-toolbar">
          <FileNameField value={name} onChange={setName} placeholder="已选文章" />
          <Button type="primary" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()}>
            导出已选择项
          </Button>
          <span className="showcase-muted" data-testid="selected-count">
            已选 {selected.length} 篇
          </span>
        </div>
        <QueryState query={articles} rows={6}>
          {(list) => (
            <ArticleTable
              articles={list}
              loading={articles.isFetching}
              rowSelection={{ selectedRowKeys: selected, onChange: setSelected }}
            />
          )}
        </QueryState>
      </Card>
    </div>
  );
}
