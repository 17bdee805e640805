import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { textField } from '../fields.js';

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
    /** Whether callback URLs may point at loopback or private addresses (on-premise setups). */
    callbackPrivateAllowed: z.boolean(),
    /** Whether the template showcase (spec "Template demo routes") is on: its menu and /vue-element-admin/*. */
    showcase: z.boolean(),
    /**
     * Whether the messaging network is the built-in simulator (its phone page answers QR codes);
     * false with a real network (MESSAGING_PROVIDER=wechaty), where a real phone scans.
     */
    simulatedNetwork: z.boolean(),
  }),
});

const supportContact = z.object({ supportQrUrl: z.string().nullable(), supportText: z.string() });

/** The customer-support contact the top bar shows: set by operators, else the configured default. */
export const adminSaveSupport = defineCall({
  id: 'admin.support.save',
  method: 'POST',
  path: '/api/admin/support/save',
  audience: 'operator',
  tag: '运营',
  summary: '设置客服联系方式（文字；可移除二维码）',
  description:
    'supportText 传 null 恢复默认文字；removeQr 为 true 时移除已上传的客服二维码（恢复为配置的默认图片）。',
  request: z.strictObject({
    supportText: textField('客服说明', { max: 100 }).nullable(),
    removeQr: z.boolean({ error: 'removeQr 须为布尔值' }).optional().default(false),
  }),
  response: supportContact,
});

export const adminUploadSupportQr = defineCall({
  id: 'admin.support.uploadQr',
  method: 'POST',
  path: '/api/admin/support/uploadQr',
  audience: 'operator',
  tag: '运营',
  summary: '上传客服二维码图片（multipart，字段 img；png/jpeg，最大 2 MB）',
  request: z.strictObject({}).optional().default({}),
  response: supportContact,
});
