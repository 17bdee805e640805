import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Skeleton, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { copyText } from './copy';
import './commerce.css';
import { formatFen } from './money';

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
  const { message } = App.useApp();
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
      <code>{text}</code>
      <CopyButton text={text} what={what} label={null} />
    </span>
  );
}

/**
 * Loading, error and empty states around a query, the same on every commerce list. The error text
 * was already toasted by the request layer; here it stays on the page with a retry.
 */
export function QueryState<T>({
  query,
  isEmpty,
  empty,
  rows = 3,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  rows?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton active paragraph={{ rows }} />;
  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="加载失败"
        description={query.error.message || '请稍后重试'}
        action={
          <Button size="small" icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            重试
          </Button>
        }
      />
    );
  }
  if (isEmpty?.(query.data) && empty) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

/** "¥299.00" in the price style. */
export function Money({ fen, strong }: { fen: number; strong?: boolean }) {
  return <span className={strong ? 'money money-strong' : 'money'}>{formatFen(fen)}</span>;
}

export function StatusTag({ status }: { status: 'active' | 'recovered' }) {
  return status === 'active' ? <Tag color="success">使用中</Tag> : <Tag>已回收</Tag>;
}

/** Quota figures shown on 套餐, 我的API and 子账号. */
export function QuotaSummary({
  totalSlots,
  allocatedSlots,
  freeSlots,
}: {
  totalSlots: number;
  allocatedSlots: number;
  freeSlots: number;
}) {
  return (
    <div className="quota-summary" data-testid="quota-summary">
      <div className="quota-item">
        <span className="quota-label">套餐账号数</span>
        <span className="quota-value" data-testid="quota-total">
          {totalSlots}
        </span>
      </div>
      <div className="quota-item">
        <span className="quota-label">已分配</span>
        <span className="quota-value" data-testid="quota-allocated">
          {allocatedSlots}
        </span>
      </div>
      <div className="quota-item">
        <span className="quota-label">可分配</span>
        <span
          className={freeSlots > 0 ? 'quota-value quota-free' : 'quota-value quota-none'}
          data-testid="quota-free"
        >
          {freeSlots}
        </span>
      </div>
    </div>
  );
}
