import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { reportDaysField } from '../fields.js';

/** The console's own visitor counts (server module `visitors`): recorded on every route change. */
export const trackVisit = defineCall({
  id: 'system.visit',
  method: 'POST',
  path: '/api/normal/visit',
  audience: 'public',
  tag: '系统',
  summary: '记录一次页面浏览（控制台切换页面时调用）',
  description: '只记录日期和加盐摘要，用于运营的访客统计。',
  request: emptyRequest,
  response: z.null(),
});

export const visitors = defineCall({
  id: 'home.visitors',
  method: 'POST',
  path: '/api/home/visitors',
  audience: 'operator',
  tag: '运营',
  summary: '访客统计（运营）',
  description:
    '控制台每天（北京时间）的浏览量 pv 与独立访客 uv，由本服务自己记录（不使用第三方统计）：只保存日期和加盐摘要（IP + 浏览器标识 + 日期），不保存地址或路径。',
  request: z.strictObject({ days: reportDaysField }),
  response: z.object({
    days: z.array(z.object({ date: z.string(), pv: z.number().int(), uv: z.number().int() })),
    totalPv: z.number().int(),
  }),
});
