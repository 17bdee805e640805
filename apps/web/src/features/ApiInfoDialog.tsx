import { Button, Modal, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';

// Loaded when the dialog first opens, so the shell does not carry the commerce widgets.
const ApiInfoSummary = lazy(() =>
  import('./commerce/ApiInfoSummary').then((m) => ({ default: m.ApiInfoSummary })),
);

/**
 * The top bar's "API 信息": the company's service address, package status, sub-accounts and quota
 * (read only while the dialog is open, so pages don't pay for it).
 */
export function ApiInfoDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Modal
      title="API 信息"
      open={open}
      onCancel={onClose}
      width={600}
      footer={
        <Button type="primary" onClick={onClose}>
          知道了
        </Button>
      }
    >
      {open ? (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
          <ApiInfoSummary onNavigate={onClose} />
        </Suspense>
      ) : null}
    </Modal>
  );
}
