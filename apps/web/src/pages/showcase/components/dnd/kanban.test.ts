import { KANBAN_CARDS_MAX, kanbanBoardSchema } from '@wxc/contract/calls/showcase';
import { describe, expect, it } from 'vitest';
import { boardToLanes, hasRoom, lanesToBoard } from './kanban';
import { moveItem } from './lanes';

const board = {
  columns: [
    { key: 'todo' as const, cards: [{ id: 'a', text: '写文档' }] },
    { key: 'doing' as const, cards: [] },
    { key: 'done' as const, cards: [{ id: 'b', text: '发版' }] },
  ],
};

describe('kanban board ↔ lanes', () => {
  it('round-trips, and a moved card is saved in its new column', () => {
    expect(lanesToBoard(boardToLanes(board))).toEqual(board);
    const moved = lanesToBoard(moveItem(boardToLanes(board), 'a', 'b', true));
    expect(moved.columns.map((c) => c.cards.map((x) => x.id))).toEqual([[], [], ['b', 'a']]);
    expect(kanbanBoardSchema.safeParse(moved).success).toBe(true);
  });

  it('fills a missing column and keeps the contract order', () => {
    const lanes = boardToLanes({ columns: [board.columns[2]!, board.columns[0]!] } as never);
    expect(Object.keys(lanes)).toEqual(['todo', 'doing', 'done']);
    expect(lanes.doing).toEqual([]);
  });

  it('has room below the maximum only', () => {
    const full = Array.from({ length: KANBAN_CARDS_MAX }, (_, i) => ({ id: `c${i}`, text: 'x' }));
    expect(hasRoom(boardToLanes(board), 'todo')).toBe(true);
    expect(hasRoom({ ...boardToLanes(board), todo: full }, 'todo')).toBe(false);
  });
});
