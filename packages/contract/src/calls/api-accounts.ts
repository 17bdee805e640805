import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';
import { SLOTS_MAX } from '../constants.js';
import { epochMsField, httpUrlField, idField, textField } from '../fields.js';

const TAG = '子账号与 API';

export const apiAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  appKey: z.string(),
  /** Slots allocated to this sub-account. */
  availableNum: z.number().int(),
  /** Messaging accounts of this sub-account logged in now. */
  usedNum: z.number().int(),
  callbackUrl: z.string().nullable(),
  status: z.enum(['active', 'recovered']),
  createdAt: epochMsField,
  recoveredAt: epochMsField.nullable(),
});
export type ApiAccount = z.infer<typeof apiAccountSchema>;

/** A sub-account with its secret: returned once, when it is created or reset. */
export const apiCredentialsSchema = z.object({ account: apiAccountSchema, appSecret: z.string() });

const nameField = textField('子账号名称', { max: 30 });
const slotsField = z
  .number({ error: 'availableNum 须为整数' })
  .int('分配数量须为整数')
  .min(0, '分配数量不能为负')
  .max(SLOTS_MAX, `分配数量不能超过 ${SLOTS_MAX}`);

export const queryApiAccount = defineCall({
  id: 'accountManager.queryApiAccount',
  method: 'POST',
  path: '/api/accountManager/queryApiAccount',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '子账号列表及额度',
  description: '默认只列出使用中的子账号；includeRecovered=true 同时列出已回收的。',
  request: z.strictObject({ includeRecovered: z.boolean().optional().default(false) }),
  response: z.object({
    list: z.array(apiAccountSchema),
    totalSlots: z.number().int(),
    allocatedSlots: z.number().int(),
    freeSlots: z.number().int(),
  }),
});

export const openApiAccount = defineCall({
  id: 'accountManager.openApiAccount',
  method: 'POST',
  path: '/api/accountManager/openApiAccount',
  audience: 'customer',
  tag: TAG,
  summary: '新建子账号（API 应用）',
  description: '返回 appKey 与 appSecret。appSecret 只在此时显示一次，服务端仅保存其摘要，请立即妥善保存。',
  request: z.strictObject({
    name: nameField,
    availableNum: slotsField.optional().default(0),
    callbackUrl: httpUrlField.optional(),
  }),
  response: apiCredentialsSchema,
});

export const updateApiAccount = defineCall({
  id: 'accountManager.updateApiAccount',
  method: 'POST',
  path: '/api/accountManager/updateApiAccount',
  audience: 'customer',
  tag: TAG,
  summary: '修改子账号名称或回调地址',
  description: 'callbackUrl 传 null 清除回调地址。回调地址不能指向本机、内网或链路本地地址。',
  request: z.strictObject({
    id: idField('子账号编号'),
    name: nameField.optional(),
    callbackUrl: httpUrlField.nullable().optional(),
  }),
  response: apiAccountSchema,
});

export const resetApiSecret = defineCall({
  id: 'accountManager.resetApiSecret',
  method: 'POST',
  path: '/api/accountManager/resetApiSecret',
  audience: 'customer',
  tag: TAG,
  summary: '重置子账号密钥',
  description: '生成新的 appSecret 并只显示这一次；旧密钥立即失效。',
  request: z.strictObject({ id: idField('子账号编号') }),
  response: apiCredentialsSchema,
});

export const recoveryApiAccount = defineCall({
  id: 'accountManager.recoveryApiAccount',
  method: 'POST',
  path: '/api/accountManager/recoveryApiAccount',
  audience: 'customer',
  tag: TAG,
  summary: '回收子账号',
  description: '回收后其密钥立即失效，已分配的额度退回公司。不可恢复。',
  request: z.strictObject({ id: idField('子账号编号') }),
  response: apiAccountSchema,
});

export const updateAvailableNum = defineCall({
  id: 'accountManager.updateAvailableNum',
  method: 'POST',
  path: '/api/accountManager/updateAvailableNum',
  audience: 'customer',
  tag: TAG,
  summary: '调整子账号分配额度',
  description: '所有子账号的分配之和不能超过公司未过期套餐的账号数；也不能低于该子账号当前在线的账号数。',
  request: z.strictObject({ id: idField('子账号编号'), availableNum: slotsField }),
  response: apiAccountSchema,
});

export const companyApiConfigSchema = z.object({
  defaultCallbackUrl: z.string().nullable(),
  /** IPs or CIDR ranges allowed to call with API credentials; empty means any. */
  ipAllowlist: z.array(z.string()),
});

export const getConfigCompanyInfo = defineCall({
  id: 'accountManager.getConfigCompanyInfo',
  method: 'POST',
  path: '/api/accountManager/getConfigCompanyInfo',
  audience: 'customer',
  supportRead: true,
  tag: TAG,
  summary: '公司级 API 设置',
  request: emptyRequest,
  response: companyApiConfigSchema,
});

const ipOrCidr = z
  .string()
  .trim()
  .regex(
    /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)(\/(3[0-2]|[12]?\d))?$/,
    'IP 白名单只支持 IPv4 地址或 CIDR，如 203.0.113.5 或 203.0.113.0/24',
  );

export const configCompanyInfo = defineCall({
  id: 'accountManager.configCompanyInfo',
  method: 'POST',
  path: '/api/accountManager/configCompanyInfo',
  audience: 'customer',
  tag: TAG,
  summary: '修改公司级 API 设置',
  description:
    'defaultCallbackUrl：子账号未设置回调地址时使用；ipAllowlist：使用 API 凭证调用时允许的来源 IP（为空不限制）。',
  request: z.strictObject({
    defaultCallbackUrl: httpUrlField.nullable(),
    ipAllowlist: z.array(ipOrCidr).max(50, 'IP 白名单最多 50 条'),
  }),
  response: companyApiConfigSchema,
});

export const applyApis = defineCall({
  id: 'home.applyApis',
  method: 'POST',
  path: '/api/home/applyApis',
  audience: 'customer',
  tag: TAG,
  summary: '申请开通 API',
  successMessage: '申请成功',
  description:
    '公司尚无子账号时创建第一个子账号（默认应用）并返回其密钥（只显示一次）；已开通时 created=false。需有未过期套餐。',
  request: emptyRequest,
  response: z.object({ created: z.boolean(), credentials: apiCredentialsSchema.nullable() }),
});
