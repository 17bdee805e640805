import { CopyOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { copyText } from './copy-text';
import { useFeedback } from './feedback';
import './copy.css';

/** A copy button: copies `text`, then says so (or says how to copy by hand). */
export function CopyButton({
  text,
  label = '复制',
  what = '内容',
  size = 'small',
  type = 'link',
  onCopied,
}: {
  text: string;
  label?: ReactNode;
  what?: string;
  size?: 'small' | 'middle';
  type?: 'link' | 'default' | 'primary';
  onCopied?(): void;
}) {
  const { message } = useFeedback();
  return (
    <Tooltip title={`复制${what}`}>
      <Button
        type={type}
        size={size}
        icon={<CopyOutlined />}
        aria-label={label === null ? `复制${what}` : undefined}
        onClick={async () => {
          if (await copyText(text)) {
            void message.success(`${what}已复制`);
            onCopied?.();
          } else {
            void message.warning('浏览器不允许自动复制，请手动选中后复制');
          }
        }}
      >
        {label}
      </Button>
    </Tooltip>
  );
}

/** A value in monospace that wraps anywhere (keys, URLs) with a copy button after it. */
export function CopyableCode({ text, what }: { text: string; what: string }) {
  return (
    <span className="copyable-code">
      <code className="code-value">{text}</code>
      <CopyButton text={text} what={what} label={null} />
    </span>
  );
}
