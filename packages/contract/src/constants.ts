/** Business constants of the spec (§9) and of the service; each is defined here once. */

export const PRODUCT_TITLE_DEFAULT = '微信 API 客户控制台';

// Time
export const DAY_MS = 86_400_000;

// Client request rules (spec §7, §8)
export const REQUEST_TIMEOUT_MS = 50_000;
export const ERROR_TOAST_MS = 5_000;

// Cookies (spec §3, §9)
export const TOKEN_COOKIE = 'Admin-Token';
export const SIDEBAR_STATUS_COOKIE = 'sidebarStatus';
export const SIZE_COOKIE = 'size';

// Layout (spec §9)
export const MOBILE_BREAKPOINT_PX = 992;
export const SIDEBAR_WIDTH_PX = 210;
export const DEFAULT_THEME_COLOR = '#1890ff';
export const TAGS_SCROLL_PADDING_PX = 4;
export const TAGS_CONTEXT_MENU_WIDTH_PX = 105;
export const SETTINGS_BUTTON_TOP_PX = 250;

// Uploads (spec §5)
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

// Captcha and SMS
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_TTL_MS = 5 * 60_000;
/** Wrong answers to checkVerifyCode before the captcha is burned (stops guessing through the check). */
export const CAPTCHA_MAX_CHECKS = 5;
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_MS = 5 * 60_000;
export const SMS_RESEND_SECONDS = 60;
export const SMS_DAILY_LIMIT_PER_PHONE = 10;
export const SMS_HOURLY_LIMIT_PER_IP = 20;
/** Wrong entries of one SMS code before it is burned. */
export const SMS_CODE_MAX_ATTEMPTS = 5;

// Login lockout
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_MAX_FAILURES_PER_IP = 20;

// Passwords
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 32;
export const PASSWORD_RULE_TEXT = `密码需为 ${PASSWORD_MIN}-${PASSWORD_MAX} 位，且同时包含字母和数字`;

/** Mainland China mobile number: the company account. */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;

// Orders and quotas
/** A pending order can be paid for this long, then it expires unpaid. */
export const ORDER_PAY_WINDOW_MS = 30 * 60_000;
export const ORDER_MAX_QUANTITY = 36;
export const SUB_ACCOUNT_MAX_PER_COMPANY = 50;
export const SLOTS_MAX = 10_000;
/** Subscriptions ending within this many days are flagged "expiring soon". */
export const EXPIRING_SOON_DAYS = 7;
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 100;

// Messaging gateway
/** Day boundaries of statistics ("today", per-day series) are China Standard Time (UTC+8). */
export const BUSINESS_UTC_OFFSET_MINUTES = 480;
export const QR_TTL_SECONDS_DEFAULT = 120;
export const QR_LONG_POLL_MAX_SECONDS = 30;
/** Text messages longer than this many UTF-8 bytes are refused (bots split at about this size). */
export const TEXT_MAX_BYTES = 2048;
export const CONTACT_BATCH_MAX = 20;
export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
/** Callback signature headers. signature = hex(HMAC-SHA256(key = hex(SHA-256(appSecret)), `${timestamp}.${body}`)). */
export const CALLBACK_SIGNATURE_HEADER = 'x-wx-signature';
export const CALLBACK_TIMESTAMP_HEADER = 'x-wx-timestamp';
export const CALLBACK_EVENT_HEADER = 'x-wx-event-id';
/** An operator's read-only support view names the company it looks at with this header. */
export const SUPPORT_VIEW_HEADER = 'x-view-company';
/** API credential headers for programs (see the API reference). */
export const API_KEY_HEADER = 'x-app-key';
export const API_SECRET_HEADER = 'x-app-secret';
export const API_TIMESTAMP_HEADER = 'x-timestamp';
export const API_NONCE_HEADER = 'x-nonce';
export const API_SIGNATURE_HEADER = 'x-signature';
/** A signed request's timestamp may differ from the server's clock by at most this much. */
export const API_SIGNATURE_WINDOW_SECONDS = 300;
