import { z } from 'zod';
import {
  CAPTCHA_LENGTH,
  MOBILE_PATTERN,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
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

// ---- free text: names, remarks, notes

/**
 * What a name, remark or note may not contain (one rule for every such field, see textField):
 * - control characters (\p{Cc}: NUL, tab, line breaks unless the field is multi-line, escape, DEL,
 *   the C1 range) — NUL alone is refused by PostgreSQL text, so it would even fail the write;
 * - format characters (\p{Cf}): bidi embeddings, overrides and isolates (U+202A–U+202E,
 *   U+2066–U+2069), direction marks (U+200E/F, U+061C), zero-width space and non-joiner, word
 *   joiner, BOM, soft hyphen, tag characters (U+E0000 block) and the like. They are invisible, yet
 *   change how text reads (an override turns "report‮fdp.exe" into "reportexe.pdf" and can reverse
 *   the rest of an operator's list row) or make two names look alike while differing;
 * - the line and paragraph separators U+2028/U+2029 (line breaks by another name).
 * One exception, decided here: ZERO WIDTH JOINER (U+200D) between two emoji, which is how emoji
 * sequences (👨‍👩‍👧, 🏳️‍🌈, 👩🏽‍💻) are written; anywhere else it is refused. Emoji flags built from tag
 * characters (the Scotland flag) are refused with the tags: rare, and tags can hide text.
 */
const FORBIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
/** An emoji (with its variation selector or skin tone) followed by ZWJ and another emoji. */
const EMOJI_JOINER =
  /(\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;
/** Half of a UTF-16 surrogate pair on its own (with the u flag a whole pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

export interface TextFieldOptions {
  /** Most characters (UTF-16 code units, as the browser's maxlength counts). */
  max: number;
  /** Fewest characters after trimming; default 1 (required). 0 allows an empty value. */
  min?: number;
  /** Notes typed in a text area: line breaks are kept (CRLF and CR become LF). */
  multiline?: boolean;
}

/**
 * The one rule for free text a person names or notes something with: trims; refuses empty when
 * required; refuses control and format characters and lone surrogates (see FORBIDDEN_CHARACTER);
 * keeps a maximum length. Every message names the field (`label`), in Chinese as the console shows
 * it. Returns a plain zod string, so `.optional()`, `.default()`, `.regex()` and `.meta()` still chain.
 */
export function textField(label: string, options: TextFieldOptions) {
  const { max, min = 1, multiline = false } = options;
  let field = min > 0 ? z.string({ error: `请输入${label}` }) : z.string();
  field = field.trim();
  if (multiline) field = field.overwrite((v) => v.replace(/\r\n?/g, '\n'));
  if (min > 0) field = field.min(min, min === 1 ? `请输入${label}` : `${label}至少 ${min} 个字符`);
  return field
    .max(max, `${label}不能超过 ${max} 个字符`)
    .refine((v) => !LONE_SURROGATE.test(v), `${label}包含无效的字符编码`)
    .refine((v) => {
      const text = multiline ? v.replaceAll('\n', '') : v;
      return !FORBIDDEN_CHARACTER.test(text.replace(EMOJI_JOINER, '$1'));
    }, `${label}不能包含控制字符或不可见的格式字符`);
}

export const companyNameField = textField('公司名称', { min: 2, max: 50 });

export const userNameField = textField('用户名', { max: 30 });

/** The captcha pair that guards login and every SMS send. */
export const captchaPair = { captchaId: captchaIdField, captchaCode: captchaCodeField };

const PAGE_SIZE_RULE = `pageSize 须为 1-${PAGE_SIZE_MAX} 的整数`;

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
    .number({ error: PAGE_SIZE_RULE })
    .int(PAGE_SIZE_RULE)
    .min(1, PAGE_SIZE_RULE)
    .max(PAGE_SIZE_MAX, PAGE_SIZE_RULE)
    .optional()
    .default(PAGE_SIZE_DEFAULT),
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

/** The sub-account a gateway call acts for (console callers name it; API credentials imply it). */
export const subAccountIdField = idField('子账号编号').meta({
  description: '控制台调用时指定子账号；使用 API 凭证调用时可省略（即凭证所属子账号）',
});

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

/** How many days a report covers (operator area). */
export const reportDaysField = z
  .number({ error: 'days 须为 7-90 的整数' })
  .int('days 须为 7-90 的整数')
  .min(7, 'days 须为 7-90 的整数')
  .max(90, 'days 须为 7-90 的整数')
  .optional()
  .default(30);

/** Unix epoch milliseconds (console APIs use ms; 10-digit values are seconds in the console's formatter). */
export const epochMsField = z.number().int().min(0).max(8_640_000_000_000_000);
