/** How far a dragged dialog may go: its whole box stays inside the viewport. */
export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * react-draggable's bounds (limits of its translate x / y) for an element now at `rect` after a
 * translation of (`x`, `y`), so that it stays within a `width` × `height` viewport. An element
 * larger than the viewport keeps its top-left corner on screen (its header, the handle, stays reachable).
 */
export function viewportBounds(
  rect: { left: number; top: number; right: number; bottom: number },
  x: number,
  y: number,
  width: number,
  height: number,
): Bounds {
  const left = x - rect.left;
  const top = y - rect.top;
  return {
    left,
    top,
    right: Math.max(left, width - rect.right + x),
    bottom: Math.max(top, height - rect.bottom + y),
  };
}
