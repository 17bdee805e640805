import { closestCenter, DndContext, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Select, type SelectProps, Tag } from 'antd';
import { useState } from 'react';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { chineseAnnouncements, useDragSensors } from './dnd/a11y';
import '../showcase.css';
import './dnd.css';

const FRUITS = ['苹果', '香蕉', '橙子', '葡萄', '西瓜', '草莓', '芒果', '菠萝', '樱桃', '柠檬'];
const OPTIONS = FRUITS.map((f) => ({ value: f, label: f }));

type TagProps = Parameters<NonNullable<SelectProps['tagRender']>>[0];

/**
 * One selected value as a sortable tag. A press on it must not reach the Select (it would open the
 * list); Backspace or Delete removes this tag rather than the Select's last one.
 */
function SortableTag({ value, label, closable, onClose }: TagProps) {
  const id = String(value);
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <button> could not hold the tag's own close button.
    <span
      ref={setNodeRef}
      className={`drag-tag${isDragging ? ' drag-tag-dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-value={id}
      {...attributes}
      {...listeners}
      role="button"
      tabIndex={0}
      aria-label={`${id}（可拖动排序）`}
      onMouseDown={(e) => {
        listeners?.onMouseDown?.(e);
        e.preventDefault();
        e.stopPropagation();
      }}
      onKeyDown={(e) => {
        if (!isDragging && (e.key === 'Backspace' || e.key === 'Delete')) {
          e.stopPropagation();
          onClose();
          return;
        }
        listeners?.onKeyDown?.(e);
      }}
    >
      <Tag closable={closable} onClose={onClose} style={{ marginInlineEnd: 0 }}>
        {label}
      </Tag>
    </span>
  );
}

/** /components/drag-select (拖拽 Select): a multi-select whose tags reorder by pointer or keyboard. */
export default function DragSelectPage() {
  const [value, setValue] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const sensors = useDragSensors();

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setValue((v) => arrayMove(v, v.indexOf(String(active.id)), v.indexOf(String(over.id))));
  };

  return (
    <div className="page showcase-page" data-testid="drag-select-page">
      <PageHeader subtitle="选中的标签可以拖动排序；键盘：Tab 到标签上，空格拿起，左右方向键移动，空格放下，Delete 删除" />
      <Card>
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          accessibility={chineseAnnouncements((id) => id)}
          onDragEnd={onDragEnd}
        >
          <SortableContext items={value} strategy={rectSortingStrategy}>
            <Select
              mode="multiple"
              className="drag-select"
              aria-label="选择水果"
              placeholder="请选择水果"
              options={OPTIONS}
              value={value}
              onChange={setValue}
              open={open}
              // Keys pressed on a focused tag (Space to lift it) must not open the list.
              onOpenChange={(next) => {
                if (next && document.activeElement?.closest('.drag-tag')) return;
                setOpen(next);
              }}
              tagRender={(props) => <SortableTag {...props} />}
            />
          </SortableContext>
        </DndContext>
        <p className="drag-order" data-testid="drag-order">
          当前顺序：{value.length ? value.join(' → ') : '（未选择）'}
        </p>
      </Card>
    </div>
  );
}
