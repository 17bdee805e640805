import { Button, Descriptions, Modal } from 'antd';
import { useSession } from '../stores/session';
import { accountTypeLabel } from '../utils/labels';

export { accountTypeLabel };

/**
 * API information from the user info. The service address and credentials come with the packages
 * issue (showByRecord, API accounts); until then the dialog says so.
 */
export function ApiInfoDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const user = useSession((s) => s.user);
  return (
    <Modal
      title="API 信息"
      open={open}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          知道了
        </Button>
      }
    >
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="公司名称">{user?.companyName || '—'}</Descriptions.Item>
        <Descriptions.Item label="登录账号">{user?.companyAccount || '—'}</Descriptions.Item>
        <Descriptions.Item label="接入方式">{accountTypeLabel(user?.accountType)}</Descriptions.Item>
        <Descriptions.Item label="服务版本">
          {user?.serverFlag === 'formal' ? '正式版' : '测试版'}
        </Descriptions.Item>
      </Descriptions>
      <p className="muted dialog-note">
        接口地址、AppKey 等接入信息将在购买套餐后显示，相关功能随套餐模块一起上线。
      </p>
    </Modal>
  );
}
