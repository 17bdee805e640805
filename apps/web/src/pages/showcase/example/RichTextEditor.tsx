import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { type ReactNode, useEffect } from 'react';
import { EditorTool, toolText, useToolbarState } from './EditorTool';

/**
 * The article's rich-text editor: Tiptap (MIT, self-hosted, in this lazy chunk only) with its
 * starter kit (paragraphs, headings, lists, quotes, code, bold/italic/underline/strike, links,
 * history). Its value is HTML; an empty document is ''. The server sanitises what it stores.
 */
export interface RichTextEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  id?: string;
  'aria-label'?: string;
}

const EMPTY = '<p></p>';

export default function RichTextEditor({
  value = '',
  onChange,
  id,
  'aria-label': label,
}: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: {
          openOnClick: false,
          protocols: ['http', 'https', 'mailto'],
          HTMLAttributes: { rel: 'noopener noreferrer nofollow' },
        },
      }),
    ],
    content: value,
    editorProps: {
      attributes: {
        ...(id ? { id } : {}),
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label ?? '正文',
        'data-testid': 'rich-text-editor',
      },
    },
    onUpdate: ({ editor: e }) => {
      const html = e.getHTML();
      onChange?.(html === EMPTY ? '' : html);
    },
  });

  // A value set from outside (the form reset) replaces the document; our own echo does not.
  useEffect(() => {
    // A page kept hidden (cached views) unmounts its effects: Tiptap destroys the editor and makes
    // a new one when the page shows again; never touch the destroyed one.
    if (!editor || editor.isDestroyed) return;
    const current = editor.getHTML();
    if ((current === EMPTY ? '' : current) !== value)
      editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const state = useToolbarState(editor);

  if (!editor || editor.isDestroyed) return null;
  const chain = () => editor.chain().focus();
  const tool = (
    key: string,
    tip: string,
    icon: ReactNode,
    active: boolean | undefined,
    run: () => void,
    disabled = false,
  ) => <EditorTool key={key} tip={tip} icon={icon} active={active} disabled={disabled} onRun={run} />;
  const text = toolText;

  const setLink = () => {
    if (state?.link) {
      chain().unsetLink().run();
      return;
    }
    const href = window.prompt('链接地址（http:// 或 https:// 开头）', 'https://');
    if (href && /^https?:\/\/\S+$/i.test(href)) chain().extendMarkRange('link').setLink({ href }).run();
  };

  return (
    <div className="rte">
      <div className="rte-toolbar" role="toolbar" aria-label="正文格式">
        {tool('b', '加粗', <BoldOutlined />, state?.bold, () => chain().toggleBold().run())}
        {tool('i', '斜体', <ItalicOutlined />, state?.italic, () => chain().toggleItalic().run())}
        {tool('u', '下划线', <UnderlineOutlined />, state?.underline, () => chain().toggleUnderline().run())}
        {tool('s', '删除线', <StrikethroughOutlined />, state?.strike, () => chain().toggleStrike().run())}
        {tool('h2', '二级标题', text('H2'), state?.h2, () => chain().toggleHeading({ level: 2 }).run())}
        {tool('h3', '三级标题', text('H3'), state?.h3, () => chain().toggleHeading({ level: 3 }).run())}
        {tool('ul', '无序列表', <UnorderedListOutlined />, state?.bullet, () =>
          chain().toggleBulletList().run(),
        )}
        {tool('ol', '有序列表', <OrderedListOutlined />, state?.ordered, () =>
          chain().toggleOrderedList().run(),
        )}
        {tool('q', '引用', text('❝'), state?.quote, () => chain().toggleBlockquote().run())}
        {tool('code', '代码块', text('</>'), state?.codeBlock, () => chain().toggleCodeBlock().run())}
        {tool('link', state?.link ? '取消链接' : '插入链接', <LinkOutlined />, state?.link, setLink)}
        {tool('undo', '撤销', <UndoOutlined />, false, () => chain().undo().run(), !state?.undo)}
        {tool('redo', '重做', <RedoOutlined />, false, () => chain().redo().run(), !state?.redo)}
      </div>
      <EditorContent editor={editor} className="rte-content" />
    </div>
  );
}
