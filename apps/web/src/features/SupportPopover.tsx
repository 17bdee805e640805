import { CustomerServiceOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';

// The popover (antd's Popover, the QR and text) loads when the pointer or focus comes near the
// button, and opens on the first click: nothing of it on the first load (≈4 KB gzip).
const loadPanel = () => import('./SupportPopoverPanel');
const SupportPopoverPanel = lazy(loadPanel);
const preload = () => void loadPanel();

/** Contact support: the QR image and text from siteInfo; a placeholder when none is configured. */
export function SupportPopover({ compact = false }: { compact?: boolean }) {
  const [opened, setOpened] = useState(false);
  const button = (onClick?: () => void) => (
    <Button
      type="text"
      icon={<CustomerServiceOutlined />}
      aria-label="联系客服"
      title="联系客服"
      onClick={onClick}
      onMouseEnter={opened ? undefined : preload}
      onFocus={opened ? undefined : preload}
    >
      {compact ? null : <span className="nav-label">联系客服</span>}
    </Button>
  );
  if (!opened) return button(() => setOpened(true));
  return (
    <Suspense fallback={button()}>
      <SupportPopoverPanel>{button()}</SupportPopoverPanel>
    </Suspense>
  );
}
