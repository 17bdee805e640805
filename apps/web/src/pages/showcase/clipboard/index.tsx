import { CopyOutlined } from '@ant-design/icons';
import { Button, Input, Tabs } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Card } from '../../../components/Card';
import { CopyButton } from '../../../components/CopyButton';
import { copyText } from '../../../components/copy-text';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import '../showcase.css';

/**
 * The template's `v-clipboard` directive, as a hook: a click on any element inside `ref` carrying
 * `data-clipboard-text` copies that text (event delegation, like clipboard.js), then tells.
 */
export function useClipboardAttribute<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const { message } = useFeedback();
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const onClick = async (event: MouseEvent) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>('[data-clipboard-text]');
      if (!target || !root.contains(target)) return;
      const text = target.dataset.clipboardText ?? '';
      if (await copyText(text)) void message.success('已复制到剪贴板');
      else void message.warning('浏览器不允许自动复制，请手动选中后复制');
    };
    root.addEventListener('click', onClick);
    return () => root.removeEventListener('click', onClick);
  }, [message]);
  return ref;
}

export default function ClipboardPage() {
  const [byButton, setByButton] = useState('https://github.com/PanJiaChen/vue-element-admin');
  const [byAttribute, setByAttribute] = useState('微信 API 客户控制台');
  const zone = useClipboardAttribute<HTMLDivElement>();
  return (
    <div ref={zone} className="page showcase-page" data-testid="clipboard-page">
      <PageHeader subtitle="两种复制方式：调用复制按钮，或给元素加上 data-clipboard-text 属性" />
      <Card>
        <Tabs
          items={[
            {
              key: 'button',
              label: '复制按钮',
              children: (
                <div className="showcase-row">
                  <Input
                    aria-label="要复制的内容（按钮）"
                    value={byButton}
                    onChange={(e) => setByButton(e.target.value)}
                    style={{ maxWidth: 420 }}
                  />
                  <CopyButton text={byButton} type="primary" size="middle" label="复制" what="内容" />
                </div>
              ),
            },
            {
              key: 'attribute',
              label: '属性方式',
              children: (
                <div className="showcase-row">
                  <Input
                    aria-label="要复制的内容（属性）"
                    value={byAttribute}
                    onChange={(e) => setByAttribute(e.target.value)}
                    style={{ maxWidth: 420 }}
                  />
                  <Button type="primary" icon={<CopyOutlined />} data-clipboard-text={byAttribute}>
                    复制（data-clipboard-text）
                  </Button>
                  <code data-clipboard-text="npm run test:e2e" title="点击复制" className="clip-code">
                    npm run test:e2e
                  </code>
                </div>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
