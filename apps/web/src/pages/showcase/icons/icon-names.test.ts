import { describe, expect, it } from 'vitest';
import { iconComponentName, iconJsx, matchesIcon } from './icon-names';

describe('icon gallery names', () => {
  it('turns the icon set file into the @ant-design/icons export', () => {
    expect(iconComponentName('/x/inline-svg/outlined/arrow-down.svg', 'outlined')).toBe('ArrowDownOutlined');
    expect(iconComponentName('html5.svg', 'filled')).toBe('Html5Filled');
    expect(iconComponentName('smile.svg', 'twotone')).toBe('SmileTwoTone');
    expect(iconJsx('SmileOutlined')).toBe('<SmileOutlined />');
  });

  it('searches case-insensitively, every word', () => {
    expect(matchesIcon('ArrowDownOutlined', 'arrow')).toBe(true);
    expect(matchesIcon('ArrowDownOutlined', 'DOWN arrow')).toBe(true);
    expect(matchesIcon('ArrowDownOutlined', 'up')).toBe(false);
    expect(matchesIcon('ArrowDownOutlined', '  ')).toBe(true);
  });
});
