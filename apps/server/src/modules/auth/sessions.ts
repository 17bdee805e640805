import type { UserInfo } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { newId, newToken, sha256 } from '../../lib/crypto.js';
import type { AuthContext } from '../../lib/http.js';
import { type AuthCache, type CachedSession, type CachedUser, cachedUserOf } from './cache.js';
import * as repo from './repo.js';

/** Writing last_seen_at on every request would turn reads into writes; a minute's slack is plenty. */
const TOUCH_EVERY_MS = 60_000;

/** Sessions revoked together (ids only: never tokens or their hashes). */
export interface EndedSessions {
  userId: string;
  sessionIds: string[];
}

export interface SessionService {
  create(userId: string, ip: string, userAgent: string): Promise<string>;
  /** The session behind a bearer token, or null when missing, unknown, expired, idle or revoked. */
  authenticate(token: string | undefined): Promise<AuthContext | null>;
  /**
   * When the session lapses unless it is used again: the earlier of its absolute expiry and its last
   * use plus the idle timeout. Null when it is over already (revoked, expired, idle, account not
   * active). Asking is not a use: live streams re-check with this, so an open stream alone never
   * keeps a session from going idle.
   */
  endsAt(sessionId: string): Promise<number | null>;
  revoke(sessionId: string): Promise<void>;
  revokeAllOf(userId: string, keepSessionId?: string): Promise<void>;
  /**
   * Called after sessions are revoked, and awaited before the revoking call answers (the live event
   * stream announces them so their streams close at once). Returns the unsubscribe function.
   */
  onEnded(listener: (ended: EndedSessions) => Promise<void> | void): () => void;
}

/**
 * Sessions. `authenticate` answers from the in-process copies of `cache` while they are current
 * (cache.ts says when), else from the database; revocations are announced to every process before
 * the revoking call answers, so a revoked token is refused at once everywhere.
 */
export function createSessionService(
  db: Kysely<DB>,
  limits: { idleMs: number; maxMs: number },
  cache: AuthCache,
): SessionService {
  const endedListeners = new Set<(ended: EndedSessions) => Promise<void> | void>();
  async function ended(userId: string, sessionIds: string[]) {
    if (sessionIds.length === 0) return;
    await cache.changed({ sessions: sessionIds });
    for (const listener of [...endedListeners]) await listener({ userId, sessionIds });
  }
  /** The session is over (or the account not active): the same rule for copies and rows. */
  const usable = (session: CachedSession, user: CachedUser, now: number) =>
    session.expiresAt > now && session.lastSeenAt + limits.idleMs > now && user.status === 'active';

  /** The session and its user from the database; kept as copies unless something changed meanwhile. */
  async function read(tokenHash: string, now: number) {
    const generation = cache.generation();
    const row = await repo.findSessionWithUser(db, tokenHash);
    if (!row || row.revoked_at !== null) return null;
    const session: CachedSession = {
      sessionId: row.session_id,
      userId: row.id,
      expiresAt: row.expires_at,
      lastSeenAt: row.last_seen_at,
    };
    const user = cachedUserOf(row);
    if (!usable(session, user, now)) return null;
    cache.keepSession(generation, tokenHash, session, now);
    cache.keepUser(generation, user, now);
    return { session, user };
  }

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
      const tokenHash = sha256(token);
      const now = Date.now();
      let session = cache.session(tokenHash, now);
      let user = session && cache.user(session.userId, now);
      // A copy that looks over is read again: another process may have recorded a later use.
      if (!session || !user || !usable(session, user, now)) {
        const found = await read(tokenHash, now);
        if (!found) return null;
        ({ session, user } = found);
      }
      if (now - session.lastSeenAt > TOUCH_EVERY_MS) {
        session.lastSeenAt = now; // first: requests arriving meanwhile need not write it again
        await repo.touchSession(db, session.sessionId, now);
      }
      return {
        sessionId: session.sessionId,
        user: { id: user.id, account: user.account, role: user.role, roles: [user.role] },
      };
    },

    async endsAt(sessionId) {
      const row = await repo.findSessionState(db, sessionId);
      if (!row || row.revoked_at !== null || row.status !== 'active') return null;
      // The same rule as authenticate(): over when either deadline has come.
      const at = Math.min(row.expires_at, row.last_seen_at + limits.idleMs);
      return at > Date.now() ? at : null;
    },

    async revoke(sessionId) {
      const rows = await repo.revokeSession(db, sessionId, Date.now());
      for (const row of rows) await ended(row.user_id, [row.id]);
    },

    async revokeAllOf(userId, keepSessionId) {
      const rows = await repo.revokeUserSessions(db, userId, Date.now(), keepSessionId);
      await ended(
        userId,
        rows.map((r) => r.id),
      );
    },

    onEnded(listener) {
      endedListeners.add(listener);
      return () => void endedListeners.delete(listener);
    },
  };
}

/** Reads the token from `Authorization: <token>` or `Authorization: Bearer <token>`. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.startsWith('Bearer ') ? header.slice(7) : header;
  return value.trim() || undefined;
}

export function toUserInfo(user: CachedUser, serverFlag: string): UserInfo {
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
