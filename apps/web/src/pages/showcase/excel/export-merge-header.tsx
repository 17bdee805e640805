import { DownloadOutlined } from '@ant-design/icons';
import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import { Button, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { useAllArticles } from './articles';
import { fileNameFor } from './sheet';
import { exportMergedHeader } from './workbook';
import '../showcase.css';
import './excel.css';

/** The same two-row header on screen as in the file: ID over both rows, 主要信息 over three columns. */
const columns: TableColumnsType<ShowcaseArticle> = [
  { title: 'ID', dataIndex: 'id', width: 70, align: 'center' },
  {
    title: '主要信息',
    align: 'center',
    children: [
      { title: '标题', dataIndex: 'title', ellipsis: true },
      { title: '作者', dataIndex: 'author', width: 110, align: 'center' },
      { title: '日期', dataIndex: 'display_time', width: 170, align: 'center' },
    ],
  },
];

/** /excel/export-merge-header: an xlsx whose header has two rows with merged cells. */
export default function ExportMergeHeaderPage() {
  const articles = useAllArticles();
  const { message } = useFeedback();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    const list = articles.data ?? [];
    if (list.length === 0) {
      void message.warning('没有可导出的文章');
      return;
    }
    setBusy(true);
    try {
      const fileName = fileNameFor('', 'xlsx', '多级表头');
      await exportMergedHeader(
        list.map((a) => [a.id, a.title, a.author, a.display_time]),
        fileName,
      );
      void message.success(`已导出 ${list.length} 篇文章：${fileName}`);
    } catch {
      void message.error('导出失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page showcase-page" data-testid="export-merge-header-page">
      <PageHeader
        subtitle="导出带两行表头的 Excel：「ID」跨两行，「主要信息」合并标题、作者、日期三列"
        extra={
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            loading={busy}
            disabled={!articles.data}
            onClick={() => void download()}
          >
            导出多级表头
          </Button>
        }
      />
      <Card>
        <QueryState query={articles} rows={6}>
          {(list) => (
            <Table<ShowcaseArticle>
              rowKey="id"
              bordered
              size="middle"
              columns={columns}
              dataSource={list}
              loading={articles.isFetching}
              scroll={{ x: 560 }}
              aria-label="文章列表（多级表头）"
              pagination={
                list.length > 20 ? { pageSize: 20, showSizeChanger: false, responsive: true } : false
              }
            />
          )}
        </QueryState>
      </Card>
    </div>
  );
}
