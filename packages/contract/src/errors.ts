/**
 * The error-code catalogue: every `code` the service can answer, with its HTTP status and the Chinese
 * message shown to people. Codes are strings (the console compares with the string "200").
 * "403" is reserved for "not logged in / session expired": the console answers it with the re-login
 * dialog, so "logged in but not allowed" has its own code.
 */
export const ErrorCatalogue = {
  OK: { code: '200', status: 200, message: '成功' },
  BAD_REQUEST: { code: '400', status: 400, message: '请求参数错误' },
  UNAUTHENTICATED: { code: '403', status: 401, message: '登录已过期，请重新登录' },
  NOT_FOUND: { code: '404', status: 404, message: '请求的资源不存在' },
  CONFLICT: { code: '409', status: 409, message: '操作冲突，请刷新后重试' },
  TOO_MANY_REQUESTS: { code: '429', status: 429, message: '请求过于频繁，请稍后再试' },
  INTERNAL: { code: '500', status: 500, message: '服务器开小差了，请稍后再试' },
  /** Overloaded: shed at once (with Retry-After) rather than answered after a long wait. */
  SERVICE_BUSY: { code: '503', status: 503, message: '服务繁忙，请稍后再试' },

  FORBIDDEN: { code: '40300', status: 403, message: '没有权限执行此操作' },
  REGISTRATION_CLOSED: { code: '40301', status: 403, message: '暂未开放注册，请联系客服' },
  ACCOUNT_DISABLED: { code: '40302', status: 403, message: '账号已被停用，请联系客服' },
  REAL_NAME_REQUIRED: { code: '40303', status: 403, message: '请先完成实名认证' },
  SERVICE_EXPIRED: { code: '40304', status: 403, message: '服务已到期，请联系客服续期' },

  CAPTCHA_INVALID: { code: '40010', status: 400, message: '图形验证码错误或已失效，请重新输入' },
  SMS_CODE_INVALID: { code: '40011', status: 400, message: '短信验证码错误' },
  SMS_CODE_EXPIRED: { code: '40012', status: 400, message: '短信验证码已失效，请重新获取' },
  LOGIN_FAILED: { code: '40013', status: 400, message: '账号或密码错误' },
  OLD_PASSWORD_WRONG: { code: '40014', status: 400, message: '原密码错误' },
  PHONE_NOT_REGISTERED: { code: '40015', status: 400, message: '该手机号尚未注册' },
  QUOTA_EXHAUSTED: { code: '40020', status: 400, message: '可用账号额度不足，请购买或分配套餐' },
  PACKAGE_EXPIRED: { code: '40021', status: 400, message: '套餐已过期，请续费后再试' },
  NO_ACTIVE_PACKAGE: { code: '40022', status: 400, message: '暂无有效套餐，请先购买套餐' },
  ACCOUNT_OFFLINE: { code: '40023', status: 400, message: '该微信账号已下线，请重新登录' },
  NO_SUB_ACCOUNT: { code: '40024', status: 400, message: '请先在「子账号」中新建子账号并分配额度' },
  TIER_NOT_SUPPORTED: { code: '40025', status: 400, message: '所选套餐不支持贵公司的接入方式' },

  ACCOUNT_EXISTS: { code: '40901', status: 409, message: '该手机号已注册，请直接登录' },

  SMS_TOO_FREQUENT: { code: '42901', status: 429, message: '验证码发送过于频繁，请稍后再试' },
  SMS_DAILY_LIMIT: { code: '42902', status: 429, message: '今日验证码发送次数已达上限' },
  LOGIN_LOCKED: { code: '42903', status: 429, message: '登录失败次数过多，请稍后再试' },
} as const;

export type ErrorName = keyof typeof ErrorCatalogue;
export type ErrorCode = (typeof ErrorCatalogue)[ErrorName]['code'];

/** The success code of every envelope. */
export const OK_CODE = ErrorCatalogue.OK.code;

/**
 * Template codes the console still honours (spec §8): "you have been logged out" (illegal token,
 * signed in elsewhere, token expired). The service itself does not send them today.
 */
export const LOGGED_OUT_CODES = ['50008', '50012', '50014'] as const;
