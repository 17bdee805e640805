import { Tabs } from 'antd';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { SafeHtml } from '../example/SafeHtml';
import { FullRichTextEditor } from './editors/FullRichTextEditor';
import '../showcase.css';
import '../example/example.css';
import './editors.css';

const INITIAL =
  '<h2 style="text-align: center;">富文本编辑器</h2>' +
  '<p>这是模板 TinyMCE 示例的重制：基于 <strong>Tiptap</strong>，工具栏包含标题、<em>斜体</em>、<u>下划线</u>、' +
  '<s>删除线</s>、<code>行内代码</code>、列表、引用、链接、对齐、分割线和图片上传。</p>' +
  '<ul><li><p>点击工具栏的图片按钮，选择一张图片上传到服务，插入返回的链接</p></li>' +
  '<li><p>下方实时显示编辑器输出的 HTML</p></li></ul>';

/** /components/tinymce (富文本编辑器): the full editor and, below it, its HTML (rendered and source). */
export default function TinymcePage() {
  const [html, setHtml] = useState(INITIAL);
  return (
    <div className="page showcase-page" data-testid="tinymce-page">
      <PageHeader subtitle="完整工具栏的富文本编辑器，图片上传到服务；下方为它输出的 HTML" />
      <Card>
        <FullRichTextEditor initial={html} onChange={setHtml} />
      </Card>
      <Card title="HTML 输出" className="editor-output-card">
        <Tabs
          items={[
            {
              key: 'rendered',
              label: '渲染效果',
              // Tiptap's HTML: only the nodes, marks and attributes of its schema (links http(s) or
              // mailto, alignment one of four words), nothing pasted survives outside that.
              children: (
                <SafeHtml className="rich-text editor-html-preview" testId="tinymce-rendered" html={html} />
              ),
            },
            {
              key: 'source',
              label: 'HTML 源码',
              children: (
                <pre className="editor-source" data-testid="tinymce-source">
                  {html}
                </pre>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
