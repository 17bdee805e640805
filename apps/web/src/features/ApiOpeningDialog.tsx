import { Button, Modal, Skeleton, Space } from 'antd';
import { lazy, Suspense } from 'react';
import { useSession } from '../stores/session';

// Loaded when the dialog first opens, so the shell does not carry the commerce widgets.
const AccessModeList = lazy(() =>
  import('./commerce/AccessModeList').then((m) => ({ default: m.AccessModeList })),
);
const ApplyApiButton = lazy(() =>
  import('./commerce/ApplyApiButton').then((m) => ({ default: m.ApplyApiButton })),
);
const TierRule = lazy(() => import('./commerce/TierRule').then((m) => ({ default: m.TierRule })));

/**
 * API-opening information: how the tier rule stands for this company (its access mode, the tier it
 * needs, whether its package serves it), the four access modes with the tiers that support each, the
 * company's own (accountType) highlighted, and 开通 API for a company with a package but no API
 * access yet (disabled, saying why, when the package does not serve its access mode).
 */
export function ApiOpeningDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const accountType = useSession((s) => s.user?.accountType);
  const isCustomer = useSession((s) => !!s.user && !s.user.roles.includes('admin'));
  return (
    <Modal
      title="API 开通说明"
      open={open}
      onCancel={onClose}
      width={640}
      footer={
        <Space>
          {isCustomer && open ? (
            <Suspense fallback={null}>
              <ApplyApiButton onDone={onClose} />
            </Suspense>
          ) : null}
          <Button type="primary" onClick={onClose}>
            知道了
          </Button>
        </Space>
      }
    >
      {open ? (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
          {isCustomer ? (
            <div className="api-opening-rule">
              <TierRule onNavigate={onClose} />
            </div>
          ) : null}
          <AccessModeList accountType={accountType} />
        </Suspense>
      ) : null}
    </Modal>
  );
}
