import {
  accessModesOf,
  DAY_MS,
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

/** What a paid order grants: a new subscription (the order's snapshot of the package). */
export interface Grant {
  companyId: string;
  packageId: string;
  packageName: string;
  tier: Package['tier'];
  slots: number;
  spanMs: number;
}

export interface PackageDeps {
  db: Kysely<DB>;
  publicUrl: string;
  /** Slots allocated to the company's active sub-accounts (module api-accounts). */
  allocatedSlots(companyId: string): Promise<number>;
  /** Whether API access is open, and how many sub-accounts (module api-accounts; for openService). */
  apiSummary(companyId: string): Promise<{ apiOpened: boolean; subAccountCount: number }>;
}

/** The package catalogue and the subscriptions bought from it (tables `packages`, `subscriptions`). */
export function createPackageService({ db, publicUrl, allocatedSlots, apiSummary }: PackageDeps) {
  async function quota(companyId: string, now = Date.now()): Promise<Quota> {
    const totalSlots = await repo.activeSlots(db, companyId, now);
    const allocated = await allocatedSlots(companyId);
    return { totalSlots, allocatedSlots: allocated, freeSlots: Math.max(0, totalSlots - allocated) };
  }

  async function subscriptions(companyId: string, now: number) {
    return (await repo.listSubscriptions(db, companyId)).map((r) => toSubscription(r, now));
  }

  async function activeServices(companyId: string) {
    const list = await subscriptions(companyId, Date.now());
    const active = list.filter((s) => s.status === 'active');
    return {
      services: active,
      serviceEndsAt: active.length ? Math.max(...active.map((s) => s.endsAt)) : null,
    };
  }

  return {
    quota,

    /** Slots of the company's packages in force at `now`; `exec`: the caller's transaction (quota lock). */
    activeSlots: (companyId: string, now = Date.now(), exec: Kysely<DB> = db) =>
      repo.activeSlots(exec, companyId, now),

    /**
     * The same slots as an SQL expression for another module's query (a scalar subquery; null when
     * none): the send reads them with its account, in one statement.
     */
    activeSlotsOf: repo.activeSlotsOf,

    /** A package row (orders snapshot it), on sale or not. */
    findPackage: (id: string) => repo.findPackage(db, id),

    /** One of the company's subscriptions; `exec`: the caller's transaction. */
    findSubscription: (companyId: string, id: string, exec: Kysely<DB> = db) =>
      repo.findSubscription(exec, companyId, id),

    /** A new subscription from `now` (a paid buy order), in the caller's transaction. */
    async grant(exec: Kysely<DB>, grant: Grant, now: number): Promise<string> {
      const id = newId();
      await repo.insertSubscription(exec, {
        id,
        company_id: grant.companyId,
        package_id: grant.packageId,
        package_name: grant.packageName,
        tier: grant.tier,
        slots: grant.slots,
        starts_at: now,
        ends_at: now + grant.spanMs,
        created_at: now,
        updated_at: now,
      });
      return id;
    },

    /**
     * A paid renewal, in the caller's transaction: extends from the current end, or from now if the
     * package has lapsed.
     */
    async extend(exec: Kysely<DB>, sub: SubscriptionRow, spanMs: number, now: number): Promise<void> {
      const lapsed = sub.ends_at <= now;
      await repo.updateSubscription(exec, sub.id, {
        starts_at: lapsed ? now : sub.starts_at,
        ends_at: (lapsed ? now : sub.ends_at) + spanMs,
        updated_at: now,
      });
    },

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

    activeServices,

    /** 已开通服务: the packages in force and the company's API access. */
    async openService(companyId: string) {
      return { ...(await activeServices(companyId)), ...(await apiSummary(companyId)) };
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
