import { create } from 'zustand';

/**
 * Whether the settings drawer is open. Two entries open it: the slim tab on the right edge (desktop)
 * and 布局设置 in the avatar menu (every width; the only one on phones, where an edge tab would sit
 * on the content). The drawer's code loads on first open.
 */
export const useSettingsPanel = create<{ open: boolean; mounted: boolean }>(() => ({
  open: false,
  mounted: false,
}));

export function openSettingsPanel(): void {
  useSettingsPanel.setState({ open: true, mounted: true });
}

export function closeSettingsPanel(): void {
  useSettingsPanel.setState({ open: false });
}
