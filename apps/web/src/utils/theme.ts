import { DEFAULT_THEME_COLOR } from '@wxc/contract/constants';
import type { ThemeConfig } from 'antd';

/**
 * The console's colours, in one place. The settings' theme colour (spec §3, default #1890ff) drives
 * every accent: antd's colorPrimary (buttons, links, tabs, inputs), the sidebar's active item, the
 * tags view, stat cards, charts and plain-CSS screens (through the --wxc-primary* custom properties
 * that RootLayout sets from `themeVars`). Nothing else hard-codes an accent colour.
 * The menu colours are the spec's dark navy / light grey-blue (§9).
 */
export const MENU_BG = '#304156';
export const MENU_SUB_BG = '#1f2d3d';
export const MENU_TEXT = '#bfcbd9';
export const MENU_HOVER_BG = '#263445';

/** The swatches offered in the settings drawer. */
export const THEME_PRESETS = [
  DEFAULT_THEME_COLOR,
  '#304156',
  '#11a983',
  '#13c2c2',
  '#6959cd',
  '#f5222d',
  '#fa8c16',
  '#eb2f96',
] as const;

type Rgb = [number, number, number];

/** `#rgb` / `#rrggbb` to [r, g, b]; anything else falls back to the default theme colour. */
export function parseHex(hex: string): Rgb {
  let h = hex.trim().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/i.test(h)) h = [...h].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}$/i.test(h)) return parseHex(DEFAULT_THEME_COLOR);
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** `weight` (0..1) of `other` mixed into `base`. */
export function mix(base: string, other: string, weight: number): string {
  const a = parseHex(base);
  const b = parseHex(other);
  return toHex([0, 1, 2].map((i) => a[i]! * (1 - weight) + b[i]! * weight) as Rgb);
}

export function rgba(hex: string, alpha: number): string {
  const [r, g, b] = parseHex(hex);
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** WCAG relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The least tint of `color` (mixed with white) readable on `background` (contrast ≥ `min`). */
export function readableOn(color: string, background: string, min = 3): string {
  for (let w = 0; w <= 1.0001; w += 0.05) {
    const candidate = mix(color, '#ffffff', w);
    if (contrast(candidate, background) >= min) return candidate;
  }
  return '#ffffff';
}

export interface ThemePalette {
  primary: string;
  /** Hover state of filled accents. */
  hover: string;
  /** The far end of accent gradients (same hue, lighter): stat cards. */
  light: string;
  /** Faint accent backgrounds, focus rings. */
  soft: string;
  /** The accent on the navy sidebar: the active menu item's text and marker. */
  onDark: string;
  /** The active menu item's background on the navy sidebar. */
  onDarkBg: string;
}

export function palette(theme: string): ThemePalette {
  const primary = toHex(parseHex(theme));
  const onDarkBg = mix(MENU_HOVER_BG, primary, 0.16);
  return {
    primary,
    hover: mix(primary, '#ffffff', 0.15),
    light: mix(primary, '#ffffff', 0.3),
    soft: rgba(primary, 0.15),
    onDark: readableOn(primary, onDarkBg),
    onDarkBg,
  };
}

/** CSS custom properties for plain CSS (set on <html> by RootLayout). */
export function themeVars(theme: string): Record<string, string> {
  const p = palette(theme);
  return {
    '--wxc-primary': p.primary,
    '--wxc-primary-hover': p.hover,
    '--wxc-primary-light': p.light,
    '--wxc-primary-soft': p.soft,
    '--wxc-primary-on-dark': p.onDark,
    '--wxc-primary-on-dark-bg': p.onDarkBg,
  };
}

/**
 * Whoever asked their system for less motion gets none from antd (its zooming dialogs, sliding menus
 * and drawers): they appear and go at once.
 */
const reducedMotion =
  typeof window !== 'undefined' && Boolean(window.matchMedia?.('(prefers-reduced-motion: reduce)').matches);

/** antd's theme from the same colour. */
export function themeConfig(theme: string): ThemeConfig {
  const p = palette(theme);
  return {
    token: {
      motion: !reducedMotion,
      colorPrimary: p.primary,
      colorInfo: p.primary,
      colorLink: p.primary,
      borderRadius: 4,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
    },
    components: {
      Menu: {
        darkItemBg: MENU_BG,
        darkSubMenuItemBg: MENU_SUB_BG,
        darkItemColor: MENU_TEXT,
        darkItemHoverBg: MENU_HOVER_BG,
        darkItemSelectedBg: p.onDarkBg,
        darkItemSelectedColor: p.onDark,
        darkGroupTitleColor: '#8a98ab',
      },
    },
  };
}
