import { z } from 'zod';
import { defineCall } from '../call.js';

const TAG = '在线测试';

export const apiCatalogueEntry = z.object({
  id: z.string(),
  group: z.string(),
  name: z.string(),
  path: z.string(),
  method: z.string(),
  description: z.string(),
});

export const wechatApiList = defineCall({
  id: 'catalogue.wechatApi',
  method: 'POST',
  path: '/api/wechatApi/listData',
  audience: 'user',
  tag: TAG,
  summary: '可在线测试的接口目录',
  description: '由接口契约生成：分组、名称、地址、说明。可按关键字过滤。',
  request: z.strictObject({ keyword: z.string().trim().max(50).optional() }),
  response: z.object({ list: z.array(apiCatalogueEntry) }),
});

export const apiParamSchema = z.object({
  name: z.string(),
  /** string | integer | number | boolean | array | object */
  type: z.string(),
  required: z.boolean(),
  example: z.unknown(),
  description: z.string(),
  enum: z.array(z.union([z.string(), z.number()])).nullable(),
});
export type ApiParam = z.infer<typeof apiParamSchema>;

export const wechatApiParamList = defineCall({
  id: 'catalogue.wechatApiParam',
  method: 'POST',
  path: '/api/wechatApiParam/listData',
  audience: 'user',
  tag: TAG,
  summary: '接口参数说明',
  description: '某个接口的参数：名称、类型、是否必填、示例、说明（由契约生成）。',
  request: z.strictObject({ path: z.string({ error: '请提供接口地址' }).min(1).max(100) }),
  response: z.object({ path: z.string(), list: z.array(apiParamSchema) }),
});
