import { KANBAN_CARDS_MAX, KANBAN_COLUMNS, type KanbanBoard } from '@wxc/contract/calls/showcase';
import type { Lanes } from './lanes';

export type KanbanColumn = (typeof KANBAN_COLUMNS)[number];
export type KanbanCard = KanbanBoard['columns'][number]['cards'][number];

export const COLUMN_TITLES: Record<KanbanColumn, string> = { todo: '待办', doing: '进行中', done: '已完成' };

/** The saved board as lanes, keyed by column (in the contract's column order). */
export function boardToLanes(board: KanbanBoard): Lanes<KanbanCard> {
  return Object.fromEntries(
    KANBAN_COLUMNS.map((key) => [key, board.columns.find((c) => c.key === key)?.cards ?? []]),
  );
}

/** Lanes as the board the service stores: exactly the three columns, in order. */
export function lanesToBoard(lanes: Lanes<KanbanCard>): KanbanBoard {
  return { columns: KANBAN_COLUMNS.map((key) => ({ key, cards: lanes[key] ?? [] })) };
}

/** A column takes a card while it holds fewer than the contract's maximum. */
export function hasRoom(lanes: Lanes<KanbanCard>, key: string): boolean {
  return (lanes[key]?.length ?? 0) < KANBAN_CARDS_MAX;
}
