import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';

/** Public facts the console needs before anyone logs in. */
export const siteInfo = defineCall({
  id: 'system.siteInfo',
  method: 'GET',
  path: '/api/normal/siteInfo',
  audience: 'public',
  tag: '系统',
  summary: '站点信息（产品名称、版本标记、客服二维码）',
  request: emptyRequest,
  response: z.object({
    productTitle: z.string(),
    serverFlag: z.string(),
    supportQrUrl: z.string().nullable(),
    supportText: z.string(),
  }),
});
