import { z } from 'zod';

/** Access modes (spec §3 accountType / register extAccountType; spec §9 support tiers). */
export const AccountType = { SAAS: 1, LOCAL: 2, HOSTED: 3, PRIVATE: 4 } as const;
export type AccountTypeValue = (typeof AccountType)[keyof typeof AccountType];
export const ACCOUNT_TYPE_LABELS: Record<AccountTypeValue, string> = {
  1: 'SaaS',
  2: '本地部署',
  3: '托管',
  4: '私有化',
};
export const accountTypeSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], {
  error: '接入方式只能是 1(SaaS)、2(本地)、3(托管) 或 4(私有化)',
});

/** Real-name status (spec §3 realNameUser, §4). Any other value counts as unverified. */
export const RealNameStatus = { UNVERIFIED: 0, VERIFIED: 1, REVIEWING: 2, REFUSED: 3 } as const;
export type RealNameStatusValue = (typeof RealNameStatus)[keyof typeof RealNameStatus];
export const REAL_NAME_LABELS: Record<RealNameStatusValue, string> = {
  0: '未认证',
  1: '已认证',
  2: '审核中',
  3: '认证失败',
};

export const Role = { CUSTOMER: 'customer', ADMIN: 'admin' } as const;
export type RoleValue = (typeof Role)[keyof typeof Role];
export const roleSchema = z.enum(['customer', 'admin']);

/** User info (spec §3), returned by login and refreshLoginInfo. */
export const userInfoSchema = z.object({
  id: z.string(),
  companyName: z.string(),
  companyAccount: z.string(),
  userName: z.string(),
  accountType: z.number().int(),
  realNameUser: z.number().int(),
  serverFlag: z.string(),
  roles: z.array(roleSchema),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** Package tiers (基础版 / 商务版 / 企业版) and the access modes each supports (spec §9). */
export const tierSchema = z.enum(['basic', 'business', 'enterprise'], {
  error: '套餐等级只能是 basic、business 或 enterprise',
});
export type Tier = z.infer<typeof tierSchema>;
export const TIER_LABELS: Record<Tier, string> = {
  basic: '基础版',
  business: '商务版',
  enterprise: '企业版',
};
export const TIER_ORDER: Tier[] = ['basic', 'business', 'enterprise'];
/** The lowest tier that supports each access mode: SaaS basic+, local business+, hosted/private enterprise+. */
export const ACCESS_MODE_MIN_TIER: Record<AccountTypeValue, Tier> = {
  1: 'basic',
  2: 'business',
  3: 'enterprise',
  4: 'enterprise',
};
export function accessModesOf(tier: Tier): AccountTypeValue[] {
  const rank = TIER_ORDER.indexOf(tier);
  return ([1, 2, 3, 4] as const).filter((mode) => TIER_ORDER.indexOf(ACCESS_MODE_MIN_TIER[mode]) <= rank);
}

/** Whether a package of `tier` serves a company of access mode `accountType` (spec §9). */
export function tierFits(tier: Tier, accountType: number): boolean {
  const min = ACCESS_MODE_MIN_TIER[accountType as AccountTypeValue] ?? 'basic';
  return TIER_ORDER.indexOf(tier) >= TIER_ORDER.indexOf(min);
}

/** "SaaS 接入需要基础版及以上套餐" — what a company of this access mode needs, in one sentence. */
export function tierNeededText(accountType: number): string {
  const mode = accountType as AccountTypeValue;
  const min = ACCESS_MODE_MIN_TIER[mode] ?? 'basic';
  const above = min === 'enterprise' ? '' : '及以上';
  return `「${ACCOUNT_TYPE_LABELS[mode] ?? 'SaaS'}」接入方式需要${TIER_LABELS[min]}${above}套餐`;
}

export const orderStateSchema = z.enum(['pending', 'paid', 'cancelled', 'expired']);
export type OrderStateValue = z.infer<typeof orderStateSchema>;
export const ORDER_STATE_LABELS: Record<OrderStateValue, string> = {
  pending: '待支付',
  paid: '已支付',
  cancelled: '已取消',
  expired: '已过期未支付',
};
export const PAY_METHOD_LABELS: Record<string, string> = { sandbox: '沙箱支付', offline: '线下转账' };
