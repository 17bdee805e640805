import { type Editor, useEditorState } from '@tiptap/react';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/**
 * What the toolbars of both rich-text editors show as pressed or disabled, read from the editor on
 * each change (alignment stays false in an editor without the text-align extension).
 */
export function useToolbarState(editor: Editor | null) {
  return useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e && !e.isDestroyed
        ? {
            bold: e.isActive('bold'),
            italic: e.isActive('italic'),
            underline: e.isActive('underline'),
            strike: e.isActive('strike'),
            code: e.isActive('code'),
            h1: e.isActive('heading', { level: 1 }),
            h2: e.isActive('heading', { level: 2 }),
            h3: e.isActive('heading', { level: 3 }),
            bullet: e.isActive('bulletList'),
            ordered: e.isActive('orderedList'),
            quote: e.isActive('blockquote'),
            codeBlock: e.isActive('codeBlock'),
            link: e.isActive('link'),
            center: e.isActive({ textAlign: 'center' }),
            right: e.isActive({ textAlign: 'right' }),
            justify: e.isActive({ textAlign: 'justify' }),
            undo: e.can().undo(),
            redo: e.can().redo(),
          }
        : null,
  });
}

/** A toolbar button of the rich-text editors (example/RichTextEditor, components/tinymce). */
export function EditorTool({
  tip,
  icon,
  active,
  disabled = false,
  onRun,
}: {
  tip: string;
  icon: ReactNode;
  active: boolean | undefined;
  disabled?: boolean;
  onRun: () => void;
}) {
  return (
    <Tooltip title={tip}>
      <Button
        type="text"
        size="small"
        icon={icon}
        aria-label={tip}
        aria-pressed={active ?? false}
        className={active ? 'is-active' : undefined}
        disabled={disabled}
        // Keep the editor's selection: the button must not take the focus on press.
        onMouseDown={(e) => e.preventDefault()}
        onClick={onRun}
      />
    </Tooltip>
  );
}

/** A text glyph (H1, H2 …) in place of an icon. */
export const toolText = (t: string) => <span className="rte-text-icon">{t}</span>;
