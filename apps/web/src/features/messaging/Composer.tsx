import {
  AppstoreOutlined,
  AudioOutlined,
  FileOutlined,
  LinkOutlined,
  PictureOutlined,
  SendOutlined,
  SmileOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import { MEDIA_MAX_BYTES, TEXT_MAX_BYTES } from '@wxc/contract/constants';
import { Button, Form, Input, InputNumber, Modal, Tooltip } from 'antd';
import { useRef, useState } from 'react';
import { call } from '../../api/client';
import { uploadSource } from '../../api/upload';
import { useFeedback } from '../../components/feedback';
import { messagingKeys } from './queries';

type Kind = 'link' | 'app' | 'emoji' | 'voice' | 'video';

interface FieldSpec {
  name: string;
  label: string;
  number?: boolean;
  optional?: boolean;
}

/** The small forms of the card-like messages, prefilled with working samples. */
const FORMS: Record<Kind, { title: string; fields: FieldSpec[]; sample: Record<string, string | number> }> = {
  link: {
    title: '发送链接卡片',
    fields: [
      { name: 'title', label: '标题' },
      { name: 'description', label: '描述', optional: true },
      { name: 'url', label: '链接地址' },
    ],
    sample: {
      title: '三分钟了解微信 API',
      description: '扫码登录、收发消息、回调通知，一个接口全搞定',
      url: 'https://example.com/intro',
    },
  },
  app: {
    title: '发送小程序卡片',
    fields: [
      { name: 'title', label: '标题' },
      { name: 'displayName', label: '小程序名称' },
      { name: 'appId', label: 'appId' },
      { name: 'username', label: '原始 id' },
      { name: 'pagePath', label: '页面路径' },
      { name: 'coverUrl', label: '封面地址' },
    ],
    sample: {
      title: '查看订单',
      displayName: '示例商城',
      appId: 'wx1234567890abcdef',
      username: 'gh_0123456789ab@app',
      pagePath: 'pages/index/index.html',
      coverUrl: 'https://example.com/cover.jpg',
    },
  },
  emoji: {
    title: '发送表情',
    fields: [
      { name: 'md5', label: '表情 md5' },
      { name: 'size', label: '大小（字节）', number: true },
    ],
    sample: { md5: '4cc7540a85b5b6cf4ba14e9f4ae08b7c', size: 102357 },
  },
  voice: {
    title: '发送语音',
    fields: [
      { name: 'voiceUrl', label: '语音地址（.silk）' },
      { name: 'duration', label: '时长（毫秒）', number: true },
    ],
    sample: { voiceUrl: 'https://example.com/voice.silk', duration: 3000 },
  },
  video: {
    title: '发送视频',
    fields: [
      { name: 'videoUrl', label: '视频地址' },
      { name: 'thumbUrl', label: '封面地址' },
      { name: 'duration', label: '时长（秒）', number: true },
    ],
    sample: {
      videoUrl: 'https://example.com/clip.mp4',
      thumbUrl: 'https://example.com/clip.jpg',
      duration: 12,
    },
  },
};

function sendCard(kind: Kind, base: { wxid: string; toWxid: string }, v: Record<string, unknown>) {
  const s = (k: string) => String(v[k] ?? '');
  const n = (k: string) => Number(v[k] ?? 0);
  switch (kind) {
    case 'link':
      return call(messagingCalls.sendMsgLink, {
        ...base,
        title: s('title'),
        description: s('description'),
        url: s('url'),
      });
    case 'app':
      return call(messagingCalls.sendMsgApp, {
        ...base,
        title: s('title'),
        displayName: s('displayName'),
        appId: s('appId'),
        username: s('username'),
        pagePath: s('pagePath'),
        coverUrl: s('coverUrl'),
      });
    case 'emoji':
      return call(messagingCalls.sendMsgEmoji, { ...base, md5: s('md5'), size: n('size') });
    case 'voice':
      return call(messagingCalls.sendMsgVoice, { ...base, voiceUrl: s('voiceUrl'), duration: n('duration') });
    case 'video':
      return call(messagingCalls.sendMsgVideo, {
        ...base,
        videoUrl: s('videoUrl'),
        thumbUrl: s('thumbUrl'),
        duration: n('duration'),
      });
  }
}

const HINTS = ['你好', '发张图片', '发个文件', '现在几点了（时间）'];

/** Text box (Enter sends, Shift+Enter new line) and buttons for every other message type. */
export function Composer({ wxid, peer, disabled }: { wxid: string; peer: string; disabled?: boolean }) {
  const { message } = useFeedback();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [card, setCard] = useState<Kind | null>(null);
  const [form] = Form.useForm();
  const imageInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const base = { wxid, toWxid: peer };
  const refresh = () => void client.invalidateQueries({ queryKey: messagingKeys.messages(wxid) });

  const run = async (what: string, fn: () => Promise<unknown>) => {
    setBusy(what);
    try {
      await fn();
      refresh();
      return true;
    } catch {
      // the request layer has said why
      return false;
    } finally {
      setBusy(null);
    }
  };

  const sendText = async (content = text) => {
    const value = content.trim();
    if (!value) return;
    if (new TextEncoder().encode(value).length > TEXT_MAX_BYTES) {
      void message.warning(`消息不能超过 ${TEXT_MAX_BYTES} 字节`);
      return;
    }
    if (await run('text', () => call(messagingCalls.sendMsgText, { ...base, content: value }))) setText('');
  };

  const upload = async (file: File | undefined, kind: 'image' | 'file') => {
    if (!file) return;
    if (file.size > MEDIA_MAX_BYTES) {
      void message.warning(`文件不能超过 ${MEDIA_MAX_BYTES / 1024 / 1024} MB`);
      return;
    }
    await run(kind, async () => {
      const up = await uploadSource(file);
      if (kind === 'image') await call(messagingCalls.sendMsgImg, { ...base, imageUrl: up.url });
      else
        await call(messagingCalls.sendMsgFile, {
          ...base,
          fileUrl: up.url,
          fileName: up.fileName || file.name,
        });
    });
  };

  const openCard = (kind: Kind) => {
    form.setFieldsValue(FORMS[kind].sample);
    setCard(kind);
  };

  const tools: Array<{ key: string; icon: React.ReactNode; title: string; onClick(): void }> = [
    {
      key: 'image',
      icon: <PictureOutlined />,
      title: '图片（上传后发送）',
      onClick: () => imageInput.current?.click(),
    },
    {
      key: 'file',
      icon: <FileOutlined />,
      title: '文件（上传后发送）',
      onClick: () => fileInput.current?.click(),
    },
    { key: 'link', icon: <LinkOutlined />, title: '链接卡片', onClick: () => openCard('link') },
    { key: 'emoji', icon: <SmileOutlined />, title: '表情', onClick: () => openCard('emoji') },
    { key: 'voice', icon: <AudioOutlined />, title: '语音', onClick: () => openCard('voice') },
    { key: 'video', icon: <VideoCameraOutlined />, title: '视频', onClick: () => openCard('video') },
    { key: 'app', icon: <AppstoreOutlined />, title: '小程序', onClick: () => openCard('app') },
  ];

  return (
    <div className="composer">
      <div className="composer-tools">
        {tools.map((t) => (
          <Tooltip key={t.key} title={t.title}>
            <Button
              type="text"
              icon={t.icon}
              aria-label={t.title}
              disabled={disabled}
              loading={busy === t.key}
              onClick={t.onClick}
            />
          </Tooltip>
        ))}
        <input
          ref={imageInput}
          type="file"
          accept="image/*"
          hidden
          data-testid="image-input"
          onChange={(e) => {
            void upload(e.target.files?.[0], 'image');
            e.target.value = '';
          }}
        />
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="file-input"
          onChange={(e) => {
            void upload(e.target.files?.[0], 'file');
            e.target.value = '';
          }}
        />
      </div>
      <div className="composer-hints">
        {HINTS.map((h) => (
          <button
            key={h}
            type="button"
            className="hint-chip"
            disabled={disabled || busy !== null}
            onClick={() => void sendText(h)}
          >
            {h}
          </button>
        ))}
      </div>
      <div className="composer-row">
        <Input.TextArea
          aria-label="消息内容"
          placeholder="输入消息，Enter 发送，Shift+Enter 换行"
          autoSize={{ minRows: 1, maxRows: 4 }}
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void sendText();
            }
          }}
        />
        <Button
          type="primary"
          icon={<SendOutlined />}
          loading={busy === 'text'}
          disabled={disabled || !text.trim()}
          onClick={() => void sendText()}
        >
          发送
        </Button>
      </div>
      <Modal
        open={card !== null}
        title={card ? FORMS[card].title : ''}
        okText="发送"
        cancelText="取消"
        confirmLoading={card !== null && busy === card}
        onCancel={() => setCard(null)}
        onOk={() => form.submit()}
        destroyOnHidden
        forceRender
      >
        <p className="muted small">已填入示例，可直接发送；模拟器不会下载这些地址。</p>
        <Form
          form={form}
          layout="vertical"
          onFinish={async (v: Record<string, unknown>) => {
            if (!card) return;
            const kind = card;
            if (await run(kind, () => sendCard(kind, base, v))) setCard(null);
          }}
        >
          {card
            ? FORMS[card].fields.map((f) => (
                <Form.Item
                  key={f.name}
                  name={f.name}
                  label={f.label}
                  rules={f.optional ? [] : [{ required: true, message: `请填写${f.label}` }]}
                >
                  {f.number ? <InputNumber style={{ width: '100%' }} min={1} /> : <Input />}
                </Form.Item>
              ))
            : null}
        </Form>
      </Modal>
    </div>
  );
}
