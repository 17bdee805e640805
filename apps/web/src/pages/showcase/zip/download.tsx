import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { strToU8, type Zippable, zipSync } from 'fflate';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { ArticleTable, useAllArticles } from '../excel/articles';
import { saveBlob } from '../excel/save-file';
import { fileNameFor } from '../excel/sheet';
import { articleText, entryName } from './text';
import '../showcase.css';
import '../excel/excel.css';
import { FileNameField } from '../excel/FileNameField';

/** /zip/download (Export Zip): every article as a .txt file, packed into one zip in the browser. */
export default function ZipDownloadPage() {
  const articles = useAllArticles();
  const { message } = useFeedback();
  const [name, setName] = useState('');

  const download = () => {
    const list = articles.data ?? [];
    if (list.length === 0) {
      void message.warning('没有可导出的文章');
      return;
    }
    const files: Zippable = {};
    for (const a of list) files[entryName(a)] = [strToU8(articleText(a)), { mtime: a.timestamp }];
    // zipSync, not fflate's async zip: that one starts Web Workers from blob: URLs, which the
    // console's Content-Security-Policy does not allow (and a few hundred articles zip in milliseconds).
    const zipped = zipSync(files, { level: 6 });
    const fileName = fileNameFor(name, 'zip', '文章');
    saveBlob(new Blob([zipped], { type: 'application/zip' }), fileName);
    void message.success(`已打包 ${list.length} 篇文章：${fileName}`);
  };

  return (
    <div className="page showcase-page" data-testid="zip-download-page">
      <PageHeader subtitle="把本公司的文章打包成 zip 下载：每篇文章一个 .txt 文件（标题、作者、日期、正文）" />
      <Card>
        <div className="excel-toolbar">
          <FileNameField value={name} onChange={setName} placeholder="文章" />
          <Button type="primary" icon={<DownloadOutlined />} disabled={!articles.data} onClick={download}>
            导出 Zip
          </Button>
        </div>
        <QueryState query={articles} rows={6}>
          {(list) => <ArticleTable articles={list} loading={articles.isFetching} />}
        </QueryState>
      </Card>
    </div>
  );
}
