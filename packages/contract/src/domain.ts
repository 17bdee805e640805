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
