import { describe, expect, it } from 'vitest';
import { addItem, type Lanes, laneOf, moveItem, newId, orderText, removeItem, sameOrder } from './lanes';

const item = (id: string) => ({ id });
const board = (): Lanes<{ id: string }> => ({
  todo: [item('a'), item('b'), item('c')],
  doing: [item('d')],
  done: [],
});
const ids = (lanes: Lanes<{ id: string }>) =>
  Object.fromEntries(Object.entries(lanes).map(([k, v]) => [k, v.map((i) => i.id).join('')]));

describe('laneOf', () => {
  it('finds the lane of an item, and a lane by its own key', () => {
    expect(laneOf(board(), 'b')).toBe('todo');
    expect(laneOf(board(), 'done')).toBe('done');
    expect(laneOf(board(), 'zzz')).toBeUndefined();
  });
});

describe('moveItem', () => {
  it('reorders within a lane like arrayMove (down and up)', () => {
    expect(ids(moveItem(board(), 'a', 'c')).todo).toBe('bca');
    expect(ids(moveItem(board(), 'c', 'a')).todo).toBe('cab');
  });

  it('moves into another lane before the item it is over, or after it', () => {
    expect(ids(moveItem(board(), 'b', 'd'))).toEqual({ todo: 'ac', doing: 'bd', done: '' });
    expect(ids(moveItem(board(), 'b', 'd', true))).toEqual({ todo: 'ac', doing: 'db', done: '' });
  });

  it('appends when dropped on a lane (an empty one too)', () => {
    expect(ids(moveItem(board(), 'a', 'done'))).toEqual({ todo: 'bc', doing: 'd', done: 'a' });
    expect(ids(moveItem(board(), 'a', 'doing'))).toEqual({ todo: 'bc', doing: 'da', done: '' });
  });

  it('answers the same object when nothing moves', () => {
    const b = board();
    expect(moveItem(b, 'a', 'a')).toBe(b);
    expect(moveItem(b, 'a', 'todo')).toBe(b);
    expect(moveItem(b, 'x', 'a')).toBe(b);
    expect(moveItem(b, 'a', 'x')).toBe(b);
    expect(moveItem(b, 'todo', 'doing')).toBe(b);
  });

  it('leaves the input untouched', () => {
    const b = board();
    moveItem(b, 'a', 'done');
    expect(ids(b)).toEqual(ids(board()));
  });
});

describe('addItem / removeItem', () => {
  it('adds at the end or the start of a lane, ignores an unknown lane', () => {
    expect(ids(addItem(board(), 'done', item('x'))).done).toBe('x');
    expect(ids(addItem(board(), 'todo', item('x'), true)).todo).toBe('xabc');
    const b = board();
    expect(addItem(b, 'nope', item('x'))).toBe(b);
  });

  it('removes from whichever lane holds it', () => {
    expect(ids(removeItem(board(), 'd')).doing).toBe('');
    const b = board();
    expect(removeItem(b, 'zzz')).toBe(b);
    expect(removeItem(b, 'todo')).toBe(b);
  });
});

describe('sameOrder', () => {
  it('compares lanes and order by id', () => {
    expect(sameOrder(board(), board())).toBe(true);
    expect(sameOrder(board(), moveItem(board(), 'a', 'b'))).toBe(false);
    expect(sameOrder(board(), { ...board(), done: [item('e')] })).toBe(false);
    expect(sameOrder(board(), { todo: board().todo! })).toBe(false);
  });
});

describe('orderText / newId', () => {
  it('joins labels with arrows, says empty for an empty list', () => {
    expect(orderText(board().todo!, (i) => i.id)).toBe('a → b → c');
    expect(orderText([], (i: { id: string }) => i.id)).toBe('（空）');
  });

  it('makes ids the kanban contract accepts', () => {
    expect(newId('c', 1_700_000_000_000, 0.999999)).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(newId('c', 1, 0.1)).not.toBe(newId('c', 1, 0.2));
  });
});
