import type { ApiAccountRow } from '../../db/schema.js';
import { type Changes, createCopies, localChanges } from '../../lib/copies.js';

/**
 * In-process copies of sub-accounts (by id and by appKey) and of companies' API settings, so that
 * an API-credential request, a send and a callback read no row for them. The same rules as the
 * session copies (modules/auth/cache.ts), for the same reason — a reclaimed sub-account or a reset
 * secret must stop working at once, on every process:
 * - every write of the module announces what it changed once committed, and the call answers only
 *   after that (this process drops its copies synchronously, the others when the announcement
 *   reaches them: PostgreSQL NOTIFY, committed before the call answers);
 * - copies are served only while every process's announcements reach this one (`live()`);
 * - a read that started before an announcement is not kept (a generation counter);
 * - copies are read again after `maxAgeMs` anyway (changes made outside the service).
 * Misses are not kept: a new sub-account is found at its first use.
 */

/** What changed: sub-accounts (ids) and companies whose API settings changed (ids). */
export interface DirectoryChange {
  subAccounts?: string[];
  companies?: string[];
}

/** How changes travel between processes (the event bus; wired in services.ts). */
export type DirectoryChanges = Changes<DirectoryChange>;

/** One process (tests): announcements are synchronous calls, always live. */
export const localDirectoryChanges = (): DirectoryChanges => localChanges<DirectoryChange>();

/** A company's API settings as the hot paths use them. */
export interface CompanyApiConfig {
  defaultCallbackUrl: string | null;
  ipAllowlist: string[];
}

export interface DirectoryCacheOptions {
  /** Copies kept at most, per kind; the oldest go first. */
  maxEntries?: number;
  /** A copy older than this is read again (backstop for changes made outside the service). */
  maxAgeMs?: number;
}

export function createDirectoryCache(changes: DirectoryChanges, opts: DirectoryCacheOptions = {}) {
  const maxEntries = opts.maxEntries ?? 50_000;
  const maxAgeMs = opts.maxAgeMs ?? 60_000;
  const live = () => changes.live();
  const idByKey = new Map<string, string>(); // appKey -> id
  const accounts = createCopies<ApiAccountRow>({
    maxEntries,
    maxAgeMs,
    live,
    evicted: (row) => idByKey.delete(row.app_key),
  }); // by id
  const configs = createCopies<CompanyApiConfig>({ maxEntries, maxAgeMs, live }); // by company id
  let generation = 0;

  const dropAccount = (id: string) => {
    const row = accounts.peek(id);
    if (!row) return;
    accounts.delete(id);
    idByKey.delete(row.app_key);
  };
  const unlisten = changes.listen((change) => {
    generation += 1;
    if (change === 'all') {
      accounts.clear();
      idByKey.clear();
      configs.clear();
      return;
    }
    for (const id of change.subAccounts ?? []) dropAccount(id);
    for (const id of change.companies ?? []) configs.delete(id);
  });

  return {
    /** Taken before a read; the read is kept only if nothing was announced since. */
    generation: () => generation,
    account: (id: string, now: number) => accounts.get(id, now),
    accountByKey(appKey: string, now: number) {
      const id = idByKey.get(appKey);
      return id === undefined ? undefined : accounts.get(id, now);
    },
    config: (companyId: string, now: number) => configs.get(companyId, now),
    keepAccount(gen: number, row: ApiAccountRow, now: number) {
      if (gen !== generation || !live()) return;
      idByKey.set(row.app_key, row.id);
      accounts.put(row.id, row, now);
    },
    keepConfig(gen: number, companyId: string, config: CompanyApiConfig, now: number) {
      if (gen !== generation || !live()) return;
      configs.put(companyId, config, now);
    },
    /** Announces a committed change to every process; resolves once announced. */
    changed: (change: DirectoryChange) => changes.announce(change),
    close: unlisten,
  };
}

export type DirectoryCache = ReturnType<typeof createDirectoryCache>;
