import { InboxOutlined } from '@ant-design/icons';
import { Alert, Table, type TableColumnsType, Upload } from 'antd';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { readWorkbook, type SheetTable, WORKBOOK_MAX_BYTES, WorkbookError } from './read';
import '../showcase.css';
import './excel.css';

type Row = { key: number; cells: string[] };

/** /excel/upload-excel: drop or pick an .xlsx; its first sheet shows as a table (header row = columns). */
export default function UploadExcelPage() {
  const { message } = useFeedback();
  const [sheet, setSheet] = useState<(SheetTable & { name: string }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);

  const read = async (file: File) => {
    setReading(true);
    setError(null);
    try {
      const table = await readWorkbook(file);
      setSheet({ ...table, name: file.name });
      void message.success(`已读取 ${file.name}：${table.total} 行`);
    } catch (e) {
      setSheet(null);
      setError(e instanceof WorkbookError ? e.message : '读取失败，请重试');
    } finally {
      setReading(false);
    }
  };

  const columns: TableColumnsType<Row> = (sheet?.columns ?? []).map((title, i) => ({
    title,
    key: i,
    render: (_, row) => row.cells[i],
    ellipsis: true,
    width: 160,
  }));
  const rows: Row[] = (sheet?.rows ?? []).map((cells, key) => ({ key, cells }));

  return (
    <div className="page showcase-page" data-testid="upload-excel-page">
      <PageHeader subtitle="把 Excel 工作簿（.xlsx）拖到这里或点击选择，第一个工作表显示为表格（首行作为表头），文件只在浏览器中读取" />
      <Card>
        <Upload.Dragger
          className="excel-dropzone"
          // Every file is taken and checked by its bytes (an `accept` filter would drop others silently).
          multiple={false}
          showUploadList={false}
          disabled={reading}
          beforeUpload={(file) => {
            void read(file);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">把 Excel 文件拖到这里，或点击选择</p>
          <p className="ant-upload-hint">支持 .xlsx，最大 {WORKBOOK_MAX_BYTES / 1024 / 1024} MB</p>
        </Upload.Dragger>
        {error ? (
          <Alert type="error" showIcon title="无法读取文件" description={error} data-testid="excel-error" />
        ) : null}
        {sheet ? (
          <>
            <div className="excel-file-meta showcase-muted" data-testid="excel-file-meta">
              {sheet.name} · {sheet.columns.length} 列 · {sheet.total} 行
              {sheet.total > sheet.rows.length ? `（显示前 ${sheet.rows.length} 行）` : ''}
            </div>
            <Table<Row>
              size="middle"
              bordered
              columns={columns}
              dataSource={rows}
              scroll={{ x: Math.max(480, columns.length * 160) }}
              aria-label="工作表内容"
              pagination={
                rows.length > 20 ? { pageSize: 20, showSizeChanger: false, responsive: true } : false
              }
            />
          </>
        ) : null}
      </Card>
    </div>
  );
}
