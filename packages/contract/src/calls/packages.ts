import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { SLOTS_MAX } from '../constants.js';
import { tierSchema } from '../domain.js';
import { epochMsField, idField, textField } from '../fields.js';

const TAG = '套餐与订单';

export const packageSchema = z.object({
  id: z.string(),
  name: z.string(),
  tier: tierSchema,
  slots: z.number().int(),
  durationDays: z.number().int(),
  priceFen: z.number().int(),
  onSale: z.boolean(),
  description: z.string(),
  /** Access modes (accountType values) this tier supports. */
  accessModes: z.array(z.number().int()),
});
export type Package = z.infer<typeof packageSchema>;

export const subscriptionSchema = z.object({
  id: z.string(),
  packageId: z.string(),
  packageName: z.string(),
  tier: tierSchema,
  slots: z.number().int(),
  startsAt: epochMsField,
  endsAt: epochMsField,
  status: z.enum(['active', 'expired']),
  /** Whole days left (0 when expired). */
  daysLeft: z.number().int(),
  expiringSoon: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const list = defineCall({
  id: 'package.list',
  method: 'POST',
  path: '/api/package/list',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '在售套餐目录',
  description: '按等级（基础版 → 企业版）和价格排序。accessModes 为该等级支持的接入方式。',
  request: emptyRequest,
  response: z.object({ list: z.array(packageSchema) }),
});

export const packageById = defineCall({
  id: 'package.packageById',
  method: 'POST',
  path: '/api/package/packageById',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '套餐详情',
  request: z.strictObject({ id: idField('套餐编号') }),
  response: packageSchema,
});

export const queryPackage = defineCall({
  id: 'package.queryPackage',
  method: 'POST',
  path: '/api/package/queryPackage',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '我已购买的套餐',
  description:
    '当前公司已支付的套餐（含已过期），以及额度汇总：totalSlots 为未过期套餐的账号数之和，allocatedSlots 为已分配给子账号的数量。',
  request: emptyRequest,
  response: z.object({
    list: z.array(subscriptionSchema),
    totalSlots: z.number().int(),
    allocatedSlots: z.number().int(),
    freeSlots: z.number().int(),
  }),
});

export const showByRecord = defineCall({
  id: 'package.showByRecord',
  method: 'POST',
  path: '/api/package/showByRecord',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '是否有有效套餐及服务地址',
  description: 'show：当前公司是否有未过期的已购套餐；api：客户程序调用的服务地址。',
  request: emptyRequest,
  response: z.object({ show: z.boolean(), api: z.string() }),
});

export const openService = defineCall({
  id: 'home.openService',
  method: 'POST',
  path: '/api/home/openService',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '已开通服务',
  description: '未过期的已购套餐（含到期时间），以及 API 是否已开通、子账号数量。',
  request: emptyRequest,
  response: z.object({
    services: z.array(subscriptionSchema),
    apiOpened: z.boolean(),
    subAccountCount: z.number().int(),
    serviceEndsAt: epochMsField.nullable(),
  }),
});

// ---- operator
const packageInput = {
  name: textField('套餐名称', { min: 2, max: 30 }),
  tier: tierSchema,
  slots: z
    .number({ error: 'slots 须为整数' })
    .int('slots 须为整数')
    .min(1, '账号数至少为 1')
    .max(SLOTS_MAX, `账号数不能超过 ${SLOTS_MAX}`),
  durationDays: z
    .number({ error: 'durationDays 须为整数' })
    .int('durationDays 须为整数')
    .min(1, '周期至少 1 天')
    .max(3_660, '周期不能超过 3660 天'),
  priceFen: z
    .number({ error: 'priceFen 须为整数（分）' })
    .int('价格须为整数（单位：分）')
    .min(0, '价格不能为负')
    .max(100_000_000, '价格不能超过 100 万元'),
  onSale: z.boolean({ error: 'onSale 须为 true 或 false' }),
  description: textField('描述', { min: 0, max: 200, multiline: true }).optional().default(''),
};

export const adminSavePackage = defineCall({
  id: 'admin.savePackage',
  method: 'POST',
  path: '/api/admin/package/save',
  audience: 'operator',
  tag: '运营',
  summary: '新增或修改套餐（运营）',
  description: '不带 id 为新增；带 id 为修改。已售出的套餐修改价格不影响已下单订单。',
  request: z.strictObject({ id: idField('套餐编号').optional(), ...packageInput }),
  response: packageSchema,
});

export const adminListPackages = defineCall({
  id: 'admin.listPackages',
  method: 'POST',
  path: '/api/admin/package/list',
  audience: 'operator',
  tag: '运营',
  summary: '全部套餐（含下架，运营）',
  request: emptyRequest,
  response: z.object({ list: z.array(packageSchema) }),
});
