import { CheckCircleFilled } from '@ant-design/icons';
import { AccountType, type AccountTypeValue } from '@wxc/contract/domain';
import { Button, Modal, Tag } from 'antd';
import { useSession } from '../stores/session';

/** Spec §9: the access modes and the support tier each needs. */
export const ACCESS_MODES: Array<{ type: AccountTypeValue; name: string; tier: string; text: string }> = [
  {
    type: AccountType.SAAS,
    name: 'SaaS',
    tier: '基础版及以上',
    text: '使用平台托管的接口服务，开通即用，无需部署。',
  },
  {
    type: AccountType.LOCAL,
    name: '本地部署',
    tier: '商务版及以上',
    text: '接口服务部署在您自己的服务器上，数据留在本地。',
  },
  {
    type: AccountType.HOSTED,
    name: '托管',
    tier: '企业版及以上',
    text: '由平台为您单独托管运维一套服务，资源独享。',
  },
  {
    type: AccountType.PRIVATE,
    name: '私有化',
    tier: '企业版及以上',
    text: '整套系统私有化交付，可按需定制与集成。',
  },
];

/** API-opening information: which access modes exist; the user's own (accountType) is highlighted. */
export function ApiOpeningDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const accountType = useSession((s) => s.user?.accountType);
  return (
    <Modal
      title="API 开通说明"
      open={open}
      onCancel={onClose}
      width={600}
      footer={
        <Button type="primary" onClick={onClose}>
          知道了
        </Button>
      }
    >
      <div className="access-modes">
        {ACCESS_MODES.map((m) => {
          const mine = m.type === accountType;
          return (
            <div key={m.type} className={`access-mode${mine ? ' access-mode-active' : ''}`} data-mine={mine}>
              <div className="access-mode-head">
                <strong>{m.name}</strong>
                {mine ? (
                  <Tag color="blue" icon={<CheckCircleFilled />}>
                    当前方式
                  </Tag>
                ) : null}
              </div>
              <div className="access-mode-tier">支持套餐：{m.tier}</div>
              <div className="muted">{m.text}</div>
            </div>
          );
        })}
      </div>
      <p className="muted dialog-note">购买或升级套餐后即可开通对应的接入方式，套餐功能即将上线。</p>
    </Modal>
  );
}
