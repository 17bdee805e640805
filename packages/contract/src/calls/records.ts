import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { epochMsField, idField, pageFields, pageOf, textField } from '../fields.js';
import { wxAccountSchema, wxidField } from './msg.js';

const TAG_RECORDS = '账号记录';
const TAG_STATS = '统计';

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

// ---- statistics (all from the records; "today" is China Standard Time). A login session is a
// successful login's [logged_in_at, ended_at) interval, still-open ones counting up to now; a session
// that ends at the instant another begins is not simultaneous with it. See docs/ARCHITECTURE.md.
const figure = (id: string, summary: string, description: string) =>
  defineCall({
    id: `statistic.${id}`,
    method: 'POST',
    path: `/api/statistic/${id}`,
    audience: 'customer',
    supportRead: true,
    tag: TAG_STATS,
    summary,
    description,
    request: emptyRequest,
    response: z.object({ value: z.number().int() }),
  });

export const getOnlineCountNow = figure(
  'getOnlineCountNow',
  '当前在线数',
  '本公司此刻状态为在线的微信账号数。',
);
export const getMaxOnlineCountNow = figure(
  'getMaxOnlineCountNow',
  '今日最高在线',
  '今天（北京时间 0 点至此刻）同时在线的登录会话数的最大值，由登录记录（登录时间至下线时间，未下线的算到此刻）计算；昨天登录、跨过 0 点仍在线的会话也计入。一个会话下线与另一个登录恰在同一时刻不算同时在线。',
);
export const getAddedToday = figure(
  'getAddedToday',
  '今日新增',
  '首次登录本公司的时间在今天（北京时间）的微信账号数。',
);
export const onlineDays = figure(
  'onlineDays',
  '在线天数',
  '自首次登录起，本公司有任一账号在线（任一登录会话覆盖）的北京时间自然日数；跨 0 点的会话两天都算，无人在线的日子不算。',
);
export const getOnlineYesterday = figure(
  'getOnlineYesterday',
  '昨日在线',
  '昨天（北京时间）任一时刻在线过的不同账号数（有登录会话与昨天重叠）。',
);
export const getMaxOnlineCountYesterday = figure(
  'getMaxOnlineCountYesterday',
  '昨日最高在线',
  '昨天（北京时间 0 点至 24 点）同时在线的登录会话数的最大值，计算方式同今日最高在线。',
);
export const getAddedYesterday = figure(
  'getAddedYesterday',
  '昨日新增',
  '首次登录本公司的时间在昨天（北京时间）的微信账号数。',
);
export const getMaxOnline = figure(
  'getMaxOnline',
  '历史最高在线',
  '有记录以来同时在线的登录会话数的最大值。',
);
export const getTotalCount = figure('getTotalCount', '累计账号', '登录过本公司的微信账号总数（含已下线）。');

export const statisticsMonth = defineCall({
  id: 'home.statisticsMonth',
  method: 'POST',
  path: '/api/home/statisticsMonth',
  audience: 'customer',
  supportRead: true,
  tag: TAG_STATS,
  summary: '月度每日统计',
  description:
    '指定月份（北京时间）每天一行：maxOnline 当天同时在线的登录会话数最大值，added 当天首次登录的账号数，logins 当天成功登录次数。今天之后的日期为 0。',
  request: z.strictObject({
    month: z
      .string({ error: '请提供月份' })
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式为 YYYY-MM')
      .meta({ example: '2026-11' }),
  }),
  response: z.object({
    month: z.string(),
    days: z.array(
      z.object({
        date: z.string(),
        maxOnline: z.number().int(),
        added: z.number().int(),
        logins: z.number().int(),
      }),
    ),
  }),
});

export const accountDetails = defineCall({
  id: 'home.accountDetails',
  method: 'POST',
  path: '/api/home/accountDetails',
  audience: 'customer',
  supportRead: true,
  tag: TAG_STATS,
  summary: '账号明细',
  description:
    '与 queryHistoryWx 相同的账号列表（最近登录在前），附每个账号今天（北京时间）的消息数：sentToday 发出的（排队中或已发送，不含失败），receivedToday 收到的。',
  request: z.strictObject({ ...pageFields, status: z.enum(['online', 'offline']).optional() }),
  response: pageOf(wxAccountSchema.extend({ sentToday: z.number().int(), receivedToday: z.number().int() })),
});
