import { RealNameStatus, type Tier, tierFits, tierNeededText } from '@wxc/contract';
import type { Expression, Kysely, RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { SettingsService } from '../settings/service.js';
import * as repo from './repo.js';

/**
 * What a company may do given the operator's rules: the real-name switch (buying packages and
 * opening API access need a verified company) and the service expiry an operator can set (past it,
 * no buying, no opening API access, no new messaging logins; the console stays readable).
 */
export interface CompanyGate {
  /** buy / renew / applyApis / openApiAccount. */
  assertMayTrade(companyId: string): Promise<void>;
  /**
   * New messaging logins: the company's service end as SQL, read with the caller's other figures in
   * one statement (a login's quota read), and the check of the value read.
   */
  serviceExpiresAtOf(companyId: Expression<string>): RawBuilder<number | null>;
  assertServiceOpen(serviceExpiresAt: number | null): void;
  /**
   * Spec §9: a package tier serves some access modes only (SaaS basic+, local business+, hosted and
   * private enterprise). Buying needs the package to fit the company's mode; opening API access
   * needs one package in force that fits (`tiers`: the tiers the company holds).
   */
  assertTierFits(companyId: string, tiers: Tier[], what: 'buy' | 'api'): Promise<void>;
}

export interface CompanyDeps {
  db: Kysely<DB>;
  settings: Pick<SettingsService, 'isOn'>;
}

/**
 * The company as the operator rules it (module `company`, table `company_ops`): the gate above,
 * and the operator's remark and service expiry it reads them from.
 */
export function createCompanyService({ db, settings }: CompanyDeps) {
  const assertServiceOpen = (serviceExpiresAt: number | null | undefined) => {
    if (serviceExpiresAt != null && Number(serviceExpiresAt) <= Date.now()) {
      throw new AppError('SERVICE_EXPIRED');
    }
  };

  const gate: CompanyGate = {
    async assertMayTrade(companyId) {
      const row = await repo.ruleFacts(db, companyId);
      assertServiceOpen(row?.service_expires_at);
      if (row && row.real_name_status !== RealNameStatus.VERIFIED && (await settings.isOn('realName'))) {
        throw new AppError(
          'REAL_NAME_REQUIRED',
          '请先完成实名认证：通过认证后才能购买套餐和开通 API（点击顶部「实名认证」提交资料）',
        );
      }
    },
    serviceExpiresAtOf: repo.serviceExpiresAtOf,
    assertServiceOpen,
    async assertTierFits(companyId, tiers, what) {
      const accountType = (await repo.ruleFacts(db, companyId))?.account_type ?? 1;
      if (tiers.some((tier) => tierFits(tier, accountType))) return;
      const needed = tierNeededText(accountType);
      throw new AppError(
        'TIER_NOT_SUPPORTED',
        what === 'buy'
          ? `该套餐不支持贵公司的接入方式：${needed}，请选择符合的套餐`
          : `已购套餐不支持贵公司的接入方式：${needed}，请先购买符合的套餐再开通 API`,
      );
    },
  };

  return {
    ...gate,
    /** The operator's internal remark on a company. */
    setRemark: (companyId: string, remark: string) => repo.setRemark(db, companyId, remark, Date.now()),
    /** The operator's service end of a company (null: no limit). */
    setServiceExpiry: (companyId: string, expireAt: number | null) =>
      repo.setServiceExpiry(db, companyId, expireAt, Date.now()),
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
