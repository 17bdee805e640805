import { describe, expect, it } from 'vitest';
import { viewportBounds } from './drag-bounds';

describe('drag bounds', () => {
  it('lets a centred box move to each edge of the viewport and no further', () => {
    // 400 × 300 box centred in 1440 × 900, not yet moved.
    const b = viewportBounds({ left: 520, top: 300, right: 920, bottom: 600 }, 0, 0, 1440, 900);
    expect(b).toEqual({ left: -520, top: -300, right: 520, bottom: 300 });
  });

  it('counts from the current translation', () => {
    // The same box already moved 100 px right and 50 px down.
    const b = viewportBounds({ left: 620, top: 350, right: 1020, bottom: 650 }, 100, 50, 1440, 900);
    expect(b).toEqual({ left: -520, top: -300, right: 520, bottom: 300 });
  });

  it('a box larger than the viewport keeps its top-left corner on screen', () => {
    const b = viewportBounds({ left: 8, top: 100, right: 368, bottom: 1000 }, 0, 0, 375, 812);
    expect(b.top).toBe(-100);
    expect(b.bottom).toBe(-100);
    expect(b.left).toBe(-8);
    expect(b.right).toBe(7);
  });
});
