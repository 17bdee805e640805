import { Avatar, Tag, Tooltip } from 'antd';
import { ACCOUNT_STATUS_LABELS, isInlineMedia } from './labels';
import { useLiveStatus } from './useLive';

/** An avatar from a same-origin URL, or the name's first character (the CSP allows no other). */
export function WxAvatar({ src, name, size = 32 }: { src?: string | null; name: string; size?: number }) {
  const ok = src && isInlineMedia(src, location.origin);
  return (
    <Avatar size={size} src={ok ? src : undefined} alt="" style={ok ? undefined : { background: '#07c160' }}>
      {(name || '?').slice(0, 1)}
    </Avatar>
  );
}

export function AccountStatusTag({ status }: { status: 'online' | 'offline' }) {
  const s = ACCOUNT_STATUS_LABELS[status];
  return <Tag color={s.color}>{s.text}</Tag>;
}

/** A small dot telling whether live updates are flowing. */
export function LiveBadge() {
  const status = useLiveStatus();
  const on = status === 'open';
  const text = on
    ? '实时更新中'
    : status === 'connecting' || status === 'retrying'
      ? '正在连接实时更新…'
      : '实时更新未连接';
  return (
    <Tooltip title={on ? '账号上下线、新消息和回调投递会自动刷新' : '稍后自动重连；数据仍可手动刷新'}>
      <span
        className={on ? 'live-badge live-badge-on' : 'live-badge'}
        data-testid="live-badge"
        data-status={status}
      >
        <span className="live-dot" />
        {text}
      </span>
    </Tooltip>
  );
}
