// `isBright` of antd's color-picker/components/ColorPresets (MIT, © Ant Design), alone: antd's Button
// and Tag styles import it from that module, which also holds the presets panel and so imports
// Collapse and the colour picker's components. vite.config.ts points those two imports here, which
// keeps Collapse and the picker off every page but the settings drawer's.
import type { AggregationColor } from 'antd/es/color-picker/color';

export const isBright = (value: AggregationColor, bgColorToken: string): boolean => {
  const { r, g, b, a } = value.toRgb();
  if (a <= 0.5) {
    // Adapted to dark mode: the colour over the background, bright if its HSV value is over 0.5.
    const bg = new (value.constructor as new (input: string) => AggregationColor)(bgColorToken).toRgb();
    const alpha = a + bg.a * (1 - a);
    const over = (x: number, y: number) => Math.round((x * a + y * bg.a * (1 - a)) / alpha);
    return Math.max(over(r, bg.r), over(g, bg.g), over(b, bg.b)) / 255 > 0.5;
  }
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};
