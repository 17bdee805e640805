import { describe, expect, it } from 'vitest';
import { KEYBOARD_BARS, KEYBOARD_STEPS, keyboardBars, maleShare } from './data';

describe('keyboardBars', () => {
  it('draws two rows of 50 bars, the first step being the template formula', () => {
    const { front, back } = keyboardBars(0);
    expect(front).toHaveLength(KEYBOARD_BARS);
    expect(back).toHaveLength(KEYBOARD_BARS);
    const i = 7;
    expect(front[i]).toBeCloseTo((Math.sin(i / 5) * (i / 5 - 10) + i / 6) * 5, 1);
  });

  it('changes from step to step and loops back', () => {
    expect(keyboardBars(1)).not.toEqual(keyboardBars(0));
    expect(keyboardBars(KEYBOARD_STEPS)).toEqual(keyboardBars(0));
  });
});

describe('maleShare', () => {
  it('is the percentage of men per month, 0 for an empty month', () => {
    expect(maleShare([3, 0], [1, 0])).toEqual([25, 0]);
    expect(maleShare([2], [1])).toEqual([33.3]);
  });
});
