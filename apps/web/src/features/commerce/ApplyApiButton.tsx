import { ApiOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import { Button, Tooltip } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { useReadOnly } from '../../stores/support-view';
import { useInvalidateCommerce } from './queries';
import { type Credentials, SecretOnceDialog } from './SecretOnceDialog';
import { useTierStanding } from './TierRule';

/**
 * 开通 API: `home.applyApis` creates the company's first sub-account (with every free slot) and
 * answers its secret once; when API access already exists it says so. Disabled, with the reason,
 * without a package in force or while none serves the company's access mode (the service answers
 * 40025); absent in the support view.
 */
export function ApplyApiButton({
  disabled,
  block,
  onDone,
}: {
  disabled?: boolean;
  block?: boolean;
  onDone?(): void;
}) {
  const { message } = useFeedback();
  const invalidate = useInvalidateCommerce();
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const readOnly = useReadOnly();
  const standing = useTierStanding();
  const refusal = !standing
    ? null
    : !standing.hasActive
      ? '购买套餐后才能开通 API'
      : !standing.fits
        ? `当前套餐不支持贵公司的接入方式：${standing.needed}`
        : null;
  const apply = useMutation({
    mutationFn: () => call(apiAccountCalls.applyApis, {}),
    onSuccess: (result) => {
      if (result.created && result.credentials) {
        void message.success('申请成功，API 已开通');
        // Refresh only when the dialog closes: the refreshed page may no longer show this button,
        // and the secret must stay on screen until the customer has saved it.
        setCredentials(result.credentials);
      } else {
        void message.info('API 已开通，可在「子账号」中管理密钥');
        void invalidate();
        onDone?.();
      }
    },
  });
  if (readOnly) return null;
  return (
    <>
      <Tooltip title={refusal}>
        <Button
          type="primary"
          icon={<ApiOutlined />}
          block={block}
          disabled={disabled || refusal !== null}
          loading={apply.isPending}
          onClick={() => apply.mutate()}
          data-testid="apply-api"
        >
          开通 API
        </Button>
      </Tooltip>
      <SecretOnceDialog
        credentials={credentials}
        title="API 已开通：请保存密钥"
        onClose={() => {
          setCredentials(null);
          void invalidate();
          onDone?.();
        }}
      />
    </>
  );
}
