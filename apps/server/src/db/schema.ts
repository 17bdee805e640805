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

export interface DB {
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
