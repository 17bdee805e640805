import { describe, expect, it } from 'vitest';
import { hasAccess } from './Access';

describe('hasAccess', () => {
  it('no limit lets everyone; otherwise one held role must be listed', () => {
    expect(hasAccess(undefined, 'visitor')).toBe(true);
    expect(hasAccess([], 'visitor')).toBe(true);
    expect(hasAccess(['admin'], 'admin')).toBe(true);
    expect(hasAccess(['admin'], 'editor')).toBe(false);
    expect(hasAccess(['admin', 'editor'], ['visitor', 'editor'])).toBe(true);
    expect(hasAccess(['editor'], [])).toBe(false);
  });
});
