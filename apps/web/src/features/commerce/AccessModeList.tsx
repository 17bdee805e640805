import { CheckCircleFilled } from '@ant-design/icons';
import { ACCOUNT_TYPE_LABELS, type AccountTypeValue, TIER_LABELS } from '@wxc/contract/domain';
import { Tag } from 'antd';
import { supportedTiersText, TIER_COLORS, tiersSupporting } from './logic';
import './commerce.css';

const MODE_TEXT: Record<AccountTypeValue, { name: string; text: string }> = {
  1: { name: 'SaaS', text: '使用平台托管的接口服务，开通即用，无需部署，按账号额度计费。' },
  2: { name: '本地', text: '登录使用您自己网络的出口 IP，账号环境更稳定，接口仍由平台提供。' },
  3: { name: '托管', text: '平台为您单独托管运维一套服务，资源独享，专属技术支持。' },
  4: { name: '私有化', text: '整套服务部署在您自己的服务器上，数据不出企业，可按需定制集成。' },
};

const MODES: AccountTypeValue[] = [1, 2, 3, 4];

/**
 * The four access modes (spec §9) with the tiers that support each, from ACCESS_MODE_MIN_TIER; the
 * company's own (`accountType`) is highlighted.
 */
export function AccessModeList({ accountType }: { accountType: number | undefined }) {
  return (
    <div className="access-mode-grid" data-testid="access-modes">
      {MODES.map((mode) => {
        const mine = mode === accountType;
        return (
          <section
            key={mode}
            className={mine ? 'access-mode-card access-mode-card-mine' : 'access-mode-card'}
            data-mine={mine}
            aria-label={ACCOUNT_TYPE_LABELS[mode]}
          >
            <header className="access-mode-card-head">
              <strong>{MODE_TEXT[mode].name}</strong>
              {mine ? (
                <Tag color="blue" icon={<CheckCircleFilled />}>
                  当前接入方式
                </Tag>
              ) : null}
            </header>
            <p className="muted">{MODE_TEXT[mode].text}</p>
            <div className="access-mode-tiers">
              <span className="access-mode-tiers-label">支持套餐：{supportedTiersText(mode)}</span>
              <span>
                {tiersSupporting(mode).map((tier) => (
                  <Tag key={tier} color={TIER_COLORS[tier]}>
                    {TIER_LABELS[tier]}
                  </Tag>
                ))}
              </span>
            </div>
          </section>
        );
      })}
    </div>
  );
}
