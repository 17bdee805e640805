import { Input } from 'antd';
import { useEffect, useState } from 'react';
import { SafeHtml } from './SafeHtml';

type Render = (source: string) => string;
let renderer: Promise<Render> | undefined;
/** marked comes with the first preview, not with the page. */
const loadRenderer = () => {
  renderer ??= import('./markdown').then((m) => m.renderMarkdown);
  return renderer;
};

/** The summary: markdown in a plain textarea, its preview beside it (below on phones). */
export function MarkdownField({
  value = '',
  onChange,
  id,
  maxLength,
}: {
  value?: string;
  onChange?: (v: string) => void;
  id?: string;
  maxLength: number;
}) {
  const [render, setRender] = useState<Render | null>(null);
  useEffect(() => {
    let live = true;
    void loadRenderer().then((r) => live && setRender(() => r));
    return () => {
      live = false;
    };
  }, []);
  return (
    <div className="markdown-split">
      <Input.TextArea
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        rows={5}
        maxLength={maxLength}
        showCount
        placeholder="支持 Markdown：**粗体**、*斜体*、- 列表、[链接](https://…)"
      />
      <SafeHtml
        className="markdown-preview rich-text"
        testId="summary-preview"
        html={render ? render(value) || '<p class="showcase-muted">摘要预览</p>' : ''}
      />
    </div>
  );
}
