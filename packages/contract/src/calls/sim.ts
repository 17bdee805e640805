import { z } from 'zod';
import { defineCall } from '../call.js';
import { idField, textField } from '../fields.js';
import { qrStateSchema, wxidField } from './messaging.js';

/**
 * Simulator controls: faults on demand, so customers can test their programs against kicks,
 * expiries, duplicate callbacks and unreachable contacts. Available while the simulator provider
 * is in use.
 */
const TAG = '模拟器';

export const kick = defineCall({
  id: 'sim.kick',
  method: 'POST',
  path: '/api/sim/kick',
  audience: 'customerOrApi',
  tag: TAG,
  summary: '模拟账号被踢下线',
  description: '账号立即下线，产生 logout 事件（reason 即下线原因）。',
  request: z.strictObject({
    wxid: wxidField,
    reason: textField('下线原因', { max: 100 })
      .optional()
      .default('当前登录环境异常，为了你的账号安全，暂时不能登录'),
  }),
  response: z.object({ ok: z.literal(true) }),
});

export const expireQr = defineCall({
  id: 'sim.expireQr',
  method: 'POST',
  path: '/api/sim/expireQr',
  audience: 'customerOrApi',
  tag: TAG,
  summary: '让二维码立即过期',
  request: z.strictObject({ instanceId: idField('instanceId') }),
  response: z.object({ ok: z.literal(true) }),
});

export const setUnreachable = defineCall({
  id: 'sim.setUnreachable',
  method: 'POST',
  path: '/api/sim/setUnreachable',
  audience: 'customerOrApi',
  tag: TAG,
  summary: '让某个联系人不可达',
  description:
    '之后发给该联系人的消息发送失败（message_status 事件 status=failed）。unreachable=false 恢复。',
  request: z.strictObject({ wxid: wxidField, contactWxid: wxidField, unreachable: z.boolean() }),
  response: z.object({ ok: z.literal(true) }),
});

export const injectMessage = defineCall({
  id: 'sim.injectMessage',
  method: 'POST',
  path: '/api/sim/injectMessage',
  audience: 'customerOrApi',
  tag: TAG,
  summary: '让联系人发来一条消息',
  description: '模拟好友（或群成员）给该账号发消息，产生 message 事件。',
  request: z.strictObject({
    wxid: wxidField,
    fromWxid: wxidField,
    roomId: z
      .string()
      .regex(/^[\w.-]+@chatroom$/)
      .optional(),
    content: z.string().min(1).max(2000),
  }),
  response: z.object({ msgId: z.string() }),
});

/** The "phone" side of a QR login: what the confirm page at /sim/scan/<instanceId> does. */
export const scanStatus = defineCall({
  id: 'sim.scanStatus',
  method: 'POST',
  path: '/api/sim/scanStatus',
  audience: 'public',
  tag: TAG,
  summary: '手机端：二维码状态',
  description: '模拟手机扫码页使用：二维码对应的设备、将登录的账号、状态；需要验证时返回手机上显示的验证码。',
  request: z.strictObject({ instanceId: idField('instanceId') }),
  response: z.object({
    state: qrStateSchema,
    expiresIn: z.number().int(),
    deviceName: z.string(),
    person: z.object({ nickname: z.string(), avatar: z.string(), wxid: z.string() }),
    verifyCode: z.string().nullable(),
    reason: z.string().nullable(),
  }),
});

export const scanAction = defineCall({
  id: 'sim.scanAction',
  method: 'POST',
  path: '/api/sim/scan',
  audience: 'public',
  tag: TAG,
  summary: '手机端：扫码、确认、验证或取消',
  description:
    'action：scan 扫码；confirm 确认登录；confirm_verify 确认登录并模拟新设备验证（进入 need_verify）；verify 输入手机上显示的验证码完成验证；cancel 取消。自动化测试可直接调用，无需打开页面。',
  request: z.strictObject({
    instanceId: idField('instanceId'),
    action: z.enum(['scan', 'confirm', 'confirm_verify', 'verify', 'cancel']),
    code: z
      .string()
      .regex(/^\d{4}$/, '验证码为 4 位数字')
      .optional(),
  }),
  response: z.object({
    state: qrStateSchema,
  }),
});
