import { randomBytes } from 'node:crypto';
import { type ApiAccount, SUB_ACCOUNT_MAX_PER_COMPANY } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { ApiAccountRow, DB } from '../../db/schema.js';
import { newId, sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { withLock } from '../../lib/lock.js';
import { assertCallbackUrlAllowed } from '../../lib/url-guard.js';
import type { AuditService } from '../audit/service.js';
import type { CompanyGate } from '../company/service.js';
import type { PackageService } from '../packages/service.js';
import type { CompanyApiConfig, DirectoryCache } from './cache.js';
import * as repo from './repo.js';

/** How many messaging accounts each sub-account has logged in now, by sub-account id. */
export type SlotUsage = (companyId: string) => Promise<Map<string, number>>;

export function toApiAccount(row: ApiAccountRow, usedNum: number): ApiAccount {
  return {
    id: row.id,
    name: row.name,
    appKey: row.app_key,
    availableNum: row.available_num,
    usedNum,
    callbackUrl: row.callback_url,
    status: row.status,
    createdAt: row.created_at,
    recoveredAt: row.recovered_at,
  };
}

/**
 * What other modules read and change of sub-accounts, injected as narrow dependencies (the gateway,
 * callbacks, api-auth, packages); rows never leave through the console calls. The lookups of the hot
 * paths (an API request's credentials, a send's sub-account, a callback's URL) read through `cache`.
 */
export function subAccountDirectory(db: Kysely<DB>, cache: DirectoryCache) {
  /** Reads a sub-account row and keeps it unless a change was announced meanwhile. */
  async function readAccount(read: Promise<ApiAccountRow | undefined>, gen: number) {
    const row = await read;
    if (row) cache.keepAccount(gen, row, Date.now());
    return row;
  }
  return {
    /** Slots allocated to the company's active sub-accounts (packages: the quota summary). */
    allocatedSlots: (companyId: string) => repo.allocatedSlots(db, companyId),
    /** One sub-account of the company, active or reclaimed (gateway, callbacks). */
    async subAccount(companyId: string, id: string) {
      const copy = cache.account(id, Date.now());
      if (copy) return copy.company_id === companyId ? copy : undefined;
      return readAccount(repo.find(db, companyId, id), cache.generation());
    },
    /** The company's active sub-accounts, oldest first (gateway: the default for a console login). */
    activeSubAccounts: (companyId: string) => repo.list(db, companyId, false),
    /** The sub-account behind an appKey (api-auth). */
    async byAppKey(appKey: string) {
      const copy = cache.accountByKey(appKey, Date.now());
      if (copy) return copy;
      return readAccount(repo.findByAppKey(db, appKey), cache.generation());
    },
    /** The company's API settings (api-auth: the IP allow-list; callbacks: the default URL). */
    async getCompanyConfig(companyId: string): Promise<CompanyApiConfig> {
      const copy = cache.config(companyId, Date.now());
      if (copy) return copy;
      const gen = cache.generation();
      const row = await repo.findSettings(db, companyId);
      const config = {
        defaultCallbackUrl: row?.default_callback_url ?? null,
        ipAllowlist: row ? (JSON.parse(row.ip_allowlist) as string[]) : [],
      };
      cache.keepConfig(gen, companyId, config, Date.now());
      return config;
    },
    /** Saves a sub-account's callback URL once callbacks has tested it. */
    async setCallbackUrl(companyId: string, id: string, callbackUrl: string) {
      await repo.update(db, companyId, id, { callback_url: callbackUrl, updated_at: Date.now() });
      await cache.changed({ subAccounts: [id] });
    },
  };
}

export type SubAccountDirectory = ReturnType<typeof subAccountDirectory>;

const newAppKey = () => `ak_${randomBytes(10).toString('hex')}`;
const newAppSecret = () => `sk_${randomBytes(24).toString('base64url')}`;

export interface ApiAccountDeps {
  db: Kysely<DB>;
  packages: Pick<PackageService, 'quota' | 'activeServices' | 'activeSlots'>;
  audit: AuditService;
  usage: SlotUsage;
  allowPrivateCallbacks: boolean;
  /** Operator rules (real-name switch, service expiry, tier vs access mode) checked before API access is opened. */
  gate?: Pick<CompanyGate, 'assertMayTrade' | 'assertTierFits'> | undefined;
  /** Copies for the hot paths; every write below announces what it changed before it answers. */
  cache: DirectoryCache;
}

/**
 * Sub-accounts (API applications: credentials, slot allocations, callback URLs) and the company's
 * API settings (tables `api_accounts`, `company_api_settings`). Allocations are checked against the
 * company's packages under its quota lock.
 */
export function createApiAccountService({
  db,
  packages,
  audit,
  usage,
  allowPrivateCallbacks,
  gate,
  cache,
}: ApiAccountDeps) {
  const checkUrl = (url: string) => assertCallbackUrlAllowed(url, { allowPrivate: allowPrivateCallbacks });

  /** Opening API access needs a package in force whose tier serves the company's access mode. */
  async function assertHeldTiersFit(companyId: string) {
    const { services } = await packages.activeServices(companyId);
    if (services.length > 0)
      await gate?.assertTierFits(
        companyId,
        services.map((s) => s.tier),
        'api',
      );
  }

  async function own(companyId: string, id: string): Promise<ApiAccountRow> {
    const row = await repo.find(db, companyId, id);
    if (!row) throw new AppError('NOT_FOUND', '子账号不存在');
    return row;
  }

  async function view(row: ApiAccountRow): Promise<ApiAccount> {
    return toApiAccount(row, (await usage(row.company_id)).get(row.id) ?? 0);
  }

  /** Throws unless `wanted` more slots fit in the company's packages besides the other allocations. */
  async function assertFits(exec: Kysely<DB>, companyId: string, wanted: number, exceptId?: string) {
    if (wanted === 0) return;
    const total = await packages.activeSlots(companyId, Date.now(), exec);
    const others = await repo.allocatedSlots(exec, companyId, exceptId);
    if (others + wanted > total) {
      throw new AppError(
        'QUOTA_EXHAUSTED',
        total === 0
          ? '暂无有效套餐，无法分配账号额度，请先购买套餐'
          : `可分配额度不足：套餐共 ${total} 个，其他子账号已分配 ${others} 个，最多还能分配 ${Math.max(0, total - others)} 个`,
      );
    }
  }

  /** Creates a sub-account; with `onlyIfNone`, only when the company has no active one (else null). */
  async function create(
    companyId: string,
    input: { name: string; availableNum: number; callbackUrl?: string | undefined },
    onlyIfNone = false,
  ) {
    if (input.callbackUrl) await checkUrl(input.callbackUrl);
    const secret = newAppSecret();
    const id = newId();
    const created = await withLock(db, `quota:${companyId}`, async (trx) => {
      const active = await repo.countActive(trx, companyId);
      if (onlyIfNone && active > 0) return false;
      if (active >= SUB_ACCOUNT_MAX_PER_COMPANY) {
        throw new AppError('CONFLICT', `每个公司最多 ${SUB_ACCOUNT_MAX_PER_COMPANY} 个子账号`);
      }
      await assertFits(trx, companyId, input.availableNum);
      const now = Date.now();
      await repo.insert(trx, {
        id,
        company_id: companyId,
        name: input.name,
        app_key: newAppKey(),
        secret_hash: sha256(secret),
        available_num: input.availableNum,
        callback_url: input.callbackUrl ?? null,
        status: 'active',
        created_at: now,
        updated_at: now,
        recovered_at: null,
      });
      return true;
    });
    return created ? { account: toApiAccount(await own(companyId, id), 0), appSecret: secret } : null;
  }

  return {
    async list(companyId: string, includeRecovered: boolean) {
      const [rows, used, quota] = await Promise.all([
        repo.list(db, companyId, includeRecovered),
        usage(companyId),
        packages.quota(companyId),
      ]);
      return { list: rows.map((r) => toApiAccount(r, used.get(r.id) ?? 0)), ...quota };
    },

    async open(
      companyId: string,
      input: { name: string; availableNum: number; callbackUrl?: string | undefined },
      ip: string,
    ) {
      await gate?.assertMayTrade(companyId);
      await assertHeldTiersFit(companyId);
      const created = (await create(companyId, input))!;
      await audit.record({
        userId: companyId,
        action: 'apiAccount.open',
        ip,
        detail: { id: created.account.id },
      });
      return created;
    },

    async update(
      companyId: string,
      input: { id: string; name?: string | undefined; callbackUrl?: string | null | undefined },
    ) {
      const row = await own(companyId, input.id);
      if (row.status !== 'active') throw new AppError('CONFLICT', '子账号已回收，不能修改');
      if (input.callbackUrl) await checkUrl(input.callbackUrl);
      await repo.update(db, companyId, row.id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.callbackUrl !== undefined ? { callback_url: input.callbackUrl } : {}),
        updated_at: Date.now(),
      });
      await cache.changed({ subAccounts: [row.id] });
      return view(await own(companyId, row.id));
    },

    async resetSecret(companyId: string, id: string, ip: string) {
      const row = await own(companyId, id);
      if (row.status !== 'active') throw new AppError('CONFLICT', '子账号已回收，不能重置密钥');
      const secret = newAppSecret();
      await repo.update(db, companyId, id, { secret_hash: sha256(secret), updated_at: Date.now() });
      await cache.changed({ subAccounts: [id] });
      await audit.record({ userId: companyId, action: 'apiAccount.resetSecret', ip, detail: { id } });
      return { account: await view(await own(companyId, id)), appSecret: secret };
    },

    async recover(companyId: string, id: string, ip: string) {
      const row = await own(companyId, id);
      if (!(await repo.recover(db, companyId, row.id, Date.now())))
        throw new AppError('CONFLICT', '该子账号已回收');
      await cache.changed({ subAccounts: [row.id] });
      await audit.record({ userId: companyId, action: 'apiAccount.recover', ip, detail: { id } });
      return view(await own(companyId, id));
    },

    async setAvailable(companyId: string, id: string, availableNum: number) {
      const row = await own(companyId, id);
      if (row.status !== 'active') throw new AppError('CONFLICT', '子账号已回收，不能分配额度');
      const used = (await usage(companyId)).get(id) ?? 0;
      if (availableNum < used) {
        throw new AppError('BAD_REQUEST', `该子账号当前有 ${used} 个账号在线，分配数量不能少于 ${used}`);
      }
      await withLock(db, `quota:${companyId}`, async (trx) => {
        if (availableNum > row.available_num) await assertFits(trx, companyId, availableNum, id);
        await repo.update(trx, companyId, id, { available_num: availableNum, updated_at: Date.now() });
      });
      await cache.changed({ subAccounts: [id] });
      return view(await own(companyId, id));
    },

    async setCompanyConfig(
      companyId: string,
      input: { defaultCallbackUrl: string | null; ipAllowlist: string[] },
    ) {
      if (input.defaultCallbackUrl) await checkUrl(input.defaultCallbackUrl);
      const ipAllowlist = [...new Set(input.ipAllowlist)];
      await repo.upsertSettings(db, {
        company_id: companyId,
        default_callback_url: input.defaultCallbackUrl,
        ip_allowlist: JSON.stringify(ipAllowlist),
        updated_at: Date.now(),
      });
      await cache.changed({ companies: [companyId] });
      return { defaultCallbackUrl: input.defaultCallbackUrl, ipAllowlist };
    },

    /** Opens API access: the first sub-account, with every free slot, when the company has none. */
    async applyApis(companyId: string, ip: string) {
      if ((await repo.countActive(db, companyId)) > 0) return { created: false, credentials: null };
      await gate?.assertMayTrade(companyId);
      const quota = await packages.quota(companyId);
      if (quota.totalSlots === 0)
        throw new AppError('NO_ACTIVE_PACKAGE', '暂无有效套餐，请先购买套餐再开通 API');
      await assertHeldTiersFit(companyId);
      const credentials = await create(companyId, { name: '默认应用', availableNum: quota.freeSlots }, true);
      if (!credentials) return { created: false, credentials: null };
      await audit.record({
        userId: companyId,
        action: 'api.apply',
        ip,
        detail: { id: credentials.account.id },
      });
      return { created: true, credentials };
    },

    async summary(companyId: string) {
      const subAccountCount = await repo.countActive(db, companyId);
      return { apiOpened: subAccountCount > 0, subAccountCount };
    },

    ...subAccountDirectory(db, cache),
  };
}

export type ApiAccountService = ReturnType<typeof createApiAccountService>;
