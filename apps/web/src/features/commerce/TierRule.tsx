import { ShoppingOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useNavigate } from 'react-router';
import { useCompanyAccountType, useReadOnly } from '../../stores/support-view';
import { accountTypeLabel } from '../../utils/labels';
import { type TierStanding, tierStanding } from './logic';
import { useSubscriptions } from './queries';
import './commerce.css';

/** The company's standing under the tier rule (spec §9), or undefined while loading. */
export function useTierStanding(): TierStanding | undefined {
  const accountType = useCompanyAccountType();
  const subs = useSubscriptions();
  if (accountType === undefined || !subs.data) return undefined;
  return tierStanding(subs.data.list, accountType);
}

/**
 * The tier rule as it applies to this company: its access mode, the tier it needs, and whether a
 * package in force serves it, with the way to a fitting package. `onlyProblems` shows nothing while
 * the company is fine (on pages where the rule is not the subject).
 */
export function TierRule({
  onlyProblems = false,
  onNavigate,
}: {
  onlyProblems?: boolean;
  onNavigate?(): void;
}) {
  const standing = useTierStanding();
  const accountType = useCompanyAccountType();
  const readOnly = useReadOnly();
  const navigate = useNavigate();
  if (!standing) return null;
  const mode = accountTypeLabel(accountType);
  // The support view reads another company's console: "该公司", not "贵公司".
  const whose = readOnly ? '该公司' : '贵公司';
  const buy = readOnly ? null : (
    <Button
      size="small"
      type="primary"
      icon={<ShoppingOutlined />}
      onClick={() => {
        onNavigate?.();
        navigate('/purchaseRecords/index');
      }}
    >
      去购买
    </Button>
  );
  if (standing.fits) {
    if (onlyProblems) return null;
    return (
      <Alert
        type="success"
        showIcon
        data-testid="tier-rule"
        title={`当前套餐支持${whose}的接入方式「${mode}」`}
        description={`${standing.needed}，可以开通 API、新建子账号。`}
      />
    );
  }
  if (standing.hasActive) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="tier-rule"
        title={`当前套餐不支持${whose}的接入方式「${mode}」`}
        description={`${standing.unfit.join('、')} 不能用于「${mode}」接入：${standing.needed}。购买符合的套餐后才能开通 API、新建子账号。`}
        action={buy}
      />
    );
  }
  if (onlyProblems) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="tier-rule"
      title={`${whose}的接入方式：${mode}`}
      description={`${standing.needed}。购买符合的套餐后即可开通 API。`}
      action={buy}
    />
  );
}
