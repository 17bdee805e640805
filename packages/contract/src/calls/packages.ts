import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { ORDER_MAX_QUANTITY } from '../constants.js';
import { orderStateSchema, tierSchema } from '../domain.js';
import { epochMsField, idempotencyKeyField, idField, pageFields, pageOf, textField } from '../fields.js';

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

export const orderSchema = z.object({
  orderNo: z.string(),
  kind: z.enum(['buy', 'renew']),
  packageId: z.string(),
  packageName: z.string(),
  tier: tierSchema,
  quantity: z.number().int(),
  durationDays: z.number().int(),
  slots: z.number().int(),
  amountFen: z.number().int(),
  state: orderStateSchema,
  payMethod: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  createdAt: epochMsField,
  paidAt: epochMsField.nullable(),
  /** A pending order must be paid before this time. */
  payDeadline: epochMsField,
});
export type Order = z.infer<typeof orderSchema>;

const quantityField = z
  .number({ error: 'quantity 须为整数' })
  .int('quantity 须为整数')
  .min(1, '购买数量至少为 1')
  .max(ORDER_MAX_QUANTITY, `单次最多购买 ${ORDER_MAX_QUANTITY} 个周期`);

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

export const buy = defineCall({
  id: 'package.buy',
  method: 'POST',
  path: '/api/package/buy',
  audience: 'customer',
  tag: TAG,
  summary: '购买套餐（下单）',
  description:
    '创建待支付订单，金额 = 单价 × quantity（周期数），单位：分。同一 idempotencyKey 重复提交返回同一订单。订单需在 30 分钟内支付。',
  request: z.strictObject({
    packageId: idField('套餐编号'),
    quantity: quantityField,
    idempotencyKey: idempotencyKeyField,
  }),
  response: orderSchema,
});

export const renew = defineCall({
  id: 'package.renew',
  method: 'POST',
  path: '/api/package/renew',
  audience: 'customer',
  tag: TAG,
  summary: '续费已购套餐（下单）',
  description: '为已购套餐续费 quantity 个周期；支付后从当前到期时间顺延（已过期则从支付时起算）。',
  request: z.strictObject({
    subscriptionId: idField('已购套餐编号'),
    quantity: quantityField,
    idempotencyKey: idempotencyKeyField,
  }),
  response: orderSchema,
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

export const queryOrders = defineCall({
  id: 'order.queryOrders',
  method: 'POST',
  path: '/api/order/queryOrders',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '订单（购买记录）',
  description: '分页，按创建时间倒序；可按状态和创建时间范围（毫秒时间戳，含起止）筛选。',
  request: z.strictObject({
    ...pageFields,
    state: orderStateSchema.optional(),
    from: epochMsField.optional(),
    to: epochMsField.optional(),
  }),
  response: pageOf(orderSchema),
});

export const paySandbox = defineCall({
  id: 'order.paySandbox',
  method: 'POST',
  path: '/api/order/paySandbox',
  audience: 'customer',
  tag: TAG,
  summary: '沙箱支付（确认支付）',
  description:
    '默认支付方式为沙箱：确认即视为支付成功，套餐立即生效或顺延。重复确认同一已支付订单不会重复生效。',
  request: z.strictObject({ orderNo: idField('订单号') }),
  response: orderSchema,
});

export const cancelOrder = defineCall({
  id: 'order.cancel',
  method: 'POST',
  path: '/api/order/cancel',
  audience: 'customer',
  tag: TAG,
  summary: '取消待支付订单',
  request: z.strictObject({ orderNo: idField('订单号') }),
  response: orderSchema,
});

export const consumeRecord = defineCall({
  id: 'home.consumeRecord',
  method: 'POST',
  path: '/api/home/consumeRecord',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '消费记录',
  description: '已支付订单，分页，按支付时间倒序；totalFen 为累计消费金额（分）。',
  request: z.strictObject({ ...pageFields }),
  response: pageOf(orderSchema).extend({ totalFen: z.number().int() }),
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
    .max(10_000, '账号数不能超过 10000'),
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

export const adminOrderSchema = orderSchema.extend({
  companyId: z.string(),
  companyName: z.string(),
  companyAccount: z.string(),
});

export const adminQueryOrders = defineCall({
  id: 'admin.queryOrders',
  method: 'POST',
  path: '/api/admin/order/list',
  audience: 'operator',
  tag: '运营',
  summary: '全部订单（运营）',
  request: z.strictObject({
    ...pageFields,
    state: orderStateSchema.optional(),
    keyword: z.string().trim().max(50).optional(),
  }),
  response: pageOf(adminOrderSchema),
});

export const adminMarkPaid = defineCall({
  id: 'admin.markOrderPaid',
  method: 'POST',
  path: '/api/admin/order/markPaid',
  audience: 'operator',
  tag: '运营',
  summary: '确认线下转账到账（运营）',
  description: '将待支付（或已过期未支付）订单标记为线下转账已支付，套餐随即生效。',
  request: z.strictObject({
    orderNo: idField('订单号'),
    note: textField('备注', { min: 0, max: 200, multiline: true }).optional().default(''),
  }),
  response: adminOrderSchema,
});
