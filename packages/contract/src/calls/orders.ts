import { z } from 'zod';
import { defineCall } from '../call.js';
import { ORDER_MAX_QUANTITY } from '../constants.js';
import { orderStateSchema, tierSchema } from '../domain.js';
import { epochMsField, idempotencyKeyField, idField, pageFields, pageOf, textField } from '../fields.js';

/** Orders: buying and renewing packages, paying, the purchase records (server module `orders`). */
const TAG = '套餐与订单';

const quantityField = z
  .number({ error: 'quantity 须为整数' })
  .int('quantity 须为整数')
  .min(1, '购买数量至少为 1')
  .max(ORDER_MAX_QUANTITY, `单次最多购买 ${ORDER_MAX_QUANTITY} 个周期`);

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

export const adminOrderSchema = orderSchema.extend({
  companyId: z.string(),
  companyName: z.string(),
  companyAccount: z.string(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

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
