import { SafetyCertificateOutlined } from '@ant-design/icons';
import { REAL_NAME_LABELS, type RealNameStatusValue } from '@wxc/contract/domain';
import { Tag } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSession } from '../stores/session';
import { realNameStatus } from '../utils/labels';
import { useRealNameLive } from './realname/useRealNameLive';

export { realNameStatus };

/** The upload dialog loads when first opened (features/realname). */
const RealNameDialog = lazy(() => import('./realname/RealNameDialog'));

const COLORS: Record<RealNameStatusValue, string> = {
  0: 'warning',
  1: 'success',
  2: 'processing',
  3: 'error',
};

/**
 * The verification badge in the top bar (spec §2, §3 realNameUser) and its entry: a click opens the
 * real-name dialog. The badge follows the status live (useRealNameLive).
 */
export function RealNameBadge({ compact = false }: { compact?: boolean }) {
  const value = useSession((s) => s.user?.realNameUser);
  const status = realNameStatus(value);
  const [open, setOpen] = useState(false);
  useRealNameLive();
  return (
    <>
      <button
        type="button"
        className="realname-badge"
        onClick={() => setOpen(true)}
        aria-label={`实名认证：${REAL_NAME_LABELS[status]}`}
        data-status={status}
      >
        <Tag color={COLORS[status]} icon={<SafetyCertificateOutlined />} variant="filled">
          {compact ? REAL_NAME_LABELS[status] : `实名认证：${REAL_NAME_LABELS[status]}`}
        </Tag>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <RealNameDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
