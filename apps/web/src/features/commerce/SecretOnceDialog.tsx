import { ExclamationCircleFilled } from '@ant-design/icons';
import type { ApiAccount } from '@wxc/contract/calls/api-accounts';
import { Alert, Button, Modal } from 'antd';
import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { useFeedback } from '../../components/feedback';
import './commerce.css';

export interface Credentials {
  account: ApiAccount;
  appSecret: string;
}

/**
 * The one moment a secret is visible (created, reset, API opened): key and secret with copy buttons
 * and a warning. Closing before copying the secret asks first; the server keeps only its hash.
 */
export function SecretOnceDialog({
  credentials,
  title = '请保存 API 密钥',
  onClose,
}: {
  credentials: Credentials | null;
  title?: string;
  onClose(): void;
}) {
  const { modal } = useFeedback();
  const [copied, setCopied] = useState(false);
  const close = () => {
    if (copied) {
      setCopied(false);
      onClose();
      return;
    }
    modal.confirm({
      title: '还没有复制 AppSecret',
      icon: <ExclamationCircleFilled />,
      content: '关闭后将无法再次查看此密钥，只能重置生成新的密钥。确定关闭吗？',
      okText: '确定关闭',
      cancelText: '返回复制',
      onOk: () => {
        setCopied(false);
        onClose();
      },
    });
  };
  const account = credentials?.account;
  const both = credentials
    ? `AppKey: ${credentials.account.appKey}\nAppSecret: ${credentials.appSecret}`
    : '';
  return (
    <Modal
      open={Boolean(credentials)}
      title={title}
      onCancel={close}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={[
        <CopyButton
          key="both"
          text={both}
          what="AppKey 和 AppSecret"
          label="全部复制"
          type="default"
          size="middle"
          onCopied={() => setCopied(true)}
        />,
        <Button key="ok" type="primary" onClick={close}>
          我已保存
        </Button>,
      ]}
    >
      <Alert
        type="warning"
        showIcon
        title="AppSecret 只显示这一次"
        description="服务端只保存密钥的摘要，关闭本窗口后无法再次查看。请立即复制并保存到安全的地方；遗失后只能重置。"
      />
      {credentials && account ? (
        <dl className="secret-list">
          <dt>子账号</dt>
          <dd>{account.name}</dd>
          <dt>AppKey</dt>
          <dd>
            <code className="code-value" data-testid="secret-app-key">
              {account.appKey}
            </code>
            <CopyButton text={account.appKey} what="AppKey" label={null} />
          </dd>
          <dt>AppSecret</dt>
          <dd>
            <code className="code-value" data-testid="secret-app-secret">
              {credentials.appSecret}
            </code>
            <CopyButton
              text={credentials.appSecret}
              what="AppSecret"
              label={null}
              onCopied={() => setCopied(true)}
            />
          </dd>
        </dl>
      ) : null}
    </Modal>
  );
}
