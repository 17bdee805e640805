import { QrcodeOutlined } from '@ant-design/icons';
import { Popover } from 'antd';
import { type ReactElement, useEffect, useRef, useState } from 'react';
import { useSite } from '../stores/site';

/**
 * 联系客服's popover (antd's Popover): loaded by SupportPopover on the first click, so it mounts open.
 * `children` is the trigger button; it replaces the light one that was clicked, so focus moves to it.
 */
export default function SupportPopoverPanel({ children }: { children: ReactElement }) {
  const { supportQrUrl, supportText } = useSite();
  const [open, setOpen] = useState(true);
  const anchor = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    // The button clicked was unmounted: give its focus to the one that replaced it.
    if (document.activeElement === document.body || !document.activeElement) {
      anchor.current?.querySelector('button')?.focus({ preventScroll: true });
    }
  }, []);
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
    <span ref={anchor} className="support-anchor">
      <Popover
        content={content}
        title="联系客服"
        trigger="click"
        placement="bottom"
        open={open}
        onOpenChange={setOpen}
      >
        {children}
      </Popover>
    </span>
  );
}
