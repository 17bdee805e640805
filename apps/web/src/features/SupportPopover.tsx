import { CustomerServiceOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { useSite } from '../stores/site';

/** Contact support: the QR image and text from siteInfo; a placeholder when none is configured. */
export function SupportPopover({ compact = false }: { compact?: boolean }) {
  const { supportQrUrl, supportText } = useSite();
  const content = (
    <div className="support-popover">
      {supportQrUrl ? (
        <img src={supportQrUrl} alt="客服二维码" width={160} height={160} />
      ) : (
        <div className="support-qr-placeholder" role="img" aria-label="暂未配置客服二维码">
          <QrcodeOutlined />
          <span>暂未配置二维码</span>
        </div>
      )}
      <p>{supportText || '扫码添加客服，工作日 9:00-18:00 在线'}</p>
    </div>
  );
  return (
    <Popover content={content} title="联系客服" trigger="click" placement="bottom">
      <Button type="text" icon={<CustomerServiceOutlined />} aria-label="联系客服" title="联系客服">
        {compact ? null : <span className="nav-label">联系客服</span>}
      </Button>
    </Popover>
  );
}
