import {
  type Announcements,
  KeyboardSensor,
  MouseSensor,
  type ScreenReaderInstructions,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';

/** dnd-kit's screen-reader texts, in Chinese; `name` turns a dragged id into what it shows. */
export function chineseAnnouncements(name: (id: string) => string): {
  announcements: Announcements;
  screenReaderInstructions: ScreenReaderInstructions;
} {
  const of = (id: string | number) => name(String(id));
  return {
    screenReaderInstructions: {
      draggable: '按空格键或回车键拿起；拿起后用方向键移动，再按空格键或回车键放下，按 Esc 取消。',
    },
    announcements: {
      onDragStart: ({ active }) => `已拿起「${of(active.id)}」。`,
      onDragOver: ({ active, over }) =>
        over
          ? `「${of(active.id)}」移到了「${of(over.id)}」的位置。`
          : `「${of(active.id)}」不在可放下的位置。`,
      onDragEnd: ({ active, over }) =>
        over ? `「${of(active.id)}」已放在「${of(over.id)}」的位置。` : `「${of(active.id)}」已放下。`,
      onDragCancel: ({ active }) => `已取消拖动，「${of(active.id)}」回到原位。`,
    },
  };
}

/**
 * Mouse, touch and keyboard sensors. The mouse starts a drag after 5 px, so a click on a button
 * inside an item stays a click; a finger after a 250 ms press, so a swipe over the items still
 * scrolls the page on a phone.
 */
export function useDragSensors() {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}
