import {
  AppstoreOutlined,
  AudioOutlined,
  FileOutlined,
  LinkOutlined,
  PictureOutlined,
  PlayCircleOutlined,
  SmileOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { Message } from '@wxc/contract/calls/messaging';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import { call } from '../../api/client';
import { formatBytes, formatSeconds, isInlineMedia, messageKind, SEND_STATUS_LABELS } from './labels';

const text = (m: Message, key: string): string => {
  const v = m.media?.[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
};
const num = (m: Message, key: string): number => {
  const v = m.media?.[key];
  return typeof v === 'number' ? v : Number(v ?? 0) || 0;
};

/** A received picture carries a media id: ask for a signed link (1 h) when it is shown. */
function useMediaLink(m: Message, kind: 'image' | 'video') {
  const hasId = m.direction === 'in' && Boolean(m.media && 'mediaId' in m.media);
  return useQuery({
    queryKey: ['messaging', 'media', m.wxid, m.msgId],
    queryFn: ({ signal }) =>
      call(
        kind === 'image' ? messagingCalls.getMsgImg : messagingCalls.getMsgVideo,
        { wxid: m.wxid, msgId: m.msgId },
        {
          signal,
          quiet: true,
        },
      ),
    enabled: hasId,
    staleTime: 50 * 60_000,
  });
}

function ExternalLink({ href, children }: { href: string; children: React.ReactNode }) {
  return /^https?:\/\//.test(href) ? (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ) : (
    <span>{children}</span>
  );
}

function ImageBody({ m }: { m: Message }) {
  const link = useMediaLink(m, 'image');
  const url = text(m, 'url') || link.data?.url || '';
  if (url && isInlineMedia(url, location.origin)) {
    return (
      <a href={url} target="_blank" rel="noreferrer noopener" className="msg-image">
        <img src={url} alt={m.content || '图片'} loading="lazy" />
      </a>
    );
  }
  return (
    <span className="msg-card-line">
      <PictureOutlined /> {url ? <ExternalLink href={url}>[图片] 查看</ExternalLink> : '[图片]'}
    </span>
  );
}

function VideoBody({ m }: { m: Message }) {
  const link = useMediaLink(m, 'video');
  const url = text(m, 'url') || link.data?.url || '';
  const duration = num(m, 'duration');
  return (
    <span className="msg-card-line">
      <PlayCircleOutlined /> {url ? <ExternalLink href={url}>视频</ExternalLink> : '视频'}
      {duration ? <span className="muted">{formatSeconds(duration)}</span> : null}
    </span>
  );
}

/** One message's content, drawn by its type (text, media, cards, system lines). */
export function MessageBody({ m }: { m: Message }) {
  const kind = messageKind(m.type, m.appType);
  switch (kind) {
    case 'text':
      return <span className="msg-text">{m.content}</span>;
    case 'image':
      return <ImageBody m={m} />;
    case 'video':
      return <VideoBody m={m} />;
    case 'voice':
      return (
        <span className="msg-card-line msg-voice">
          <AudioOutlined /> 语音 {formatSeconds(num(m, 'duration') / 1000)}
        </span>
      );
    case 'emoji':
      return (
        <span className="msg-card-line msg-emoji">
          <SmileOutlined /> [表情]
        </span>
      );
    case 'file': {
      const url = text(m, 'url');
      const name = text(m, 'fileName') || m.content;
      const size = num(m, 'size');
      return (
        <span className="msg-card">
          <FileOutlined className="msg-card-icon" />
          <span className="msg-card-main">
            <strong>{url ? <ExternalLink href={url}>{name}</ExternalLink> : name}</strong>
            <span className="muted">{size ? formatBytes(size) : '文件'}</span>
          </span>
        </span>
      );
    }
    case 'link': {
      const url = text(m, 'url');
      return (
        <span className="msg-card">
          <LinkOutlined className="msg-card-icon" />
          <span className="msg-card-main">
            <strong>
              {url ? <ExternalLink href={url}>{text(m, 'title') || m.content}</ExternalLink> : m.content}
            </strong>
            <span className="muted">{text(m, 'description') || url}</span>
          </span>
        </span>
      );
    }
    case 'app':
      return (
        <span className="msg-card msg-card-app">
          <AppstoreOutlined className="msg-card-icon" />
          <span className="msg-card-main">
            <strong>{text(m, 'title') || m.content}</strong>
            <span className="muted">小程序 · {text(m, 'displayName') || text(m, 'appId')}</span>
          </span>
        </span>
      );
    default:
      return <span className="msg-text">{m.content || '[不支持的消息]'}</span>;
  }
}

/** A chat bubble: mine on the right in green, theirs on the left; system lines centred. */
export function MessageBubble({ m, senderName }: { m: Message; senderName?: string | undefined }) {
  const kind = messageKind(m.type, m.appType);
  if (kind === 'system') {
    return <div className="msg-system">{m.content}</div>;
  }
  const mine = m.direction === 'out';
  return (
    <div
      className={mine ? 'msg-row msg-row-out' : 'msg-row msg-row-in'}
      data-testid="message"
      data-direction={m.direction}
    >
      <div className="msg-col">
        {senderName ? <span className="msg-sender">{senderName}</span> : null}
        <div className={`msg-bubble msg-kind-${kind}`}>
          <MessageBody m={m} />
        </div>
        {mine && m.status !== 'sent' ? (
          <span className={m.status === 'failed' ? 'msg-status msg-status-failed' : 'msg-status'}>
            {SEND_STATUS_LABELS[m.status]}
            {m.error ? `：${m.error}` : ''}
          </span>
        ) : null}
      </div>
    </div>
  );
}
