import { DEFAULT_THEME_COLOR } from '@wxc/contract/constants';
import { describe, expect, it } from 'vitest';
import { contrast, MENU_TEXT, mix, palette, parseHex, THEME_PRESETS, themeConfig, themeVars } from './theme';

/** Hue in degrees, to tell "the same colour, lighter" from "another colour". */
function hue(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('theme palette', () => {
  it('keeps the default colour as it is everywhere, the sidebar included', () => {
    const p = palette(DEFAULT_THEME_COLOR);
    expect(p.primary).toBe('#1890ff');
    expect(p.onDark).toBe('#1890ff');
  });

  it('derives every accent from the one theme colour, in its own hue (no fixed second colour)', () => {
    for (const color of THEME_PRESETS.filter((c) => c !== '#304156')) {
      const p = palette(color);
      for (const derived of [p.hover, p.light, p.onDark]) {
        expect(Math.abs(hue(derived) - hue(color)), `${color} -> ${derived}`).toBeLessThan(6);
      }
    }
    // A red theme's stat-card gradient ends in a lighter red, not the old fixed teal (#36cfc9).
    expect(palette('#f5222d').light).toBe(mix('#f5222d', '#ffffff', 0.3));
    expect(palette('#f5222d').light).not.toBe('#36cfc9');
  });

  it('keeps the sidebar active item readable on the navy menu for every preset', () => {
    for (const color of THEME_PRESETS) {
      const p = palette(color);
      expect(contrast(p.onDark, p.onDarkBg), color).toBeGreaterThanOrEqual(3);
      // Told apart from the plain menu items too.
      expect(p.onDark).not.toBe(MENU_TEXT);
    }
  });

  it('feeds antd and plain CSS from the same colour', () => {
    const config = themeConfig('#11a983');
    expect(config.token?.colorPrimary).toBe('#11a983');
    expect(config.token?.colorLink).toBe('#11a983');
    expect(config.components?.Menu?.darkItemSelectedColor).toBe(palette('#11a983').onDark);
    expect(themeVars('#11a983')['--wxc-primary']).toBe('#11a983');
    expect(themeVars('#11a983')['--wxc-primary-on-dark']).toBe(palette('#11a983').onDark);
  });

  it('falls back to the default for a colour it cannot read', () => {
    expect(palette('not-a-colour').primary).toBe('#1890ff');
    expect(palette('#0a0').primary).toBe('#00aa00');
  });
});
