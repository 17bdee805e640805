import type { ThemeConfig } from 'antd';

/** antd theme from the settings' colour; the menu colours are the spec's dark navy / grey-blue. */
export const MENU_BG = '#304156';
export const MENU_SUB_BG = '#1f2d3d';
export const MENU_TEXT = '#bfcbd9';
export const MENU_ACTIVE_TEXT = '#409eff';

export function themeConfig(primary: string): ThemeConfig {
  return {
    token: {
      colorPrimary: primary,
      colorInfo: primary,
      borderRadius: 4,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
    },
    components: {
      Menu: {
        darkItemBg: MENU_BG,
        darkSubMenuItemBg: MENU_SUB_BG,
        darkItemColor: MENU_TEXT,
        darkItemHoverBg: '#263445',
        darkItemSelectedBg: '#263445',
        darkItemSelectedColor: MENU_ACTIVE_TEXT,
        darkGroupTitleColor: '#8a98ab',
      },
    },
  };
}
