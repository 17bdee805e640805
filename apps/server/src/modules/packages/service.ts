import {
  accessModesOf,
  EXPIRING_SOON_DAYS,
  type Package,
  type Subscription,
  TIER_ORDER,
} from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB, PackageRow, SubscriptionRow } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './repo.js';

export const DAY_MS = 86_400_000;

export function toPackage(row: PackageRow): Package {
  return {
    id: row.id,
    name: row.name,
    tier: row.tier,
    slots: row.slots,
    durationDays: row.duration_days,
    priceFen: Number(row.price_fen),
    onSale: row.on_sale === 1,
    description: row.description,
    accessModes: accessModesOf(row.tier),
  };
}

export function toSubscription(row: SubscriptionRow, now: number): Subscription {
  const active = row.starts_at <= now && row.ends_at > now;
  const daysLeft = active ? Math.ceil((row.ends_at - now) / DAY_MS) : 0;
  return {
    id: row.id,
    packageId: row.package_id,
    packageName: row.package_name,
    tier: row.tier,
    slots: row.slots,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    status: active ? 'active' : 'expired',
    daysLeft,
    expiringSoon: active && daysLeft <= EXPIRING_SOON_DAYS,
  };
}

const byTierThenPrice = (a: Package, b: Package) =>
  TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier) || a.priceFen - b.priceFen;

export interface Quota {
  totalSlots: number;
  allocatedSlots: number;
  freeSlots: number;
}

export interface PackageInput {
  name: string;
  tier: Package['tier'];
  slots: number;
  durationDays: number;
  priceFen: number;
  onSale: boolean;
  description: string;
}

export function createPackageService(db: Kysely<DB>, publicUrl: string) {
  async function quota(companyId: string, now = Date.now(), exec: Kysely<DB> = db): Promise<Quota> {
    const totalSlots = await repo.activeSlots(exec, companyId, now);
    const allocated = await repo.allocatedSlots(exec, companyId);
    return { totalSlots, allocatedSlots: allocated, freeSlots: Math.max(0, totalSlots - allocated) };
  }

  async function subscriptions(companyId: string, now: number) {
    return (await repo.listSubscriptions(db, companyId)).map((r) => toSubscription(r, now));
  }

  return {
    quota,

    async catalogue() {
      return (await repo.listPackages(db, true)).map(toPackage).sort(byTierThenPrice);
    },

    async allPackages() {
      return (await repo.listPackages(db, false)).map(toPackage).sort(byTierThenPrice);
    },

    /** A package on sale, or one the company already holds (so renewals can show it). */
    async packageForCompany(companyId: string, id: string) {
      const row = await repo.findPackage(db, id);
      if (!row) throw new AppError('NOT_FOUND', '套餐不存在或已下架');
      if (row.on_sale !== 1) {
        const owned = (await repo.listSubscriptions(db, companyId)).some((s) => s.package_id === id);
        if (!owned) throw new AppError('NOT_FOUND', '套餐不存在或已下架');
      }
      return toPackage(row);
    },

    async mySubscriptions(companyId: string) {
      const now = Date.now();
      return { list: await subscriptions(companyId, now), ...(await quota(companyId, now)) };
    },

    async showByRecord(companyId: string) {
      return { show: (await repo.activeSlots(db, companyId, Date.now())) > 0, api: publicUrl };
    },

    async activeServices(companyId: string) {
      const list = await subscriptions(companyId, Date.now());
      const active = list.filter((s) => s.status === 'active');
      return {
        services: active,
        serviceEndsAt: active.length ? Math.max(...active.map((s) => s.endsAt)) : null,
      };
    },

    async savePackage(id: string | undefined, input: PackageInput) {
      const now = Date.now();
      const fields = {
        name: input.name,
        tier: input.tier,
        slots: input.slots,
        duration_days: input.durationDays,
        price_fen: input.priceFen,
        on_sale: input.onSale ? 1 : 0,
        description: input.description,
        updated_at: now,
      };
      if (id) {
        if (!(await repo.findPackage(db, id))) throw new AppError('NOT_FOUND', '套餐不存在');
        await repo.updatePackage(db, id, fields);
      } else {
        id = newId();
        await repo.insertPackage(db, { id, ...fields, created_at: now });
      }
      return toPackage((await repo.findPackage(db, id))!);
    },
  };
}

export type PackageService = ReturnType<typeof createPackageService>;

/** The demo catalogue an empty database starts with (operators edit it from the operator area). */
export const DEMO_CATALOGUE: PackageInput[] = [
  {
    name: '基础版·月付',
    tier: 'basic',
    slots: 5,
    durationDays: 30,
    priceFen: 29_900,
    onSale: true,
    description: '适合个人开发者与小团队试用接入',
  },
  {
    name: '基础版·年付',
    tier: 'basic',
    slots: 5,
    durationDays: 365,
    priceFen: 299_000,
    onSale: true,
    description: '按年付费，约合 10 个月价格',
  },
  {
    name: '商务版·月付',
    tier: 'business',
    slots: 20,
    durationDays: 30,
    priceFen: 99_900,
    onSale: true,
    description: '支持本地接入，适合成长型企业',
  },
  {
    name: '商务版·年付',
    tier: 'business',
    slots: 20,
    durationDays: 365,
    priceFen: 999_000,
    onSale: true,
    description: '按年付费，约合 10 个月价格',
  },
  {
    name: '企业版·月付',
    tier: 'enterprise',
    slots: 100,
    durationDays: 30,
    priceFen: 399_900,
    onSale: true,
    description: '支持托管与私有化部署，专属技术支持',
  },
  {
    name: '企业版·年付',
    tier: 'enterprise',
    slots: 100,
    durationDays: 365,
    priceFen: 3_999_000,
    onSale: true,
    description: '按年付费，约合 10 个月价格',
  },
];
