import { describe, expect, it } from 'vitest';
import { pageSlices } from './slices';

describe('pageSlices', () => {
  it('cuts a tall image into page-high slices, the last one shorter', () => {
    expect(pageSlices(250, 100)).toEqual([
      { top: 0, height: 100 },
      { top: 100, height: 100 },
      { top: 200, height: 50 },
    ]);
    expect(pageSlices(80, 100)).toEqual([{ top: 0, height: 80 }]);
  });
});
