import { ShoppingOutlined, SyncOutlined } from '@ant-design/icons';
import type { Subscription } from '@wxc/contract/calls/packages';
import { EXPIRING_SOON_DAYS } from '@wxc/contract/constants';
import { TIER_LABELS } from '@wxc/contract/domain';
import { Alert, Button, Empty, Tag } from 'antd';
import { QueryState } from '../../components/QueryState';
import { daysLeftText, TIER_COLORS, tierRefusal } from '../../features/commerce/logic';
import { useSubscriptions } from '../../features/commerce/queries';
import { QuotaSummary } from '../../features/commerce/widgets';
import { useCompanyAccountType, useReadOnly } from '../../stores/support-view';
import { formatTime } from '../../utils/time';

function StatusTag({ sub }: { sub: Subscription }) {
  if (sub.status === 'expired') return <Tag>已过期</Tag>;
  if (sub.expiringSoon) return <Tag color="orange">即将到期</Tag>;
  return <Tag color="success">生效中</Tag>;
}

function SubscriptionCard({ sub, onRenew }: { sub: Subscription; onRenew(sub: Subscription): void }) {
  const readOnly = useReadOnly();
  // A renewal is refused like a purchase when the tier does not serve the access mode (40025).
  const refusal = tierRefusal(sub.tier, useCompanyAccountType());
  const cls = ['subscription-card', sub.expiringSoon ? 'subscription-soon' : '', sub.status].join(' ');
  return (
    <article className={cls} aria-label={sub.packageName} data-testid="subscription">
      <header className="subscription-head">
        <strong>{sub.packageName}</strong>
        <span>
          <Tag color={TIER_COLORS[sub.tier]}>{TIER_LABELS[sub.tier]}</Tag>
          <StatusTag sub={sub} />
        </span>
      </header>
      <dl className="subscription-facts">
        <dt>账号额度</dt>
        <dd>{sub.slots} 个</dd>
        <dt>开始时间</dt>
        <dd>{formatTime(sub.startsAt, 'YYYY-MM-DD HH:mm')}</dd>
        <dt>到期时间</dt>
        <dd>{formatTime(sub.endsAt, 'YYYY-MM-DD HH:mm')}</dd>
        <dt>剩余</dt>
        <dd className={sub.expiringSoon ? 'days-left-soon' : undefined} data-testid="days-left">
          {daysLeftText(sub.status, sub.daysLeft)}
        </dd>
      </dl>
      {refusal ? <p className="subscription-unfit">{refusal}，不能续费</p> : null}
      {readOnly ? null : (
        <Button
          type={sub.expiringSoon || sub.status === 'expired' ? 'primary' : 'default'}
          icon={<SyncOutlined />}
          disabled={refusal !== null}
          onClick={() => onRenew(sub)}
        >
          续费
        </Button>
      )}
    </article>
  );
}

/** 我的套餐: quota summary and purchased packages with expiry, days left and renewal. */
export function MySubscriptions({
  onRenew,
  onBrowse,
}: {
  onRenew(sub: Subscription): void;
  onBrowse(): void;
}) {
  const query = useSubscriptions();
  return (
    <QueryState
      query={query}
      rows={4}
      isEmpty={(d) => d.list.length === 0}
      empty={
        <Empty description="还没有购买套餐，购买后即可开通 API 并登录微信账号">
          <Button type="primary" icon={<ShoppingOutlined />} onClick={onBrowse}>
            查看套餐
          </Button>
        </Empty>
      }
    >
      {(data) => {
        const soon = data.list.filter((s) => s.expiringSoon);
        const active = data.list.filter((s) => s.status === 'active');
        return (
          <div className="my-packages">
            <QuotaSummary {...data} />
            {soon.length ? (
              <Alert
                type="warning"
                showIcon
                title={`有 ${soon.length} 个套餐将在 ${EXPIRING_SOON_DAYS} 天内到期`}
                description="到期后相关微信账号的 API 调用将停止，请及时续费。"
              />
            ) : null}
            {active.length === 0 ? (
              <Alert
                type="error"
                showIcon
                title="所有套餐均已过期"
                description="续费或购买新套餐后即可恢复 API 调用。"
              />
            ) : null}
            <div className="subscription-grid">
              {data.list.map((sub) => (
                <SubscriptionCard key={sub.id} sub={sub} onRenew={onRenew} />
              ))}
            </div>
          </div>
        );
      }}
    </QueryState>
  );
}
