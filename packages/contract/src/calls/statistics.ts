import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { pageFields, pageOf } from '../fields.js';
import { wxAccountSchema } from './messaging.js';

/**
 * The dashboard figures (server module `statistics`), all computed from the records; "today" is China
 * Standard Time. A login session is a successful login's [logged_in_at, ended_at) interval, still-open
 * ones counting up to now; a session that ends at the instant another begins is not simultaneous
 * with it. See docs/ARCHITECTURE.md "Statistics".
 */
const TAG = '统计';

/** What every single-number figure shares: a customer read of the caller's own company, no input. */
const FIGURE = {
  method: 'POST',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  request: emptyRequest,
  response: z.object({ value: z.number().int() }),
} as const;

export const getOnlineCountNow = defineCall({
  ...FIGURE,
  id: 'statistic.getOnlineCountNow',
  path: '/api/statistic/getOnlineCountNow',
  summary: '当前在线数',
  description: '本公司此刻状态为在线的微信账号数。',
});

export const getMaxOnlineCountNow = defineCall({
  ...FIGURE,
  id: 'statistic.getMaxOnlineCountNow',
  path: '/api/statistic/getMaxOnlineCountNow',
  summary: '今日最高在线',
  description:
    '今天（北京时间 0 点至此刻）同时在线的登录会话数的最大值，由登录记录（登录时间至下线时间，未下线的算到此刻）计算；昨天登录、跨过 0 点仍在线的会话也计入。一个会话下线与另一个登录恰在同一时刻不算同时在线。',
});

export const getAddedToday = defineCall({
  ...FIGURE,
  id: 'statistic.getAddedToday',
  path: '/api/statistic/getAddedToday',
  summary: '今日新增',
  description: '首次登录本公司的时间在今天（北京时间）的微信账号数。',
});

export const onlineDays = defineCall({
  ...FIGURE,
  id: 'statistic.onlineDays',
  path: '/api/statistic/onlineDays',
  summary: '在线天数',
  description:
    '自首次登录起，本公司有任一账号在线（任一登录会话覆盖）的北京时间自然日数；跨 0 点的会话两天都算，无人在线的日子不算。',
});

export const getOnlineYesterday = defineCall({
  ...FIGURE,
  id: 'statistic.getOnlineYesterday',
  path: '/api/statistic/getOnlineYesterday',
  summary: '昨日在线',
  description: '昨天（北京时间）任一时刻在线过的不同账号数（有登录会话与昨天重叠）。',
});

export const getMaxOnlineCountYesterday = defineCall({
  ...FIGURE,
  id: 'statistic.getMaxOnlineCountYesterday',
  path: '/api/statistic/getMaxOnlineCountYesterday',
  summary: '昨日最高在线',
  description: '昨天（北京时间 0 点至 24 点）同时在线的登录会话数的最大值，计算方式同今日最高在线。',
});

export const getAddedYesterday = defineCall({
  ...FIGURE,
  id: 'statistic.getAddedYesterday',
  path: '/api/statistic/getAddedYesterday',
  summary: '昨日新增',
  description: '首次登录本公司的时间在昨天（北京时间）的微信账号数。',
});

export const getMaxOnline = defineCall({
  ...FIGURE,
  id: 'statistic.getMaxOnline',
  path: '/api/statistic/getMaxOnline',
  summary: '历史最高在线',
  description: '有记录以来同时在线的登录会话数的最大值。',
});

export const getTotalCount = defineCall({
  ...FIGURE,
  id: 'statistic.getTotalCount',
  path: '/api/statistic/getTotalCount',
  summary: '累计账号',
  description: '登录过本公司的微信账号总数（含已下线）。',
});

export const statisticsMonth = defineCall({
  id: 'home.statisticsMonth',
  method: 'POST',
  path: '/api/home/statisticsMonth',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
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
  tag: TAG,
  summary: '账号明细',
  description:
    '与 queryHistoryWx 相同的账号列表（最近登录在前），附每个账号今天（北京时间）的消息数：sentToday 发出的（排队中或已发送，不含失败），receivedToday 收到的。',
  request: z.strictObject({ ...pageFields, status: z.enum(['online', 'offline']).optional() }),
  response: pageOf(wxAccountSchema.extend({ sentToday: z.number().int(), receivedToday: z.number().int() })),
});
