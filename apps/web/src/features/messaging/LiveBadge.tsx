import { Tooltip } from 'antd';
import { useReadOnly } from '../../stores/support-view';
import { SUPPORT_VIEW_REFRESH_MS, useLiveStatus } from './useLive';

/** A small dot telling whether live updates are flowing. */
export function LiveBadge() {
  const status = useLiveStatus();
  const supportView = useReadOnly();
  if (supportView) {
    return (
      <Tooltip title="查看客户控制台时没有实时推送：数据定时刷新，切回本页时也会刷新">
        <span className="live-badge" data-testid="live-badge" data-status="polling">
          <span className="live-dot" />
          只读查看 · 每 {SUPPORT_VIEW_REFRESH_MS / 1000} 秒刷新
        </span>
      </Tooltip>
    );
  }
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
