import { z } from 'zod';
import { defineCall } from '../call.js';
import { epochMsField, idField, pageFields, pageOf, reportDaysField, textField } from '../fields.js';
import { apiAccountSchema } from './api-accounts.js';
import { subscriptionSchema } from './packages.js';

const TAG = '运营';

export const agentPanel = defineCall({
  id: 'home.agentPanel',
  method: 'POST',
  path: '/api/home/agentPanel',
  audience: 'operator',
  tag: TAG,
  summary: '运营总览（运营）',
  description:
    'companies 注册公司数；verified 已实名；reviewing 待审核；paying 有未过期套餐的公司数；onlineAccounts 此刻在线的微信账号数；revenueMonthFen 本月（北京时间）已支付订单金额（分）；trend 最近 days 天（北京时间）每天的注册数、支付订单数与金额。',
  request: z.strictObject({ days: reportDaysField }),
  response: z.object({
    companies: z.number().int(),
    verified: z.number().int(),
    reviewing: z.number().int(),
    paying: z.number().int(),
    onlineAccounts: z.number().int(),
    revenueMonthFen: z.number().int(),
    trend: z.array(
      z.object({
        date: z.string(),
        registered: z.number().int(),
        paidOrders: z.number().int(),
        revenueFen: z.number().int(),
      }),
    ),
  }),
});

export const packageStateSchema = z.enum(['active', 'expired', 'none']);
export type PackageState = z.infer<typeof packageStateSchema>;
export const PACKAGE_STATE_LABELS: Record<PackageState, string> = {
  active: '套餐有效',
  expired: '套餐已过期',
  none: '未购买',
};

export const companySchema = z.object({
  id: z.string(),
  companyName: z.string(),
  companyAccount: z.string(),
  userName: z.string(),
  accountType: z.number().int(),
  realNameStatus: z.number().int(),
  status: z.enum(['active', 'disabled']),
  /** Operator's note on the company (not shown to the customer). */
  remark: z.string(),
  /** Service end set by an operator; null = no limit. */
  serviceExpiresAt: epochMsField.nullable(),
  createdAt: epochMsField,
  packageState: packageStateSchema,
  /** Slots of unexpired packages. */
  activeSlots: z.number().int(),
  /** The latest end of the company's packages. */
  packageEndsAt: epochMsField.nullable(),
  subAccountCount: z.number().int(),
  onlineCount: z.number().int(),
});
export type Company = z.infer<typeof companySchema>;

export const registeUser = defineCall({
  id: 'home.registeUser',
  method: 'POST',
  path: '/api/home/registeUser',
  audience: 'operator',
  tag: TAG,
  summary: '注册公司（运营）',
  description:
    '注册的客户公司，最新注册在前。keyword 匹配公司名称、账号或备注（不区分大小写）；可按实名状态、套餐状态、服务是否到期筛选。',
  request: z.strictObject({
    ...pageFields,
    keyword: z.string().trim().max(50).optional(),
    realNameStatus: z.number().int().min(0).max(3).optional(),
    packageState: packageStateSchema.optional(),
    serviceExpired: z.boolean().optional(),
  }),
  response: pageOf(companySchema),
});

export const updateCompanyRemarks = defineCall({
  id: 'admin.company.updateRemarks',
  method: 'POST',
  path: '/api/admin/company/updateRemarks',
  audience: 'operator',
  tag: TAG,
  summary: '修改公司备注（运营）',
  description: '运营内部备注，客户看不到。（/api/home/updateRemarks 是客户给微信账号写备注。）',
  request: z.strictObject({
    userId: idField('用户编号'),
    remark: textField('备注', { min: 0, max: 100, multiline: true }),
  }),
  response: companySchema,
});

export const updateCompanyExpireTime = defineCall({
  id: 'admin.company.updateExpireTime',
  method: 'POST',
  path: '/api/admin/company/updateExpireTime',
  audience: 'operator',
  tag: TAG,
  summary: '设置公司服务到期时间（运营）',
  description:
    '到期后公司仍可登录控制台、查看记录，但不能购买或续费套餐、开通 API 或新建子账号、登录新的微信账号（40304）；已在线的账号不受影响，直到下线。传 null 取消期限。',
  request: z.strictObject({ userId: idField('用户编号'), expireAt: epochMsField.nullable() }),
  response: companySchema,
});

export const companyPackages = defineCall({
  id: 'admin.company.packages',
  method: 'POST',
  path: '/api/admin/company/packages',
  audience: 'operator',
  tag: TAG,
  summary: '公司的已购套餐（运营，只读）',
  request: z.strictObject({ userId: idField('用户编号') }),
  response: z.object({
    list: z.array(subscriptionSchema),
    totalSlots: z.number().int(),
    allocatedSlots: z.number().int(),
    freeSlots: z.number().int(),
  }),
});

export const companySubAccounts = defineCall({
  id: 'admin.company.subAccounts',
  method: 'POST',
  path: '/api/admin/company/subAccounts',
  audience: 'operator',
  tag: TAG,
  summary: '公司的子账号（运营，只读，含已回收）',
  request: z.strictObject({ userId: idField('用户编号') }),
  response: z.object({ list: z.array(apiAccountSchema) }),
});
