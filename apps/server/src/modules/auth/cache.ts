import type { User } from '../../db/schema.js';
import { type Changes, localChanges } from '../../lib/copies.js';

/**
 * In-process copies of sessions and users, so that an authenticated request reads no row: the
 * session behind a token hash, and the user it belongs to (what `refreshLoginInfo` answers).
 *
 * Correctness rests on invalidation, never on a timeout:
 * - every write of the module that changes a cached fact (a session revoked, a user row updated)
 *   announces it with `changed()` once it is committed, and the announcing call answers only after
 *   that: this process drops its copies at once (synchronously), every other process before the
 *   call answers too (PostgreSQL: NOTIFY, and each live process acknowledges having dropped them;
 *   see `AuthChanges` and modules/events/bus.ts);
 * - copies are served only while announcements of every process reach this one (`live()`); a
 *   process that may have missed some (its listener connection lost or silent) reads the database
 *   until it hears again, and then drops everything it held;
 * - a read that started before an announcement is not kept (a generation counter), so an old row
 *   read concurrently with a revocation never becomes a cached copy after it;
 * - time-based ends (absolute and idle expiry) are checked on the copy at every use; a copy that
 *   looks idle-expired is re-read, since another process may have recorded a later use;
 * - copies are re-read after `maxAgeMs` anyway: a backstop for changes made outside the service
 *   (an administrator editing the database by hand), not the invalidation mechanism.
 */

/** What changed: ended sessions (ids) and updated users (ids). */
export interface AuthChange {
  sessions?: string[];
  users?: string[];
}

/** How changes travel between processes (the event bus; wired in services.ts). */
export type AuthChanges = Changes<AuthChange>;

/** One process: announcements are synchronous calls, always live. */
export const localAuthChanges = (): AuthChanges => localChanges<AuthChange>();

export interface CachedSession {
  sessionId: string;
  userId: string;
  expiresAt: number;
  lastSeenAt: number;
}

/** A user as cached: everything but the password hash and the timestamps. */
export type CachedUser = Omit<User, 'password_hash' | 'created_at' | 'updated_at'>;

export interface AuthCacheOptions {
  /** Copies kept at most, per kind; the oldest go first. */
  maxEntries?: number;
  /** A copy older than this is read again (backstop for changes made outside the service). */
  maxAgeMs?: number;
}

interface Entry<T> {
  value: T;
  readAt: number;
}

export interface AuthCache {
  /** Taken before a read; a read is kept only if nothing was announced since. */
  generation(): number;
  session(tokenHash: string, now: number): CachedSession | undefined;
  user(userId: string, now: number): CachedUser | undefined;
  keepSession(generation: number, tokenHash: string, session: CachedSession, now: number): void;
  keepUser(generation: number, user: CachedUser, now: number): void;
  /** Announces a committed change to every process; resolves once announced. */
  changed(change: AuthChange): Promise<void>;
  close(): void;
}

export function createAuthCache(changes: AuthChanges, opts: AuthCacheOptions = {}): AuthCache {
  const maxEntries = opts.maxEntries ?? 50_000;
  const maxAgeMs = opts.maxAgeMs ?? 60_000;
  const sessions = new Map<string, Entry<CachedSession>>(); // by token hash
  const hashBySession = new Map<string, string>();
  const users = new Map<string, Entry<CachedUser>>();
  let generation = 0;

  const dropSession = (sessionId: string) => {
    const hash = hashBySession.get(sessionId);
    if (hash === undefined) return;
    hashBySession.delete(sessionId);
    sessions.delete(hash);
  };
  const unlisten = changes.listen((change) => {
    generation += 1;
    if (change === 'all') {
      sessions.clear();
      hashBySession.clear();
      users.clear();
      return;
    }
    for (const id of change.sessions ?? []) dropSession(id);
    for (const id of change.users ?? []) users.delete(id);
  });

  function fresh<T>(entry: Entry<T> | undefined, now: number): T | undefined {
    if (!entry || now - entry.readAt >= maxAgeMs || !changes.live()) return undefined;
    return entry.value;
  }
  /** Re-inserted at the end: a map keeps insertion order, so the first key is the oldest copy. */
  function put<T>(map: Map<string, Entry<T>>, key: string, value: T, now: number, evicted?: (v: T) => void) {
    map.delete(key);
    map.set(key, { value, readAt: now });
    if (map.size > maxEntries) {
      const [oldestKey, oldest] = map.entries().next().value as [string, Entry<T>];
      map.delete(oldestKey);
      evicted?.(oldest.value);
    }
  }

  return {
    generation: () => generation,
    session: (tokenHash, now) => fresh(sessions.get(tokenHash), now),
    user: (userId, now) => fresh(users.get(userId), now),
    keepSession(gen, tokenHash, session, now) {
      if (gen !== generation || !changes.live()) return;
      hashBySession.set(session.sessionId, tokenHash);
      put(sessions, tokenHash, session, now, (old) => hashBySession.delete(old.sessionId));
    },
    keepUser(gen, user, now) {
      if (gen !== generation || !changes.live()) return;
      put(users, user.id, user, now);
    },
    changed: (change) => changes.announce(change),
    close: unlisten,
  };
}

/** The cached part of a user row. */
export const cachedUserOf = (row: CachedUser): CachedUser => ({
  id: row.id,
  account: row.account,
  role: row.role,
  company_name: row.company_name,
  user_name: row.user_name,
  account_type: row.account_type,
  real_name_status: row.real_name_status,
  status: row.status,
});
