import { z } from 'zod';
import {
  CAPTCHA_LENGTH,
  MOBILE_PATTERN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PASSWORD_RULE_TEXT,
  SMS_CODE_LENGTH,
} from './constants.js';

/** Field schemas shared by several calls and by the console's forms; messages are shown as they are. */

export const mobileField = z
  .string({ error: '请输入手机号' })
  .trim()
  .regex(MOBILE_PATTERN, '请输入正确的 11 位手机号');

/** Login name: customers use their mobile number, operators a name of their own. */
export const loginAccountField = z
  .string({ error: '请输入账号' })
  .trim()
  .min(1, '请输入账号')
  .max(64, '账号不能超过 64 个字符');

export const passwordField = z
  .string({ error: '请输入密码' })
  .min(PASSWORD_MIN, PASSWORD_RULE_TEXT)
  .max(PASSWORD_MAX, PASSWORD_RULE_TEXT)
  .regex(/[A-Za-z]/, PASSWORD_RULE_TEXT)
  .regex(/\d/, PASSWORD_RULE_TEXT);

/** A password typed at login: no rule beyond a sane size, so older passwords still work. */
export const loginPasswordField = z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码过长');

export const captchaIdField = z
  .string({ error: '缺少图形验证码编号，请刷新验证码' })
  .min(1, '缺少图形验证码编号，请刷新验证码')
  .max(64, '图形验证码编号无效');
export const captchaCodeField = z
  .string({ error: '请输入图形验证码' })
  .trim()
  .min(1, '请输入图形验证码')
  .max(CAPTCHA_LENGTH * 2, '图形验证码错误');

export const smsCodeField = z
  .string({ error: '请输入短信验证码' })
  .trim()
  .regex(new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`), `短信验证码为 ${SMS_CODE_LENGTH} 位数字`);

export const companyNameField = z
  .string({ error: '请输入公司名称' })
  .trim()
  .min(2, '公司名称至少 2 个字符')
  .max(50, '公司名称不能超过 50 个字符');

export const userNameField = z
  .string({ error: '请输入用户名' })
  .trim()
  .min(1, '请输入用户名')
  .max(30, '用户名不能超过 30 个字符');

/** The captcha pair that guards login and every SMS send. */
export const captchaPair = { captchaId: captchaIdField, captchaCode: captchaCodeField };

/** Paging shared by every list call. */
export const pageFields = {
  page: z
    .number({ error: 'page 须为正整数' })
    .int('page 须为正整数')
    .min(1, 'page 须为正整数')
    .max(100_000)
    .optional()
    .default(1),
  pageSize: z
    .number({ error: 'pageSize 须为 1-100 的整数' })
    .int('pageSize 须为 1-100 的整数')
    .min(1, 'pageSize 须为 1-100 的整数')
    .max(100, 'pageSize 须为 1-100 的整数')
    .optional()
    .default(10),
};
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export const idField = (label: string) =>
  z
    .string({ error: `请提供${label}` })
    .trim()
    .min(1, `请提供${label}`)
    .max(64, `${label}无效`);

/** Idempotency key the console generates per purchase dialog, so a double click makes one order. */
export const idempotencyKeyField = z
  .string({ error: '缺少 idempotencyKey' })
  .min(8, 'idempotencyKey 至少 8 个字符')
  .max(64, 'idempotencyKey 不能超过 64 个字符')
  .regex(/^[\w-]+$/, 'idempotencyKey 只能包含字母、数字、- 和 _');

/** An http(s) URL; whether its host may be called is checked by the server (SSRF rules). */
export const httpUrlField = z
  .string({ error: '请输入回调地址' })
  .trim()
  .max(500, '地址不能超过 500 个字符')
  .url('请输入以 http:// 或 https:// 开头的完整地址')
  .refine((v) => /^https?:\/\//i.test(v), '地址只能以 http:// 或 https:// 开头');

/** Unix epoch milliseconds (console APIs use ms; 10-digit values are seconds in the console's formatter). */
export const epochMsField = z.number().int().min(0).max(8_640_000_000_000_000);
