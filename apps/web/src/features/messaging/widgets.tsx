import { Avatar, Tag } from 'antd';
import { ACCOUNT_STATUS_LABELS, isInlineMedia } from './labels';

// In a module of its own: the first dashboard shows it without antd's Avatar and Tag.
export { LiveBadge } from './LiveBadge';

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

/** The head of an account's card in the phone-width lists: avatar and name, then its status. */
export function WxAccountCardHead({
  account,
}: {
  account: { avatar?: string | null; nickname: string; status: 'online' | 'offline' };
}) {
  return (
    <div className="list-card-head">
      <span className="account-cell">
        <WxAvatar src={account.avatar} name={account.nickname} size={28} />
        {account.nickname}
      </span>
      <AccountStatusTag status={account.status} />
    </div>
  );
}
