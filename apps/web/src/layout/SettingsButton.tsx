import { SettingOutlined } from '@ant-design/icons';
import { SETTINGS_BUTTON_TOP_PX } from '@wxc/contract/constants';
import { lazy, Suspense } from 'react';
import { useApp } from '../stores/app';
import { useSettings } from '../stores/settings';
import { closeSettingsPanel, openSettingsPanel, useSettingsPanel } from './settings-panel';

const SettingsDrawer = lazy(() => import('./SettingsDrawer'));

/**
 * The settings entry on the right edge, 250 px from the top (spec §9). At rest it is a slim tab that
 * stays inside the page's margin, so it never covers content; it slides out on hover and on keyboard
 * focus. Phones get no edge tab (too small to tap, and the margin is narrow): 布局设置 in the avatar
 * menu opens the same drawer.
 */
export function SettingsButton() {
  const showSettings = useSettings((s) => s.showSettings);
  const mobile = useApp((s) => s.device === 'mobile');
  const { open, mounted } = useSettingsPanel();
  return (
    <>
      {showSettings && !mobile ? (
        <button
          type="button"
          className="settings-button"
          style={{ top: SETTINGS_BUTTON_TOP_PX }}
          aria-label="系统布局设置"
          title="系统布局设置"
          onClick={openSettingsPanel}
        >
          <SettingOutlined />
        </button>
      ) : null}
      {mounted ? (
        <Suspense fallback={null}>
          <SettingsDrawer open={open} onClose={closeSettingsPanel} />
        </Suspense>
      ) : null}
    </>
  );
}
