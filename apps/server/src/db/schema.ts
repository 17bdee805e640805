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

export interface DB {
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
