import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  BoldOutlined,
  ClearOutlined,
  CodeOutlined,
  FileImageOutlined,
  ItalicOutlined,
  LinkOutlined,
  LoadingOutlined,
  MenuOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { SHOWCASE_UPLOAD_MAX_BYTES } from '@wxc/contract/calls/showcase';
import { Divider, Input, Modal } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { uploadShowcaseFile } from '../../../../api/showcase';
import { useFeedback } from '../../../../components/feedback';
import { EditorTool, toolText, useToolbarState } from '../../example/EditorTool';
import { TextAlign, type TextAlignValue } from './text-align';

/**
 * The showcase's full rich-text editor (the template's TinyMCE page): Tiptap (MIT) with the starter
 * kit, images (uploaded to the service, the returned link inserted) and alignment, under a toolbar
 * with every command. It starts from `initial` and reports its HTML on each change; give it back
 * the latest as `initial`: a cached page that is hidden destroys the editor, and the new one made
 * when it shows again starts from there.
 */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const HTTP_URL = /^https?:\/\/[^\s"'<>]+$/i;

export function FullRichTextEditor({
  initial,
  onChange,
}: {
  initial: string;
  onChange: (html: string) => void;
}) {
  const { message } = useFeedback();
  const picker = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [href, setHref] = useState('https://');

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        link: {
          openOnClick: false,
          protocols: ['http', 'https', 'mailto'],
          HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: '_blank' },
        },
      }),
      Image.configure({ allowBase64: false }),
      TextAlign,
    ],
    content: initial,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': '富文本内容',
        'data-testid': 'full-rich-text-editor',
      },
    },
    onCreate: ({ editor: e }) => onChange(e.getHTML()),
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  });

  const state = useToolbarState(editor);

  if (!editor || editor.isDestroyed) return null;
  const chain = () => editor.chain().focus();
  const tool = (
    tip: string,
    icon: ReactNode,
    active: boolean | undefined,
    run: () => void,
    disabled = false,
  ) => <EditorTool key={tip} tip={tip} icon={icon} active={active} disabled={disabled} onRun={run} />;
  const text = toolText;
  const align = (value: TextAlignValue) => () => chain().setTextAlign(value).run();
  const separator = (key: string) => <Divider key={key} orientation="vertical" className="rte-separator" />;

  const openLink = () => {
    if (state?.link) {
      chain().extendMarkRange('link').unsetLink().run();
      return;
    }
    setHref('https://');
    setLinkOpen(true);
  };
  const saveLink = () => {
    const url = href.trim();
    if (!HTTP_URL.test(url)) {
      void message.warning('请输入 http:// 或 https:// 开头的完整地址');
      return;
    }
    setLinkOpen(false);
    const { empty } = editor.state.selection;
    if (empty)
      chain()
        .insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: url } }] })
        .run();
    else chain().extendMarkRange('link').setLink({ href: url }).run();
  };

  const uploadImage = async (file: File) => {
    if (!IMAGE_TYPES.includes(file.type)) {
      void message.warning('只能插入 PNG、JPEG、GIF 或 WebP 图片');
      return;
    }
    if (file.size > SHOWCASE_UPLOAD_MAX_BYTES) {
      void message.warning('图片不能超过 5 MB');
      return;
    }
    setUploading(0);
    try {
      const uploaded = await uploadShowcaseFile(file, file.name, setUploading);
      if (!editor.isDestroyed) chain().setImage({ src: uploaded.url, alt: uploaded.name }).run();
    } catch {
      // The requester has already shown why (e.g. the service's 40000 for a file that is no image).
    } finally {
      setUploading(null);
    }
  };

  return (
    <div className="rte rte-full">
      <div className="rte-toolbar" role="toolbar" aria-label="富文本工具栏">
        {tool('一级标题', text('H1'), state?.h1, () => chain().toggleHeading({ level: 1 }).run())}
        {tool('二级标题', text('H2'), state?.h2, () => chain().toggleHeading({ level: 2 }).run())}
        {tool('三级标题', text('H3'), state?.h3, () => chain().toggleHeading({ level: 3 }).run())}
        {separator('s1')}
        {tool('加粗', <BoldOutlined />, state?.bold, () => chain().toggleBold().run())}
        {tool('斜体', <ItalicOutlined />, state?.italic, () => chain().toggleItalic().run())}
        {tool('下划线', <UnderlineOutlined />, state?.underline, () => chain().toggleUnderline().run())}
        {tool('删除线', <StrikethroughOutlined />, state?.strike, () => chain().toggleStrike().run())}
        {tool('行内代码', <CodeOutlined />, state?.code, () => chain().toggleCode().run())}
        {tool('清除格式', <ClearOutlined />, false, () => chain().unsetAllMarks().clearNodes().run())}
        {separator('s2')}
        {tool('无序列表', <UnorderedListOutlined />, state?.bullet, () => chain().toggleBulletList().run())}
        {tool('有序列表', <OrderedListOutlined />, state?.ordered, () => chain().toggleOrderedList().run())}
        {tool('引用', text('❝'), state?.quote, () => chain().toggleBlockquote().run())}
        {tool('代码块', text('</>'), state?.codeBlock, () => chain().toggleCodeBlock().run())}
        {tool('分割线', text('―'), false, () => chain().setHorizontalRule().run())}
        {separator('s3')}
        {tool(
          '左对齐',
          <AlignLeftOutlined />,
          !(state?.center || state?.right || state?.justify),
          align('left'),
        )}
        {tool('居中', <AlignCenterOutlined />, state?.center, align('center'))}
        {tool('右对齐', <AlignRightOutlined />, state?.right, align('right'))}
        {tool('两端对齐', <MenuOutlined />, state?.justify, align('justify'))}
        {separator('s4')}
        {tool(state?.link ? '取消链接' : '插入链接', <LinkOutlined />, state?.link, openLink)}
        {tool(
          uploading === null ? '插入图片' : `上传中 ${uploading}%`,
          uploading === null ? <FileImageOutlined /> : <LoadingOutlined />,
          false,
          () => picker.current?.click(),
          uploading !== null,
        )}
        {separator('s5')}
        {tool('撤销', <UndoOutlined />, false, () => chain().undo().run(), !state?.undo)}
        {tool('重做', <RedoOutlined />, false, () => chain().redo().run(), !state?.redo)}
      </div>
      <input
        ref={picker}
        type="file"
        hidden
        accept={IMAGE_TYPES.join(',')}
        data-testid="rte-image-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void uploadImage(file);
        }}
      />
      <EditorContent editor={editor} className="rte-content" />
      <Modal
        title="插入链接"
        open={linkOpen}
        onOk={saveLink}
        onCancel={() => setLinkOpen(false)}
        okText="插入"
        cancelText="取消"
        destroyOnHidden
      >
        <Input
          aria-label="链接地址"
          value={href}
          onChange={(e) => setHref(e.target.value)}
          onPressEnter={saveLink}
          placeholder="https://"
          autoFocus
        />
      </Modal>
    </div>
  );
}
