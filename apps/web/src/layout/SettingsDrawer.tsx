import { Button, ColorPicker, Divider, Drawer, Radio, Switch } from 'antd';
import type { ReactNode } from 'react';
import { type Size, setSize, useApp } from '../stores/app';
import { useSettings } from '../stores/settings';
import { THEME_PRESETS } from '../utils/theme';

const PRESETS = [...THEME_PRESETS];

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="settings-row">
      <span>{label}</span>
      {children}
    </div>
  );
}

/** Settings (spec §3): theme colour, tags view, fixed header, sidebar logo — saved in localStorage. */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  const settings = useSettings();
  const size = useApp((s) => s.size);
  return (
    <Drawer title="系统布局设置" open={open} onClose={onClose} size={300} className="settings-drawer">
      <Row label="主题色">
        <ColorPicker
          value={settings.theme}
          disabledAlpha
          presets={[{ label: '推荐', colors: PRESETS }]}
          onChangeComplete={(c) => settings.change('theme', c.toHexString())}
          aria-label="主题色"
        />
      </Row>
      <div className="settings-swatches">
        {PRESETS.map((c) => (
          <button
            key={c}
            type="button"
            className={`swatch${settings.theme === c ? ' swatch-active' : ''}`}
            style={{ background: c }}
            aria-label={`主题色 ${c}`}
            onClick={() => settings.change('theme', c)}
          />
        ))}
      </div>
      <Divider />
      <Row label="显示标签页">
        <Switch
          checked={settings.tagsView}
          onChange={(v) => settings.change('tagsView', v)}
          aria-label="显示标签页"
        />
      </Row>
      <Row label="固定页头">
        <Switch
          checked={settings.fixedHeader}
          onChange={(v) => settings.change('fixedHeader', v)}
          aria-label="固定页头"
        />
      </Row>
      <Row label="侧栏标志">
        <Switch
          checked={settings.sidebarLogo}
          onChange={(v) => settings.change('sidebarLogo', v)}
          aria-label="侧栏标志"
        />
      </Row>
      <Row label="组件尺寸">
        <Radio.Group
          value={size}
          onChange={(e) => setSize(e.target.value as Size)}
          optionType="button"
          size="small"
          options={[
            { label: '小', value: 'small' },
            { label: '中', value: 'medium' },
            { label: '大', value: 'large' },
          ]}
        />
      </Row>
      <Divider />
      <Button block onClick={settings.resetSettings}>
        恢复默认设置
      </Button>
    </Drawer>
  );
}
