import { z } from 'zod';
import { defineCall, emptyRequest, emptyResponse } from '../call.js';
import { accountTypeSchema, userInfoSchema } from '../domain.js';
import {
  captchaPair,
  companyNameField,
  loginAccountField,
  loginPasswordField,
  mobileField,
  passwordField,
  smsCodeField,
  userNameField,
} from '../fields.js';

const TAG = '账号与登录';

export const getVerifyCode = defineCall({
  id: 'auth.getVerifyCode',
  method: 'GET',
  path: '/api/normal/tools/getVerifyCode',
  audience: 'public',
  tag: TAG,
  summary: '获取图形验证码',
  description:
    '返回一张 SVG 图形验证码（data URI）及其编号 captchaId。验证码 5 分钟内有效，只能使用一次；登录和每次发送短信都需要它。',
  // `t` is a cache-buster some clients append; it is ignored.
  request: z.strictObject({ t: z.string().max(32).optional() }),
  response: z.object({ captchaId: z.string(), image: z.string() }),
});

export const checkVerifyCode = defineCall({
  id: 'auth.checkVerifyCode',
  method: 'POST',
  path: '/api/normal/tools/checkVerifyCode',
  audience: 'public',
  tag: TAG,
  summary: '校验图形验证码（不消耗）',
  description: '只校验不消耗；连续答错 5 次后该验证码作废。',
  request: z.strictObject({ ...captchaPair }),
  response: z.object({ valid: z.literal(true) }),
});

export const smsScene = z.enum(['register', 'resetPassword', 'changePhone'], {
  error: '短信场景只能是 register、resetPassword 或 changePhone',
});
export type SmsScene = z.infer<typeof smsScene>;

const smsSent = z.object({
  /** Seconds before another code may be sent to this number. */
  resendAfter: z.number().int(),
  /** Seconds the code stays valid. */
  expiresIn: z.number().int(),
});

export const sendRegisterSms = defineCall({
  id: 'auth.sendRegisterSms',
  method: 'POST',
  path: '/api/normal/registe/sendSms',
  audience: 'public',
  tag: TAG,
  summary: '发送注册短信验证码',
  description: '需要图形验证码。同一手机号 60 秒内只能发送一次，每日有上限；已注册的手机号会被拒绝。',
  request: z.strictObject({ phone: mobileField, ...captchaPair }),
  response: smsSent,
});

export const sendSms = defineCall({
  id: 'auth.sendSms',
  method: 'POST',
  path: '/api/tools/sendSms',
  audience: 'public',
  tag: TAG,
  summary: '发送短信验证码',
  description:
    'scene=register 注册；scene=resetPassword 找回密码（手机号须已注册）；scene=changePhone 更换手机号（须登录，发送到新手机号）。需要图形验证码。',
  request: z.strictObject({ phone: mobileField, scene: smsScene, ...captchaPair }),
  response: smsSent,
});

export const register = defineCall({
  id: 'auth.register',
  method: 'POST',
  path: '/api/normal/registe',
  audience: 'public',
  tag: TAG,
  summary: '注册公司账号',
  description:
    'companyAccount 为手机号，也是登录名；verifyCode 为发送到该手机号的短信验证码。注册成功即登录，返回令牌与用户信息。',
  request: z
    .strictObject({
      extAccountType: accountTypeSchema.optional().default(1),
      companyName: companyNameField,
      companyAccount: mobileField,
      password: passwordField,
      checkPassword: z.string({ error: '请再次输入密码' }).max(128, '密码过长'),
      verifyCode: smsCodeField,
      readMsg: z.literal(true, { error: '请阅读并同意服务协议' }),
    })
    .refine((v) => v.password === v.checkPassword, {
      path: ['checkPassword'],
      message: '两次输入的密码不一致',
    }),
  response: z.object({ token: z.string(), userInfo: userInfoSchema }),
});

export const login = defineCall({
  id: 'auth.login',
  method: 'POST',
  path: '/api/normal/login',
  audience: 'public',
  tag: TAG,
  summary: '登录',
  description:
    '账号为注册手机号（运营人员为其账号名）。连续输错密码会暂时锁定该账号和来源 IP。返回的 token 放在之后请求的 Authorization 头中。',
  request: z.strictObject({
    companyAccount: loginAccountField,
    password: loginPasswordField,
    ...captchaPair,
  }),
  response: z.object({ token: z.string(), userInfo: userInfoSchema }),
});

export const refreshLoginInfo = defineCall({
  id: 'auth.refreshLoginInfo',
  method: 'POST',
  path: '/api/refreshLoginInfo',
  audience: 'user',
  tag: TAG,
  summary: '获取当前登录用户信息',
  request: emptyRequest,
  response: userInfoSchema,
});

export const logout = defineCall({
  id: 'auth.logout',
  method: 'POST',
  path: '/api/logout',
  audience: 'user',
  tag: TAG,
  summary: '退出登录（服务端作废当前令牌）',
  request: emptyRequest,
  response: emptyResponse,
});

const resetBySms = z
  .strictObject({
    companyAccount: mobileField,
    verifyCode: smsCodeField,
    password: passwordField,
    checkPassword: z.string({ error: '请再次输入密码' }).max(128, '密码过长'),
  })
  .refine((v) => v.password === v.checkPassword, {
    path: ['checkPassword'],
    message: '两次输入的密码不一致',
  });
const resetByOldPassword = z
  .strictObject({
    oldPassword: loginPasswordField,
    password: passwordField,
    checkPassword: z.string({ error: '请再次输入密码' }).max(128, '密码过长'),
  })
  .refine((v) => v.password === v.checkPassword, {
    path: ['checkPassword'],
    message: '两次输入的密码不一致',
  })
  .refine((v) => v.password !== v.oldPassword, {
    path: ['password'],
    message: '新密码不能与原密码相同',
  });

export const resetPassword = defineCall({
  id: 'auth.resetPassword',
  method: 'POST',
  path: '/api/resetPassword',
  audience: 'public',
  tag: TAG,
  summary: '重置或修改密码',
  description:
    '未登录时用短信验证码找回：{companyAccount, verifyCode, password, checkPassword}（先以 scene=resetPassword 发送短信）。已登录时用原密码修改：{oldPassword, password, checkPassword}。成功后该账号的其他登录全部失效。',
  request: z.union([resetBySms, resetByOldPassword]),
  response: emptyResponse,
});

export const updateCompanyInfo = defineCall({
  id: 'auth.updateCompanyInfo',
  method: 'POST',
  path: '/api/updateCompanyInfo',
  audience: 'customer',
  tag: TAG,
  summary: '修改公司信息',
  request: z.strictObject({ companyName: companyNameField }),
  response: userInfoSchema,
});

export const modUserName = defineCall({
  id: 'auth.modUserName',
  method: 'POST',
  path: '/api/modUserName',
  audience: 'user',
  tag: TAG,
  summary: '修改用户名',
  request: z.strictObject({ userName: userNameField }),
  response: userInfoSchema,
});

export const changePhone = defineCall({
  id: 'auth.changePhone',
  method: 'POST',
  path: '/api/changePhone',
  audience: 'customer',
  tag: TAG,
  summary: '更换手机号（登录名）',
  description:
    '先以 scene=changePhone 向新手机号发送短信验证码。成功后新手机号即为登录账号，其他登录全部失效。',
  request: z.strictObject({ phone: mobileField, verifyCode: smsCodeField }),
  response: userInfoSchema,
});

export const isAutoRegiste = defineCall({
  id: 'auth.isAutoRegiste',
  method: 'POST',
  path: '/api/normal/isAutoRegiste',
  audience: 'public',
  tag: TAG,
  summary: '是否开放自助注册',
  request: emptyRequest,
  response: z.object({ open: z.boolean() }),
});

export const openAutoRegiste = defineCall({
  id: 'auth.openAutoRegiste',
  method: 'POST',
  path: '/api/normal/openAutoRegiste',
  audience: 'operator',
  tag: '运营',
  summary: '开关自助注册（运营）',
  request: z.strictObject({ open: z.boolean({ error: 'open 须为 true 或 false' }) }),
  response: z.object({ open: z.boolean() }),
});
