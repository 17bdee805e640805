import { ShoppingCartOutlined } from '@ant-design/icons';
import type { Package } from '@wxc/contract/calls/packages';
import { ACCOUNT_TYPE_LABELS, type AccountTypeValue, TIER_LABELS } from '@wxc/contract/domain';
import { Button, Empty, Tag } from 'antd';
import { groupByTier, TIER_COLORS } from '../../features/commerce/logic';
import { formatDuration } from '../../features/commerce/money';
import { useCatalogue } from '../../features/commerce/queries';
import { Money, QueryState } from '../../features/commerce/widgets';

function PackageCard({ pkg, onBuy }: { pkg: Package; onBuy(pkg: Package): void }) {
  return (
    <article className="package-card" aria-label={pkg.name} data-testid="package-card">
      <header className="package-card-head">
        <strong>{pkg.name}</strong>
      </header>
      <div className="package-price">
        <Money fen={pkg.priceFen} strong />
        <span className="muted"> / {formatDuration(pkg.durationDays)}</span>
      </div>
      <ul className="package-facts">
        <li>
          <strong>{pkg.slots}</strong> 个微信账号额度
        </li>
        <li>有效期 {pkg.durationDays} 天</li>
      </ul>
      {pkg.description ? <p className="muted package-desc">{pkg.description}</p> : null}
      <div className="package-modes">
        <span className="muted">接入方式：</span>
        {pkg.accessModes.map((m) => (
          <Tag key={m}>{ACCOUNT_TYPE_LABELS[m as AccountTypeValue] ?? m}</Tag>
        ))}
      </div>
      <Button type="primary" block icon={<ShoppingCartOutlined />} onClick={() => onBuy(pkg)}>
        立即购买
      </Button>
    </article>
  );
}

/** The catalogue of packages on sale, as cards grouped by tier. */
export function Catalogue({ onBuy }: { onBuy(pkg: Package): void }) {
  const query = useCatalogue();
  return (
    <QueryState
      query={query}
      rows={6}
      isEmpty={(d) => d.list.length === 0}
      empty={<Empty description="暂无在售套餐，请联系客服咨询" />}
    >
      {(data) => (
        <div className="catalogue">
          {groupByTier(data.list).map((group) => (
            <section key={group.tier} className="tier-group" aria-label={TIER_LABELS[group.tier]}>
              <h2 className="tier-title">
                <Tag color={TIER_COLORS[group.tier]}>{TIER_LABELS[group.tier]}</Tag>
              </h2>
              <div className="package-grid">
                {group.items.map((pkg) => (
                  <PackageCard key={pkg.id} pkg={pkg} onBuy={onBuy} />
                ))}
              </div>
            </section>
          ))}
        </div>
      )}
    </QueryState>
  );
}
