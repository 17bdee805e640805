import { z } from 'zod';
import { defineCall } from '../call.js';
import { pageFields, pageOf } from '../fields.js';

/**
 * The console's error log (server module `client-errors`): errors the production console caught
 * (window errors, unhandled rejections, React error boundaries), reported by the logged-in user and
 * listed on /error-log/log. Tokens and secrets are scrubbed on the server before anything is stored.
 */
const TAG = '错误日志';

export const CLIENT_ERROR_MESSAGE_MAX = 500;
export const CLIENT_ERROR_STACK_MAX = 4000;
export const CLIENT_ERROR_SOURCE_MAX = 500;
/** Rows kept per company: reporting a newer one deletes the oldest beyond this. */
export const CLIENT_ERRORS_KEPT = 500;
/** Reports per minute per IP. */
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 10;

export const CLIENT_ERROR_KINDS = ['error', 'unhandledrejection', 'react'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

export const clientErrorKindSchema = z.enum(CLIENT_ERROR_KINDS, {
  error: 'kind 须为 error、unhandledrejection 或 react',
});

export const report = defineCall({
  id: 'clientError.report',
  method: 'POST',
  path: '/api/clientError/report',
  audience: 'user',
  tag: TAG,
  summary: '上报一条前端错误（控制台自动调用）',
  description: `生产环境的控制台捕获到的错误。message 最多 ${CLIENT_ERROR_MESSAGE_MAX} 字，stack 最多 ${CLIENT_ERROR_STACK_MAX} 字（控制台先截断），source 只保存路径（查询串与锚点在服务端去掉）；浏览器标识取自请求头。令牌、Authorization、appSecret（sk_…）与 64 位十六进制串在保存前抹去。每个 IP 每分钟最多 ${CLIENT_ERROR_REPORTS_PER_MINUTE} 次；每家公司只保留最新 ${CLIENT_ERRORS_KEPT} 条。`,
  request: z.strictObject({
    message: z
      .string({ error: '请提供错误信息' })
      .min(1, '请提供错误信息')
      .max(CLIENT_ERROR_MESSAGE_MAX, `错误信息最多 ${CLIENT_ERROR_MESSAGE_MAX} 字`),
    stack: z
      .string({ error: 'stack 须为字符串' })
      .max(CLIENT_ERROR_STACK_MAX, `stack 最多 ${CLIENT_ERROR_STACK_MAX} 字`)
      .optional()
      .default(''),
    source: z.string({ error: 'source 须为字符串' }).max(2000, 'source 最多 2000 字').optional().default(''),
    kind: clientErrorKindSchema,
  }),
  response: z.null(),
});

export const clientErrorSchema = z.object({
  id: z.string(),
  /** Epoch ms. */
  at: z.number().int(),
  kind: clientErrorKindSchema,
  message: z.string(),
  stack: z.string(),
  /** The page's path, without query string or fragment. */
  source: z.string(),
  userAgent: z.string(),
  companyId: z.string(),
  /** The reporting company's name (an operator's own reports: their account). */
  companyName: z.string(),
});
export type ClientError = z.infer<typeof clientErrorSchema>;

export const list = defineCall({
  id: 'clientError.list',
  method: 'POST',
  path: '/api/clientError/list',
  audience: 'user',
  tag: TAG,
  summary: '前端错误日志（最新在前）',
  description: '运营账号看到所有公司的错误（带公司名称）；客户只看到自己公司的。',
  request: z.strictObject({ ...pageFields }),
  response: pageOf(clientErrorSchema),
});
