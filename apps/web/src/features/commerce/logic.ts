import { API_KEY_HEADER, API_SECRET_HEADER, DAY_MS, EXPIRING_SOON_DAYS } from '@wxc/contract/constants';
import {
  ACCESS_MODE_MIN_TIER,
  type AccountTypeValue,
  type OrderStateValue,
  TIER_LABELS,
  TIER_ORDER,
  type Tier,
  tierFits,
  tierNeededText,
} from '@wxc/contract/domain';

/** Pure rules behind the commerce screens (套餐, 我的API, 子账号); each is unit-tested. */

/**
 * One idempotency key per purchase dialog, so a double click (or a retry after a timeout) makes one
 * order. `crypto.randomUUID` needs a secure context; plain-HTTP deployments fall back to
 * `getRandomValues`, which every browser offers.
 */
export function newIdempotencyKey(
  c: Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string } = globalThis.crypto,
): string {
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** When a package bought now for `quantity` periods ends (the server starts it at payment). */
export function purchaseEndsAt(now: number, durationDays: number, quantity: number): number {
  return now + durationDays * quantity * DAY_MS;
}

/** A renewal extends from the current end, or from now when the package has already lapsed. */
export function renewalEndsAt(endsAt: number, now: number, durationDays: number, quantity: number): number {
  return Math.max(endsAt, now) + durationDays * quantity * DAY_MS;
}

/** The most a sub-account may hold: what it has plus what nobody holds. */
export function maxAllocatable(freeSlots: number, current: number): number {
  return Math.max(0, freeSlots) + Math.max(0, current);
}

/** Subscription status line: "剩余 12 天", "今天到期" or "已过期". */
export function daysLeftText(status: 'active' | 'expired', daysLeft: number): string {
  if (status === 'expired') return '已过期';
  if (daysLeft <= 0) return '今天到期';
  return `剩余 ${daysLeft} 天`;
}

export function isExpiringSoon(status: 'active' | 'expired', daysLeft: number): boolean {
  return status === 'active' && daysLeft <= EXPIRING_SOON_DAYS;
}

export const ORDER_STATE_COLORS: Record<OrderStateValue, string> = {
  pending: 'processing',
  paid: 'success',
  cancelled: 'default',
  expired: 'warning',
};

export const TIER_COLORS: Record<Tier, string> = { basic: 'blue', business: 'purple', enterprise: 'gold' };

/** Packages grouped by tier in the catalogue's order (基础版 → 企业版); empty tiers are left out. */
export function groupByTier<T extends { tier: Tier }>(
  items: readonly T[],
): Array<{ tier: Tier; items: T[] }> {
  return TIER_ORDER.map((tier) => ({ tier, items: items.filter((i) => i.tier === tier) })).filter(
    (g) => g.items.length > 0,
  );
}

/** "基础版及以上", "企业版及以上": who can use an access mode (spec §9). */
export function supportedTiersText(mode: AccountTypeValue): string {
  const min = ACCESS_MODE_MIN_TIER[mode];
  return min === TIER_ORDER[TIER_ORDER.length - 1] ? `${TIER_LABELS[min]}` : `${TIER_LABELS[min]}及以上`;
}

/** The tiers that support an access mode, lowest first. */
export function tiersSupporting(mode: AccountTypeValue): Tier[] {
  return TIER_ORDER.slice(TIER_ORDER.indexOf(ACCESS_MODE_MIN_TIER[mode]));
}

/**
 * An IP allow-list typed one per line (commas and spaces also separate): trimmed, blanks dropped,
 * duplicates removed, order kept. Validation of each entry is the contract's.
 */
export function parseIpList(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,，;；]+/)) {
    const ip = part.trim();
    if (ip) seen.add(ip);
  }
  return [...seen];
}

/** Header names programs use with API credentials (the `/api/msg/*` calls), from the contract. */
export const APP_KEY_HEADER = API_KEY_HEADER;
export const APP_SECRET_HEADER = API_SECRET_HEADER;
export const SECRET_PLACEHOLDER = '<您的 AppSecret>';
export const APP_KEY_PLACEHOLDER = '<您的 AppKey>';

/** Quotes a value for a POSIX shell: inside single quotes, a quote is written '\''. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The "how to call the API" example: a curl command with the customer's own app key. The secret is
 * never retrievable after it was shown, so it is always a placeholder.
 */
export function buildCurlExample(input: {
  baseUrl: string;
  appKey?: string | null;
  path?: string;
  body?: unknown;
}): string {
  const base = input.baseUrl.trim().replace(/\/+$/, '');
  const path = input.path ?? '/api/msg/getQrCode';
  const body = JSON.stringify(input.body ?? {});
  return [
    `curl -X POST ${shellQuote(`${base}${path}`)}`,
    `  -H ${shellQuote('Content-Type: application/json')}`,
    `  -H ${shellQuote(`${APP_KEY_HEADER}: ${input.appKey || APP_KEY_PLACEHOLDER}`)}`,
    `  -H ${shellQuote(`${APP_SECRET_HEADER}: ${SECRET_PLACEHOLDER}`)}`,
    `  -d ${shellQuote(body)}`,
  ].join(' \\\n');
}

/** Start and end (inclusive, epoch ms) of a local-date range from a date picker, for queryOrders. */
export function dayRange(start: Date | null, end: Date | null): { from?: number; to?: number } {
  const range: { from?: number; to?: number } = {};
  if (start) range.from = new Date(start.getFullYear(), start.getMonth(), start.getDate()).getTime();
  if (end) range.to = new Date(end.getFullYear(), end.getMonth(), end.getDate() + 1).getTime() - 1;
  return range;
}

/**
 * The tier rule (spec §9) for one company, from its access mode and its packages: whether any
 * package in force serves that mode (opening API access and sub-accounts needs one), and a sentence
 * saying what is needed. The service decides (40025); this only lets the console say it first.
 */
export interface TierStanding {
  /** A package is in force. */
  hasActive: boolean;
  /** A package in force serves the access mode. */
  fits: boolean;
  /** Names of packages in force that do not serve it. */
  unfit: string[];
  /** 「本地部署」接入方式需要商务版及以上套餐 */
  needed: string;
}

export function tierStanding(
  subscriptions: ReadonlyArray<{ tier: Tier; status: 'active' | 'expired'; packageName: string }>,
  accountType: number,
): TierStanding {
  const active = subscriptions.filter((s) => s.status === 'active');
  return {
    hasActive: active.length > 0,
    fits: active.some((s) => tierFits(s.tier, accountType)),
    unfit: active.filter((s) => !tierFits(s.tier, accountType)).map((s) => s.packageName),
    needed: tierNeededText(accountType),
  };
}

/** Why a package of this tier cannot be bought by this company, or null when it can. */
export function tierRefusal(tier: Tier, accountType: number | undefined): string | null {
  if (accountType === undefined || tierFits(tier, accountType)) return null;
  return `不适用：${tierNeededText(accountType)}`;
}

/**
 * What the service lets a callback URL point at (siteInfo.callbackPrivateAllowed): said as it is on
 * this deployment, never the default rule when the operator has opened private addresses.
 */
export function callbackAddressNote(privateAllowed: boolean): string {
  return privateAllowed
    ? '本服务允许回调到本机或内网地址（本地部署），地址须从服务器可以访问'
    : '不能指向本机或内网地址，须是公网可以访问的地址';
}
