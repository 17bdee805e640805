import { ShoppingCartOutlined } from '@ant-design/icons';
import type { Package } from '@wxc/contract/calls/packages';
import { ACCOUNT_TYPE_LABELS, type AccountTypeValue, TIER_LABELS } from '@wxc/contract/domain';
import { Button, Empty, Tag } from 'antd';
import { QueryState } from '../../components/QueryState';
import { groupByTier, TIER_COLORS, tierRefusal } from '../../features/commerce/logic';
import { formatDuration } from '../../features/commerce/money';
import { useCatalogue } from '../../features/commerce/queries';
import { Money } from '../../features/commerce/widgets';
import { useCompanyAccountType, useReadOnly } from '../../stores/support-view';
import { accountTypeLabel } from '../../utils/labels';

function PackageCard({
  pkg,
  onBuy,
  accountType,
  readOnly,
}: {
  pkg: Package;
  onBuy(pkg: Package): void;
  accountType: number | undefined;
  readOnly: boolean;
}) {
  // The tier rule (spec §9): a package whose tier does not serve the company's access mode is marked
  // and cannot be bought (the service refuses it too, 40025).
  const refusal = tierRefusal(pkg.tier, accountType);
  return (
    <article
      className={refusal ? 'package-card package-card-unfit' : 'package-card'}
      aria-label={pkg.name}
      data-testid="package-card"
      data-fits={refusal ? 'false' : 'true'}
    >
      <header className="package-card-head">
        <strong>{pkg.name}</strong>
        {refusal ? <Tag color="default">不适用</Tag> : null}
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
          <Tag key={m} color={m === accountType ? 'blue' : undefined}>
            {ACCOUNT_TYPE_LABELS[m as AccountTypeValue] ?? m}
          </Tag>
        ))}
      </div>
      {refusal ? (
        <p className="package-unfit" data-testid="package-unfit">
          {refusal}
        </p>
      ) : null}
      {readOnly ? null : (
        <Button
          type="primary"
          block
          icon={<ShoppingCartOutlined />}
          disabled={refusal !== null}
          onClick={() => onBuy(pkg)}
        >
          {refusal ? '不适用于贵公司的接入方式' : '立即购买'}
        </Button>
      )}
    </article>
  );
}

/** The catalogue of packages on sale, as cards grouped by tier; those that don't fit are marked. */
export function Catalogue({ onBuy }: { onBuy(pkg: Package): void }) {
  const query = useCatalogue();
  const accountType = useCompanyAccountType();
  const readOnly = useReadOnly();
  return (
    <QueryState
      query={query}
      rows={6}
      isEmpty={(d) => d.list.length === 0}
      empty={<Empty description="暂无在售套餐，请联系客服咨询" />}
    >
      {(data) => (
        <div className="catalogue">
          {accountType !== undefined ? (
            <p className="muted catalogue-note" data-testid="catalogue-mode">
              {readOnly ? '该公司' : '贵公司'}的接入方式：<strong>{accountTypeLabel(accountType)}</strong>
              。每个套餐等级支持的接入方式不同，不适用的套餐已标出。
            </p>
          ) : null}
          {groupByTier(data.list).map((group) => (
            <section key={group.tier} className="tier-group" aria-label={TIER_LABELS[group.tier]}>
              <h2 className="tier-title">
                <Tag color={TIER_COLORS[group.tier]}>{TIER_LABELS[group.tier]}</Tag>
              </h2>
              <div className="package-grid">
                {group.items.map((pkg) => (
                  <PackageCard
                    key={pkg.id}
                    pkg={pkg}
                    onBuy={onBuy}
                    accountType={accountType}
                    readOnly={readOnly}
                  />
                ))}
              </div>
            </section>
          ))}
        </div>
      )}
    </QueryState>
  );
}
