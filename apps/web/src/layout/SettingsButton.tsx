import { SettingOutlined } from '@ant-design/icons';
import { SETTINGS_BUTTON_TOP_PX } from '@wxc/contract/constants';
import { lazy, Suspense, useState } from 'react';
import { useSettings } from '../stores/settings';

const SettingsDrawer = lazy(() => import('./SettingsDrawer'));

/** The settings button, 250 px from the top on the right edge; the drawer loads on first open. */
export function SettingsButton() {
  const showSettings = useSettings((s) => s.showSettings);
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  if (!showSettings) return null;
  return (
    <>
      <button
        type="button"
        className="settings-button"
        style={{ top: SETTINGS_BUTTON_TOP_PX }}
        aria-label="系统布局设置"
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        <SettingOutlined />
      </button>
      {mounted ? (
        <Suspense fallback={null}>
          <SettingsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
