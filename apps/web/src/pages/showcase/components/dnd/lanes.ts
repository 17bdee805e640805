/**
 * Ordered lists ("lanes") of items with ids, as the drag-and-drop pages hold them: a list, two lists
 * side by side, the kanban's columns. Pure functions: every change answers a new object, or the same
 * object when nothing changed (so React skips the render and the kanban skips the save).
 */

export interface WithId {
  id: string;
}

/** Lane key → its items, in order. */
export type Lanes<T extends WithId> = Record<string, T[]>;

/** The lane holding the item `id`, or `id` itself when it is a lane's key (a drop on the lane). */
export function laneOf<T extends WithId>(lanes: Lanes<T>, id: string): string | undefined {
  if (Object.hasOwn(lanes, id)) return id;
  return Object.keys(lanes).find((key) => lanes[key]!.some((item) => item.id === id));
}

/**
 * Moves the item `activeId` to where `overId` is: before that item (after it with `after`), or at
 * the end of a lane when `overId` is the lane's key. Within one lane, the item takes the other's
 * place (dnd-kit's sortable order). Unknown ids change nothing.
 */
export function moveItem<T extends WithId>(
  lanes: Lanes<T>,
  activeId: string,
  overId: string,
  after = false,
): Lanes<T> {
  const from = laneOf(lanes, activeId);
  const to = laneOf(lanes, overId);
  if (!from || !to || activeId === overId || Object.hasOwn(lanes, activeId)) return lanes;
  const source = lanes[from]!;
  const item = source.find((i) => i.id === activeId)!;

  if (from === to) {
    if (to === overId) return lanes; // over its own lane's empty space: stays where it is
    const oldIndex = source.indexOf(item);
    const newIndex = source.findIndex((i) => i.id === overId);
    const next = source.filter((i) => i !== item);
    next.splice(newIndex, 0, item);
    return oldIndex === newIndex ? lanes : { ...lanes, [from]: next };
  }

  const target = lanes[to]!;
  const overIndex = target.findIndex((i) => i.id === overId);
  const index = overIndex < 0 ? target.length : overIndex + (after ? 1 : 0);
  return {
    ...lanes,
    [from]: source.filter((i) => i !== item),
    [to]: [...target.slice(0, index), item, ...target.slice(index)],
  };
}

/** Adds `item` at the end of lane `key` (or the start with `atStart`). */
export function addItem<T extends WithId>(lanes: Lanes<T>, key: string, item: T, atStart = false): Lanes<T> {
  const lane = lanes[key];
  if (!lane) return lanes;
  return { ...lanes, [key]: atStart ? [item, ...lane] : [...lane, item] };
}

/** Removes the item `id` from whichever lane holds it. */
export function removeItem<T extends WithId>(lanes: Lanes<T>, id: string): Lanes<T> {
  const key = laneOf(lanes, id);
  if (!key || key === id) return lanes;
  return { ...lanes, [key]: lanes[key]!.filter((i) => i.id !== id) };
}

/** The same items in the same lanes in the same order (what a save would store). */
export function sameOrder<T extends WithId>(a: Lanes<T>, b: Lanes<T>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const x = a[key]!;
    const y = b[key];
    return !!y && x.length === y.length && x.every((item, i) => item.id === y[i]!.id);
  });
}

/** One lane's items, as "1. a → 2. b" style text for the pages' order read-outs. */
export function orderText<T extends WithId>(items: T[], label: (item: T) => string): string {
  return items.length ? items.map(label).join(' → ') : '（空）';
}

/** A fresh id for a new item: letters, digits and `-` only, unique enough for one board. */
export function newId(prefix = 'c', now = Date.now(), random = Math.random()): string {
  return `${prefix}-${now.toString(36)}-${Math.floor(random * 36 ** 4).toString(36)}`;
}
