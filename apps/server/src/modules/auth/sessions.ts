import type { RoleValue, UserInfo } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB, User } from '../../db/schema.js';
import { newId, newToken, sha256 } from '../../lib/crypto.js';
import * as repo from './repo.js';

/** The caller of a request, as the routes see it. */
export interface AuthContext {
  sessionId: string;
  user: {
    id: string;
    account: string;
    role: RoleValue;
    roles: RoleValue[];
  };
}

/** Writing last_seen_at on every request would turn reads into writes; a minute's slack is plenty. */
const TOUCH_EVERY_MS = 60_000;

export interface SessionService {
  create(userId: string, ip: string, userAgent: string): Promise<string>;
  /** The session behind a bearer token, or null when missing, unknown, expired, idle or revoked. */
  authenticate(token: string | undefined): Promise<AuthContext | null>;
  revoke(sessionId: string): Promise<void>;
  revokeAllOf(userId: string, keepSessionId?: string): Promise<void>;
}

export function createSessionService(
  db: Kysely<DB>,
  limits: { idleMs: number; maxMs: number },
): SessionService {
  return {
    async create(userId, ip, userAgent) {
      const token = newToken();
      const now = Date.now();
      await repo.insertSession(db, {
        id: newId(),
        token_hash: sha256(token),
        user_id: userId,
        ip,
        user_agent: userAgent,
        created_at: now,
        last_seen_at: now,
        expires_at: now + limits.maxMs,
        revoked_at: null,
      });
      return token;
    },

    async authenticate(token) {
      if (!token || token.length > 200) return null;
      const row = await repo.findSessionWithUser(db, sha256(token));
      const now = Date.now();
      if (!row || row.revoked_at !== null || row.expires_at <= now) return null;
      if (row.last_seen_at + limits.idleMs <= now || row.status !== 'active') return null;
      if (now - row.last_seen_at > TOUCH_EVERY_MS) await repo.touchSession(db, row.session_id, now);
      return {
        sessionId: row.session_id,
        user: { id: row.id, account: row.account, role: row.role, roles: [row.role] },
      };
    },

    async revoke(sessionId) {
      await repo.revokeSession(db, sessionId, Date.now());
    },

    async revokeAllOf(userId, keepSessionId) {
      await repo.revokeUserSessions(db, userId, Date.now(), keepSessionId);
    },
  };
}

/** Reads the token from `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.startsWith('Bearer ') ? header.slice(7) : header;
  return value.trim() || undefined;
}

export function toUserInfo(user: User, serverFlag: string): UserInfo {
  return {
    id: user.id,
    companyName: user.company_name,
    companyAccount: user.account,
    userName: user.user_name,
    accountType: user.account_type,
    realNameUser: user.real_name_status,
    serverFlag,
    roles: [user.role],
  };
}
