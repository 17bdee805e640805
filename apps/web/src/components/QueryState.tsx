import { ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Skeleton } from 'antd';
import type { ReactNode } from 'react';

/**
 * Loading, error and empty states around a query, the same on every screen. The error text was
 * already toasted by the request layer; here it stays on the page with a retry.
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
