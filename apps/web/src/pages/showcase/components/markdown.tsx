import {
  BoldOutlined,
  CodeOutlined,
  ItalicOutlined,
  LinkOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, type GetRef, Input, Tabs, Tooltip } from 'antd';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { renderMarkdown } from '../example/markdown';
import { SafeHtml } from '../example/SafeHtml';
import { applyMarkdownAction, type MarkdownAction } from './editors/markdown-edit';
import '../showcase.css';
import '../example/example.css';
import './editors.css';

const INITIAL = `## Markdown 编辑器

支持 **粗体**、*斜体*、\`行内代码\`、[链接](https://github.com/PanJiaChen/vue-element-admin) 和列表：

- 左边编辑，右边实时预览
- 下方可查看 Markdown 源码和生成的 HTML

> 原始 HTML 会作为文字显示，不会执行。
`;

const ACTIONS: { action: MarkdownAction; tip: string; icon: ReactNode }[] = [
  { action: 'bold', tip: '加粗', icon: <BoldOutlined /> },
  { action: 'italic', tip: '斜体', icon: <ItalicOutlined /> },
  { action: 'heading', tip: '标题', icon: <span className="rte-text-icon">H</span> },
  { action: 'list', tip: '列表', icon: <UnorderedListOutlined /> },
  { action: 'link', tip: '链接', icon: <LinkOutlined /> },
  { action: 'code', tip: '代码', icon: <CodeOutlined /> },
];

/**
 * /components/markdown: markdown in a textarea with a small toolbar that edits it, its preview
 * beside it (marked, with the example pages' sanitising: raw HTML shown as text, only safe links),
 * and the markdown and the generated HTML as source below.
 */
export default function MarkdownPage() {
  const [source, setSource] = useState(INITIAL);
  const area = useRef<GetRef<typeof Input.TextArea>>(null);
  const html = useMemo(() => renderMarkdown(source), [source]);

  const apply = (action: MarkdownAction) => {
    const textarea = area.current?.resizableTextArea?.textArea;
    if (!textarea) return;
    const next = applyMarkdownAction(
      { text: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd },
      action,
    );
    setSource(next.text);
    // Select after React has put the new text in the textarea.
    requestAnimationFrame(() => {
      textarea.focus();
      textarea.setSelectionRange(next.start, next.end);
    });
  };

  return (
    <div className="page showcase-page" data-testid="markdown-page">
      <PageHeader subtitle="Markdown 编辑与实时预览（marked），可查看生成的 HTML" />
      <Card>
        <div className="md-toolbar" role="toolbar" aria-label="Markdown 工具栏">
          {ACTIONS.map(({ action, tip, icon }) => (
            <Tooltip title={tip} key={action}>
              <Button
                type="text"
                size="small"
                icon={icon}
                aria-label={tip}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => apply(action)}
              />
            </Tooltip>
          ))}
        </div>
        <div className="markdown-split">
          <Input.TextArea
            ref={area}
            aria-label="Markdown 内容"
            value={source}
            onChange={(e) => setSource(e.target.value)}
            autoSize={{ minRows: 14, maxRows: 30 }}
            className="md-textarea"
            spellCheck={false}
          />
          <SafeHtml className="markdown-preview rich-text" testId="markdown-preview" html={html} />
        </div>
      </Card>
      <Card className="editor-output-card">
        <Tabs
          items={[
            {
              key: 'markdown',
              label: 'Markdown',
              children: (
                <pre className="editor-source" data-testid="markdown-source">
                  {source}
                </pre>
              ),
            },
            {
              key: 'html',
              label: 'HTML',
              children: (
                <pre className="editor-source" data-testid="markdown-html">
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
