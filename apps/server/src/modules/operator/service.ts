import { type Company, DAY_MS } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { ApiAccountService } from '../api-accounts/service.js';
import type { AuditService } from '../audit/service.js';
import type { CompanyService } from '../company/service.js';
import type { PackageService } from '../packages/service.js';
import { dayKey, monthDays } from '../statistics/intervals.js';
import * as repo from './repo.js';

export function toCompany(row: repo.CompanyViewRow): Company {
  const activeSlots = Number(row.active_slots ?? 0);
  const endsAt = row.package_ends_at == null ? null : Number(row.package_ends_at);
  return {
    id: row.id,
    companyName: row.company_name,
    companyAccount: row.account,
    userName: row.user_name,
    accountType: row.account_type,
    realNameStatus: row.real_name_status,
    status: row.status,
    remark: row.remark ?? '',
    serviceExpiresAt: row.service_expires_at == null ? null : Number(row.service_expires_at),
    createdAt: Number(row.created_at),
    packageState: activeSlots > 0 ? 'active' : endsAt !== null ? 'expired' : 'none',
    activeSlots,
    packageEndsAt: endsAt,
    subAccountCount: Number(row.sub_account_count ?? 0),
    onlineCount: Number(row.online_count ?? 0),
  };
}

export interface OperatorDeps {
  db: Kysely<DB>;
  /** A company's packages, as the company sees them (read-only view). */
  packages: Pick<PackageService, 'mySubscriptions'>;
  /** A company's sub-accounts, as the company sees them (read-only view). */
  apiAccounts: Pick<ApiAccountService, 'list'>;
  /** The operator's remark and service expiry of a company. */
  companyOps: Pick<CompanyService, 'setRemark' | 'setServiceExpiry'>;
  audit: AuditService;
}

/** The operator area's read models (companies, totals) and its few writes (remark, expiry). */
export function createOperatorService({ db, packages, apiAccounts, companyOps, audit }: OperatorDeps) {
  async function company(id: string): Promise<Company> {
    const row = await repo.findCompany(db, id, Date.now());
    if (!row) throw new AppError('NOT_FOUND', '公司不存在');
    return toCompany(row);
  }

  return {
    company,

    async panel(days: number, now = Date.now()) {
      const today = dayKey(now);
      const monthStart = monthDays(today.slice(0, 7))[0]!.start;
      const keys = Array.from({ length: days }, (_, i) => dayKey(now - (days - 1 - i) * DAY_MS));
      const from = now - days * DAY_MS - DAY_MS; // a day of slack; days are keyed below
      const { registered, paid, revenue, ...totals } = await repo.panelFigures(db, now, monthStart, from);
      const trend = new Map(
        keys.map((date) => [date, { date, registered: 0, paidOrders: 0, revenueFen: 0 }]),
      );
      for (const r of registered) {
        const day = trend.get(dayKey(Number(r.created_at)));
        if (day) day.registered += 1;
      }
      for (const o of paid) {
        const day = trend.get(dayKey(Number(o.paid_at)));
        if (day) {
          day.paidOrders += 1;
          day.revenueFen += Number(o.amount_fen);
        }
      }
      return { ...totals, revenueMonthFen: revenue, trend: [...trend.values()] };
    },

    async companies(filter: repo.CompanyFilter, page: number, pageSize: number) {
      const { rows, total } = await repo.companyPage(db, filter, page, pageSize, Date.now());
      return { list: rows.map(toCompany), total, page, pageSize };
    },

    async updateRemark(operatorId: string, companyId: string, remark: string, ip: string) {
      await company(companyId);
      await companyOps.setRemark(companyId, remark);
      await audit.record({ userId: operatorId, action: 'company.remark', ip, detail: { companyId } });
      return company(companyId);
    },

    async updateExpireTime(operatorId: string, companyId: string, expireAt: number | null, ip: string) {
      await company(companyId);
      await companyOps.setServiceExpiry(companyId, expireAt);
      await audit.record({
        userId: operatorId,
        action: 'company.expireAt',
        ip,
        detail: { companyId, expireAt },
      });
      return company(companyId);
    },

    async packagesOf(companyId: string) {
      await company(companyId);
      return packages.mySubscriptions(companyId);
    },

    async subAccountsOf(companyId: string) {
      await company(companyId);
      const { list } = await apiAccounts.list(companyId, true);
      return { list };
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
