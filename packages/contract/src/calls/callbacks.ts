import { z } from 'zod';
import { defineCall } from '../call.js';
import { epochMsField, httpUrlField, idField, pageFields, pageOf, subAccountIdField } from '../fields.js';

/** Callbacks to customers' URLs (server module `callbacks`): the outbox, its log and its tools. */
const TAG = '回调';

/**
 * What a customer's callback URL receives (POST, JSON), at least once: dedupe by eventId.
 * Headers: x-wx-event-id, x-wx-timestamp (unix seconds), x-wx-signature (see resetCallbackUrl).
 */
export const callbackEventTypeSchema = z.enum([
  'message',
  'message_status',
  'login',
  'logout',
  'qr_state',
  'contact_change',
  'test',
]);
export type CallbackEventType = z.infer<typeof callbackEventTypeSchema>;
export const callbackEnvelopeSchema = z.object({
  eventId: z.string(),
  type: callbackEventTypeSchema,
  /** The messaging account (wxid) the event is about; empty for test events. */
  account: z.string(),
  subAccountId: z.string(),
  /** Unix seconds. */
  timestamp: z.number().int(),
  data: z.record(z.string(), z.unknown()),
});
export type CallbackEnvelope = z.infer<typeof callbackEnvelopeSchema>;

export const deliverySchema = z.object({
  eventId: z.string(),
  type: callbackEventTypeSchema,
  account: z.string(),
  subAccountId: z.string(),
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: epochMsField.nullable(),
  createdAt: epochMsField,
  deliveredAt: epochMsField.nullable(),
});

export const listDeliveries = defineCall({
  id: 'callback.list',
  method: 'POST',
  path: '/api/callback/list',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG,
  summary: '回调投递记录',
  description:
    '每个事件一条：状态、尝试次数、最近一次的 HTTP 状态或错误、下次重试时间。失败后按指数退避重试（最多 8 次，约 1 小时）。',
  request: z.strictObject({
    ...pageFields,
    status: z.enum(['pending', 'delivered', 'failed']).optional(),
    wxid: z.string().max(64).optional(),
    subAccountId: idField('子账号编号').optional(),
  }),
  response: pageOf(deliverySchema),
});

export const deliveryAttempts = defineCall({
  id: 'callback.attempts',
  method: 'POST',
  path: '/api/callback/attempts',
  audience: 'customerOrApi',
  supportRead: true,
  tag: TAG,
  summary: '某个事件的每次投递尝试',
  request: z.strictObject({ eventId: idField('eventId') }),
  response: z.object({
    event: deliverySchema,
    payload: z.string(),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        statusCode: z.number().int().nullable(),
        error: z.string().nullable(),
        durationMs: z.number().int(),
        at: epochMsField,
      }),
    ),
  }),
});

export const replayDelivery = defineCall({
  id: 'callback.replay',
  method: 'POST',
  path: '/api/callback/replay',
  audience: 'customerOrApi',
  tag: TAG,
  summary: '重新投递事件',
  description: '以相同 eventId 重新投递（无论之前是否成功），投递到子账号当前的回调地址。',
  request: z.strictObject({ eventId: idField('eventId') }),
  response: deliverySchema,
});

export const sendTestEvent = defineCall({
  id: 'callback.test',
  method: 'POST',
  path: '/api/callback/test',
  audience: 'customerOrApi',
  tag: TAG,
  summary: '发送测试事件',
  description: '向子账号当前回调地址投递一个 test 事件（进入投递队列，结果见投递记录）。',
  request: z.strictObject({ subAccountId: idField('子账号编号').optional() }),
  response: deliverySchema,
});

export const resetCallbackUrl = defineCall({
  id: 'msg.resetCallbackUrl',
  method: 'POST',
  path: '/api/msg/resetCallbackUrl',
  audience: 'customerOrApi',
  tag: '消息网关·消息与媒体',
  summary: '设置回调地址',
  description:
    '先向该地址投递一次 test 事件，须在 5 秒内返回 2xx 才会保存。不能指向本机、内网或链路本地地址。回调带签名头 x-wx-signature = hex(HMAC-SHA256(key = hex(SHA-256(appSecret)), x-wx-timestamp + "." + 请求体))。',
  request: z.strictObject({ subAccountId: subAccountIdField.optional(), callbackUrl: httpUrlField }),
  response: z.object({
    callbackUrl: z.string(),
    test: z.object({ statusCode: z.number().int(), durationMs: z.number().int() }),
  }),
});

export const duplicateCallback = defineCall({
  id: 'sim.duplicateCallback',
  method: 'POST',
  path: '/api/sim/duplicateCallback',
  audience: 'customerOrApi',
  tag: '模拟器',
  summary: '重复投递一次回调',
  description: '以相同 eventId 再投递一次，用于验证你的程序能去重。',
  request: z.strictObject({ eventId: idField('eventId') }),
  response: z.object({ ok: z.literal(true) }),
});
