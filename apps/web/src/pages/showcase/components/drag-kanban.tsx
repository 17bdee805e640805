import { CheckCircleOutlined, DeleteOutlined, LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KANBAN_CARDS_MAX, type KanbanBoard, kanban, kanbanSave } from '@wxc/contract/calls/showcase';
import { Button, Input } from 'antd';
import { useRef, useState } from 'react';
import { showcaseCall } from '../../../api/showcase';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import {
  boardToLanes,
  COLUMN_TITLES,
  hasRoom,
  type KanbanCard,
  type KanbanColumn,
  lanesToBoard,
} from './dnd/kanban';
import { addItem, type Lanes, newId, removeItem } from './dnd/lanes';
import { SortableLanes } from './dnd/SortableLanes';
import '../showcase.css';

const KANBAN_KEY = ['showcase', 'kanban'] as const;
const CARD_TEXT_MAX = 200;

/**
 * Saves every change of the board: shown at once (the query's data), then PUT in the order the
 * changes were made (one at a time, so an older order never lands after a newer one). A failed save
 * was toasted by the requester; the board is then reloaded from the service.
 */
function useKanbanBoard() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: KANBAN_KEY,
    queryFn: ({ signal }) => showcaseCall(kanban, {}, { signal }),
  });
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [pending, setPending] = useState(0);
  const { message } = useFeedback();

  const save = (next: Lanes<KanbanCard>) => {
    // A card dropped on a full column goes back where it was (the service would refuse the board).
    if (Object.values(next).some((cards) => cards.length > KANBAN_CARDS_MAX)) {
      void message.warning(`每列最多 ${KANBAN_CARDS_MAX} 张卡片`);
      return;
    }
    const board = lanesToBoard(next);
    client.setQueryData<KanbanBoard>(KANBAN_KEY, board);
    setPending((n) => n + 1);
    queue.current = queue.current
      .then(() => showcaseCall(kanbanSave, board))
      .catch(() => client.invalidateQueries({ queryKey: KANBAN_KEY }))
      .finally(() => setPending((n) => n - 1));
  };
  return { query, save, saving: pending > 0 };
}

function AddCard({
  column,
  full,
  onAdd,
}: {
  column: KanbanColumn;
  full: boolean;
  onAdd: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const add = () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    onAdd(trimmed);
    setText('');
  };
  return (
    <div className="kanban-add">
      <Input
        aria-label={`新卡片（${COLUMN_TITLES[column]}）`}
        placeholder={full ? '本列已满' : '新卡片内容'}
        value={text}
        maxLength={CARD_TEXT_MAX}
        disabled={full}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={add}
      />
      <Button
        icon={<PlusOutlined />}
        disabled={full || !text.trim()}
        onClick={add}
        aria-label={`添加到${COLUMN_TITLES[column]}`}
      >
        添加
      </Button>
    </div>
  );
}

/** /components/drag-kanban (可拖拽看板): three columns of cards, every change saved to the service. */
export default function DragKanbanPage() {
  const { query, save, saving } = useKanbanBoard();
  return (
    <div className="page showcase-page" data-testid="drag-kanban-page">
      <PageHeader
        subtitle="拖动卡片调整顺序或移到其他列；每次改动都会保存，刷新后顺序不变"
        extra={
          query.data ? (
            <span className="showcase-muted" data-testid="kanban-status" aria-live="polite">
              {saving ? (
                <>
                  <LoadingOutlined /> 保存中…
                </>
              ) : (
                <>
                  <CheckCircleOutlined /> 已保存
                </>
              )}
            </span>
          ) : null
        }
      />
      <Card>
        <QueryState query={query} rows={6}>
          {(board) => {
            const lanes = boardToLanes(board);
            const remove = (card: KanbanCard) => save(removeItem(lanes, card.id));
            return (
              <SortableLanes
                lanes={lanes}
                onChange={save}
                emptyText="拖到这里，或在下方添加"
                laneName={(key) => COLUMN_TITLES[key as KanbanColumn]}
                itemName={(card) => card.text}
                laneHeader={(key, cards) => (
                  <div className={`dnd-lane-head kanban-head-${key}`}>
                    {COLUMN_TITLES[key as KanbanColumn]}
                    <span className="showcase-muted">{cards.length}</span>
                  </div>
                )}
                laneFooter={(key) => (
                  <AddCard
                    column={key as KanbanColumn}
                    full={!hasRoom(lanes, key)}
                    onAdd={(text) => save(addItem(lanes, key, { id: newId(), text }))}
                  />
                )}
                renderItem={(card) => (
                  <>
                    <span className="dnd-item-main">{card.text}</span>
                    <Button
                      type="text"
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={`删除「${card.text}」`}
                      // The card is the drag handle: a press on its delete button is a click only.
                      onMouseDown={(e) => e.stopPropagation()}
                      onTouchStart={(e) => e.stopPropagation()}
                      onKeyDown={(e) => e.stopPropagation()}
                      onClick={() => remove(card)}
                    />
                  </>
                )}
              />
            );
          }}
        </QueryState>
      </Card>
    </div>
  );
}
