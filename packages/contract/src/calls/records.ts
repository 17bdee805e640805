import { z } from 'zod';
import { defineCall } from '../call.js';
import { epochMsField, idField, pageFields, pageOf, textField } from '../fields.js';
import { wxAccountSchema, wxidField } from './messaging.js';

const TAG_RECORDS = '账号记录';

// ---- records (console)
export const queryHistoryWx = defineCall({
  id: 'accountManager.queryHistoryWx',
  method: 'POST',
  path: '/api/accountManager/queryHistoryWx',
  audience: 'customer',
  supportRead: true,
  tag: TAG_RECORDS,
  summary: '登录过的微信账号',
  description:
    '本公司登录过的全部账号（含已下线），最近登录在前；可按状态、子账号、关键字（wxid、昵称、备注，不区分大小写）筛选。',
  request: z.strictObject({
    ...pageFields,
    status: z.enum(['online', 'offline']).optional(),
    subAccountId: idField('子账号编号').optional(),
    keyword: z.string().trim().max(50).optional(),
  }),
  response: pageOf(wxAccountSchema),
});

export const loginRecordSchema = z.object({
  id: z.string(),
  wxid: z.string().nullable(),
  nickname: z.string().nullable(),
  subAccountId: z.string(),
  deviceId: z.string(),
  proxy: z.string(),
  /** success: logged in; cancelled / expired: the QR ended without a login; refused: quota or package. */
  result: z.enum(['pending', 'success', 'cancelled', 'expired', 'refused']),
  startedAt: epochMsField,
  loggedInAt: epochMsField.nullable(),
  endedAt: epochMsField.nullable(),
  logoutReason: z.string().nullable(),
});

export const queryWxLoginRecord = defineCall({
  id: 'accountManager.queryWxLoginRecord',
  method: 'POST',
  path: '/api/accountManager/queryWxLoginRecord',
  audience: 'customer',
  supportRead: true,
  tag: TAG_RECORDS,
  summary: '登录记录',
  description: '每次扫码登录一条（含未成功的），最新在前：设备、地区、结果、登录与下线时间、下线原因。',
  request: z.strictObject({ ...pageFields, wxid: wxidField.optional() }),
  response: pageOf(loginRecordSchema),
});

export const deviceSchema = z.object({
  deviceId: z.string(),
  name: z.string(),
  subAccountId: z.string(),
  wxid: z.string().nullable(),
  nickname: z.string().nullable(),
  proxy: z.string(),
  loginCount: z.number().int(),
  createdAt: epochMsField,
  lastLoginAt: epochMsField.nullable(),
});

export const queryDeviceRecord = defineCall({
  id: 'accountManager.queryDeviceRecord',
  method: 'POST',
  path: '/api/accountManager/queryDeviceRecord',
  audience: 'customer',
  supportRead: true,
  tag: TAG_RECORDS,
  summary: '设备记录',
  description:
    '账号登录用过的云端设备，最近使用在前；传 wxid 时为该账号用过的设备。用同一设备重新登录可降低风控（getQrCode 传 deviceId）。',
  request: z.strictObject({ ...pageFields, wxid: wxidField.optional() }),
  response: pageOf(deviceSchema),
});

export const updateRemarks = defineCall({
  id: 'home.updateRemarks',
  method: 'POST',
  path: '/api/home/updateRemarks',
  audience: 'customer',
  tag: TAG_RECORDS,
  summary: '修改微信账号备注',
  request: z.strictObject({ wxid: wxidField, remark: textField('备注', { min: 0, max: 50 }) }),
  response: wxAccountSchema,
});

export const updateExpireTime = defineCall({
  id: 'home.updateExpireTime',
  method: 'POST',
  path: '/api/home/updateExpireTime',
  audience: 'customer',
  tag: TAG_RECORDS,
  summary: '设置微信账号到期时间',
  description: '到期后该账号自动下线且不能再登录；传 null 取消到期时间。用于按账号计时的转售场景。',
  request: z.strictObject({ wxid: wxidField, expireAt: epochMsField.nullable() }),
  response: wxAccountSchema,
});
