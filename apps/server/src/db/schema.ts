import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types for Kysely. Portable subset across SQLite and PostgreSQL: text ids, integer money
 * (fen), times as integer milliseconds since the epoch (UTC), booleans as 0/1, JSON as text.
 */

export interface UsersTable {
  id: string;
  /** Login name: the company's mobile number (operators: a name of their own). */
  account: string;
  password_hash: string;
  role: 'customer' | 'admin';
  company_name: string;
  user_name: string;
  account_type: number;
  real_name_status: number;
  status: 'active' | 'disabled';
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number;
  /** Absolute end of the session; the idle limit is checked against last_seen_at. */
  expires_at: number;
  revoked_at: number | null;
}

export interface CaptchasTable {
  id: string;
  code_hash: string;
  checks: Generated<number>;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface SmsCodesTable {
  id: string;
  phone: string;
  scene: string;
  code_hash: string;
  ip: string;
  attempts: Generated<number>;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
}

export interface LoginFailuresTable {
  id: string;
  account: string;
  ip: string;
  created_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface AuditLogTable {
  id: string;
  user_id: string | null;
  action: string;
  /** JSON text; never holds secrets or codes. */
  detail: string;
  ip: string;
  created_at: number;
}

export interface PackagesTable {
  id: string;
  name: string;
  tier: 'basic' | 'business' | 'enterprise';
  slots: number;
  duration_days: number;
  price_fen: number;
  on_sale: number;
  description: string;
  created_at: number;
  updated_at: number;
}

/** A purchased package: `slots` messaging-account slots from starts_at until ends_at. */
export interface SubscriptionsTable {
  id: string;
  company_id: string;
  package_id: string;
  package_name: string;
  tier: 'basic' | 'business' | 'enterprise';
  slots: number;
  starts_at: number;
  ends_at: number;
  created_at: number;
  updated_at: number;
}

/** Orders snapshot the package (name, tier, slots, days, price) so catalogue edits never change them. */
export interface OrdersTable {
  id: string;
  order_no: string;
  company_id: string;
  idempotency_key: string;
  kind: 'buy' | 'renew';
  package_id: string;
  subscription_id: string | null;
  package_name: string;
  tier: 'basic' | 'business' | 'enterprise';
  slots: number;
  duration_days: number;
  quantity: number;
  amount_fen: number;
  state: 'pending' | 'paid' | 'cancelled' | 'expired';
  pay_method: string | null;
  note: Generated<string>;
  created_at: number;
  pay_deadline: number;
  paid_at: number | null;
  closed_at: number | null;
}

/** Sub-accounts (子账号) = API applications with their own credentials and slot allocation. */
export interface ApiAccountsTable {
  id: string;
  company_id: string;
  name: string;
  app_key: string;
  secret_hash: string;
  available_num: number;
  callback_url: string | null;
  status: 'active' | 'recovered';
  created_at: number;
  updated_at: number;
  recovered_at: number | null;
}

export interface CompanyApiSettingsTable {
  company_id: string;
  default_callback_url: string | null;
  /** JSON array of IPv4 addresses / CIDR ranges. */
  ip_allowlist: string;
  updated_at: number;
}

export interface WxDevicesTable {
  id: string;
  company_id: string;
  api_account_id: string;
  name: string;
  proxy: string;
  /** The account that last logged in on this device. */
  wxid: string | null;
  login_count: Generated<number>;
  created_at: number;
  last_login_at: number | null;
}

/** Messaging accounts ever logged in (queryHistoryWx); `status` says whether one is online now. */
export interface WxAccountsTable {
  id: string;
  company_id: string;
  api_account_id: string;
  wxid: string;
  nickname: string;
  avatar: string;
  alias: string;
  device_id: string;
  status: 'online' | 'offline';
  online_since: number | null;
  last_offline_at: number | null;
  logout_reason: string | null;
  remark: Generated<string>;
  expire_at: number | null;
  /** The wx_logins row of the current (or last) login session. */
  current_login_id: string | null;
  /** Send pacing: the account may send its next queued message at this time. */
  next_send_at: Generated<number>;
  first_login_at: number;
  last_login_at: number;
  updated_at: number;
}

/**
 * The accounts online of each company and each sub-account, kept by triggers on wx_accounts
 * (migration 0013): what a login's quota check reads instead of counting accounts. Written only by
 * the database.
 */
export interface WxOnlineCountsTable {
  scope: 'company' | 'sub_account';
  /** The company's users id, or the sub-account's api_accounts id. */
  owner_id: string;
  online: number;
}

export type QrStateValue = 'waiting' | 'scanned' | 'need_verify' | 'confirmed' | 'cancelled' | 'expired';
export type LoginResult = 'pending' | 'success' | 'cancelled' | 'expired' | 'refused';

/** One QR code = one login attempt; when confirmed, also the login session's record. */
export interface WxLoginsTable {
  id: string;
  company_id: string;
  api_account_id: string;
  device_id: string;
  proxy: string;
  state: QrStateValue;
  result: LoginResult;
  verify_code: string | null;
  scanner_nickname: string | null;
  scanner_avatar: string | null;
  wx_account_id: string | null;
  wxid: string | null;
  expires_at: number;
  started_at: number;
  scanned_at: number | null;
  logged_in_at: number | null;
  ended_at: number | null;
  logout_reason: string | null;
}

export interface WxMessagesTable {
  id: string;
  company_id: string;
  wx_account_id: string;
  new_msg_id: string;
  direction: 'in' | 'out';
  peer: string;
  sender: string;
  type: number;
  app_type: number | null;
  content: string;
  /** JSON object of media fields (url, fileName, duration, …). */
  media: string | null;
  /** `sending`: claimed by one process for delivery (shown to clients as queued). */
  status: 'queued' | 'sending' | 'sent' | 'failed';
  error: string | null;
  /** While `sending`: the claim's token (only its holder settles the message) and lease end (ms). */
  claim_token: string | null;
  lease_until: number | null;
  /** When the provider took an outgoing message (ms); null until sent. Pacing counts from here. */
  sent_at: number | null;
  /** Unix seconds (what clients see). */
  create_time: number;
  created_at: number;
  /** Monotonic order within the service: ms * 1000 + a counter. */
  seq: number;
}

/** A contact of a simulated account: one per (wx_account_id, contact_wxid), the key. */
export interface SimContactsTable {
  wx_account_id: string;
  contact_wxid: string;
  kind: 'friend' | 'chatroom' | 'gh';
  nickname: string;
  remark: string;
  alias: string;
  avatar: string;
  sex: number;
  signature: string;
  country: string;
  province: string;
  city: string;
  /** Group owner (chatrooms). */
  owner: Generated<string>;
  unreachable: Generated<number>;
}

/** A member of a simulated room: one per (wx_account_id, room_id, member_wxid), the key. */
export interface SimRoomMembersTable {
  wx_account_id: string;
  room_id: string;
  member_wxid: string;
  /** Its place in the room's list (0 first). */
  seq: number;
  nickname: string;
  display_name: string;
  inviter: string;
  avatar: string;
}

export interface WxSyncJobsTable {
  id: string;
  wx_account_id: string;
  status: 'running' | 'done' | 'failed';
  /** JSON {friends, chatrooms, ghs}. */
  result: string | null;
  created_at: number;
  finished_at: number | null;
}

/** What a stored file is for; each kind has its own link and serving rules (files/service.ts). */
export type FileKind = 'media' | 'realname' | 'support' | 'showcase';

/** A stored file (bytes in FileStorage at storage_key), of any kind; owned by module `files`. */
export interface FilesTable {
  id: string;
  kind: FileKind;
  /** The company it belongs to; null for the service's own files (the support QR). */
  company_id: string | null;
  /** upload: sent to us (getSourceUrl, real-name, support QR); received: media a contact sent. */
  origin: 'upload' | 'received';
  mime: string;
  size: number;
  file_name: string;
  storage_key: string;
  created_at: number;
}

export interface CallbackEventsTable {
  /** The eventId customers dedupe by. */
  id: string;
  company_id: string;
  api_account_id: string;
  wxid: string;
  type: string;
  /** The exact JSON body delivered (signed as is). */
  payload: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: number | null;
  /** A worker holds the event until then (several processes may deliver). */
  locked_until: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface CallbackAttemptsTable {
  id: string;
  event_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: number;
}

export interface ApiNoncesTable {
  app_key: string;
  nonce: string;
  created_at: number;
}

/**
 * Per-IP rate limit windows shared by the processes on one PostgreSQL (module `rate-limits`):
 * `key` is the route address and client, `count` the requests of the window ending at `reset_at`.
 */
export interface RateWindowsTable {
  key: string;
  count: number;
  reset_at: number;
}

/** The operator's facts about a company: an internal remark and a service end (null: no limit). */
export interface CompanyOpsTable {
  company_id: string;
  remark: Generated<string>;
  service_expires_at: number | null;
  updated_at: number;
}

export type ReviewStateValue = 'pending' | 'passed' | 'refused' | 'superseded';

/** One real-name submission and its decision. */
export interface RealnameReviewsTable {
  id: string;
  company_id: string;
  social_image_id: string;
  licence_image_id: string;
  state: ReviewStateValue;
  refuse_reason: string | null;
  submitted_at: number;
  decided_at: number | null;
  decided_by: string | null;
}

/** Console page views per business day and visitor (a salted digest of IP + UA + day). */
export interface PageViewsTable {
  day: string;
  visitor: string;
  views: number;
}

/** Template showcase (module `showcase`): an article, numbered per company. */
export interface ShowcaseArticlesTable {
  company_id: string;
  id: number;
  title: string;
  /** Sanitised rich text. */
  content: string;
  content_short: string;
  author: string;
  reviewer: string;
  importance: number;
  type: string;
  status: string;
  display_at: number;
  /** Hundredths of the forecast (0–10000). */
  forecast_x100: number;
  comment_disabled: number;
  pageviews: number;
  image_uri: string;
  source_uri: string;
  /** Comma-separated. */
  platforms: string;
  created_at: number;
  updated_at: number;
}

/** Template showcase: a role of a company with its route tree (JSON). */
export interface ShowcaseRolesTable {
  company_id: string;
  key: string;
  name: string;
  description: string;
  routes: string;
  builtin: number;
  created_at: number;
  updated_at: number;
}

/** The wechaty provider's memory of a device: the network token it last used (a fingerprint). */
export interface WechatyDevicesTable {
  device_id: string;
  /** SHA-256 hex of the token: the token itself is configuration, never stored. */
  token_hash: string;
  updated_at: number;
}

/** A server process running wechaty puppets, and where the others reach it to route calls to them. */
export interface WechatyProcessesTable {
  id: string;
  /** `http://host:port` of its route server. */
  address: string;
  /** What callers present to its route server; random per process, dead with it. */
  route_key: string;
  pid: number;
  seen_at: number;
}

/** Which process runs a device's puppet, while `lease_until` is in the future. */
export interface WechatyLeasesTable {
  device_id: string;
  owner: string;
  lease_until: number;
}

/** Which device holds a network token (its SHA-256 fingerprint), while `lease_until` is in the future. */
export interface WechatyTokenLeasesTable {
  token_hash: string;
  device_id: string;
  owner: string;
  lease_until: number;
}

/** Template showcase: a company's saved showcase state, one JSON value per key (kanban, avatar). */
export interface ShowcaseStateTable {
  company_id: string;
  key: 'kanban' | 'avatar';
  value: string;
  updated_at: number;
}

/** Template showcase: a showcase identity's token (hashed), valid only for /vue-element-admin/*. */
export interface ShowcaseTokensTable {
  token_hash: string;
  company_id: string;
  username: string;
  created_at: number;
  expires_at: number;
  replaced_at: number | null;
}

/** The console's error log (module `client-errors`): one reported client error, scrubbed. */
export interface ClientErrorsTable {
  id: string;
  /** The reporting session's user: a customer company, or an operator's own id. */
  company_id: string;
  kind: 'error' | 'unhandledrejection' | 'react';
  message: string;
  stack: string;
  /** The page's path only (no query string, no fragment). */
  source: string;
  user_agent: string;
  created_at: number;
}

export interface DB {
  client_errors: ClientErrorsTable;
  company_ops: CompanyOpsTable;
  realname_reviews: RealnameReviewsTable;
  page_views: PageViewsTable;
  showcase_articles: ShowcaseArticlesTable;
  showcase_roles: ShowcaseRolesTable;
  showcase_tokens: ShowcaseTokensTable;
  showcase_state: ShowcaseStateTable;
  wechaty_devices: WechatyDevicesTable;
  wechaty_processes: WechatyProcessesTable;
  wechaty_leases: WechatyLeasesTable;
  wechaty_token_leases: WechatyTokenLeasesTable;
  wx_devices: WxDevicesTable;
  wx_accounts: WxAccountsTable;
  wx_online_counts: WxOnlineCountsTable;
  wx_logins: WxLoginsTable;
  wx_messages: WxMessagesTable;
  sim_contacts: SimContactsTable;
  sim_room_members: SimRoomMembersTable;
  wx_sync_jobs: WxSyncJobsTable;
  files: FilesTable;
  callback_events: CallbackEventsTable;
  callback_attempts: CallbackAttemptsTable;
  api_nonces: ApiNoncesTable;
  rate_windows: RateWindowsTable;
  packages: PackagesTable;
  subscriptions: SubscriptionsTable;
  orders: OrdersTable;
  api_accounts: ApiAccountsTable;
  company_api_settings: CompanyApiSettingsTable;
  users: UsersTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  sms_codes: SmsCodesTable;
  login_failures: LoginFailuresTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type PackageRow = Selectable<PackagesTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type ApiAccountRow = Selectable<ApiAccountsTable>;
export type WxAccountRow = Selectable<WxAccountsTable>;
export type WxLoginRow = Selectable<WxLoginsTable>;
export type WxMessageRow = Selectable<WxMessagesTable>;
export type WxDeviceRow = Selectable<WxDevicesTable>;
export type CallbackEventRow = Selectable<CallbackEventsTable>;
export type FileRow = Selectable<FilesTable>;
export type RealnameReviewRow = Selectable<RealnameReviewsTable>;
