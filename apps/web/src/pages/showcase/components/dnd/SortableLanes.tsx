import {
  type Active,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  type Over,
  useDroppable,
} from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { type ReactNode, useState } from 'react';
import { chineseAnnouncements, useDragSensors } from './a11y';
import { type Lanes, laneOf, moveItem, sameOrder, type WithId } from './lanes';
import '../dnd.css';

export interface SortableLanesProps<T extends WithId> {
  lanes: Lanes<T>;
  /** Called once per drop that changed something, with the new lanes. */
  onChange: (next: Lanes<T>) => void;
  /** An item's content (its box, focus ring and drag handling are this component's). */
  renderItem: (item: T) => ReactNode;
  /** What an item is called in the screen-reader announcements. */
  itemName: (item: T) => string;
  laneName: (key: string) => string;
  /** Above a lane's items: its title, its order... */
  laneHeader?: (key: string, items: T[]) => ReactNode;
  /** Below a lane's items: e.g. a form to add one. */
  laneFooter?: (key: string, items: T[]) => ReactNode;
  /** Shown in an empty lane (it stays a drop target). */
  emptyText?: string;
  className?: string;
}

/** Below the middle of the item it is over: a move into another lane goes after that item. */
function isBelow(active: Active, over: Over): boolean {
  const rect = active.rect.current.translated;
  return !!rect && rect.top + rect.height / 2 > over.rect.top + over.rect.height / 2;
}

/**
 * Lanes of sortable items (dnd-kit): drag an item within its lane or into another, by pointer or
 * keyboard (Space/Enter to lift, arrows to move, Space/Enter to drop, Esc to cancel). While dragging,
 * the lanes shown are a draft; the parent hears only the final order.
 */
export function SortableLanes<T extends WithId>({
  lanes,
  onChange,
  renderItem,
  itemName,
  laneName,
  laneHeader,
  laneFooter,
  emptyText = '拖到这里',
  className,
}: SortableLanesProps<T>) {
  const sensors = useDragSensors();
  const [draft, setDraft] = useState<Lanes<T> | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const shown = draft ?? lanes;
  const byId = (id: string) =>
    Object.values(shown)
      .flat()
      .find((i) => i.id === id);
  const nameOf = (id: string) => {
    if (Object.hasOwn(shown, id)) return laneName(id);
    const item = byId(id);
    return item ? itemName(item) : id;
  };
  const active = activeId ? byId(activeId) : undefined;

  // Across lanes the item moves while it is dragged (so the target lane opens a gap for it); within
  // its lane dnd-kit only shows the shift, and the order changes on the drop.
  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (!over) return;
    const below = isBelow(active, over);
    setDraft((d) => {
      if (!d) return d;
      const from = laneOf(d, String(active.id));
      const to = laneOf(d, String(over.id));
      return from && to && from !== to ? moveItem(d, String(active.id), String(over.id), below) : d;
    });
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const final = draft && over ? moveItem(draft, String(active.id), String(over.id)) : lanes;
    setDraft(null);
    setActiveId(null);
    if (!sameOrder(final, lanes)) onChange(final);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCorners}
      accessibility={chineseAnnouncements(nameOf)}
      onDragStart={({ active }) => {
        setDraft(lanes);
        setActiveId(String(active.id));
      }}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        setDraft(null);
        setActiveId(null);
      }}
    >
      <div className={['dnd-lanes', className].filter(Boolean).join(' ')}>
        {Object.entries(shown).map(([key, items]) => (
          <section key={key} className="dnd-lane" aria-label={laneName(key)} data-testid={`lane-${key}`}>
            {laneHeader?.(key, items)}
            <Lane id={key} items={items} emptyText={emptyText} renderItem={renderItem} itemName={itemName} />
            {laneFooter?.(key, items)}
          </section>
        ))}
      </div>
      <DragOverlay>
        {active ? <div className="dnd-item dnd-overlay">{renderItem(active)}</div> : null}
      </DragOverlay>
    </DndContext>
  );
}

function Lane<T extends WithId>({
  id,
  items,
  emptyText,
  renderItem,
  itemName,
}: {
  id: string;
  items: T[];
  emptyText: string;
  renderItem: (item: T) => ReactNode;
  itemName: (item: T) => string;
}) {
  // The lane itself is a drop target: how an item reaches an empty lane, or the end of one.
  const { setNodeRef, isOver } = useDroppable({ id });
  return (
    <SortableContext id={id} items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
      <ul ref={setNodeRef} className={`dnd-lane-items${isOver ? ' dnd-lane-over' : ''}`}>
        {items.map((item) => (
          <SortableItem key={item.id} id={item.id} label={itemName(item)}>
            {renderItem(item)}
          </SortableItem>
        ))}
        {items.length ? null : <li className="dnd-empty">{emptyText}</li>}
      </ul>
    </SortableContext>
  );
}

function SortableItem({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <li
      ref={setNodeRef}
      className={`dnd-item${isDragging ? ' dnd-placeholder' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-id={id}
      aria-label={label}
      {...attributes}
      {...listeners}
    >
      {children}
    </li>
  );
}
