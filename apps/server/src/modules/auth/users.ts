import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AuthCache } from './cache.js';
import * as repo from './repo.js';

/**
 * What other modules may know and change of a user row (module `auth` owns `users`): a customer
 * company's facts, and its real-name status (written by the real-name review).
 */
export function createUserDirectory(db: Kysely<DB>, cache: Pick<AuthCache, 'changed'>) {
  return {
    /** A customer company; null for operators and unknown ids. */
    async customer(id: string) {
      const user = await repo.findUserById(db, id);
      if (user?.role !== 'customer') return null;
      return {
        id: user.id,
        account: user.account,
        accountType: user.account_type,
        realNameStatus: user.real_name_status,
      };
    },

    /**
     * `exec`: the caller's transaction, when the change belongs to one; the caller then calls
     * `changed(id)` once it has committed (a copy read before the commit would otherwise outlive it).
     */
    async setRealNameStatus(id: string, status: number, exec: Kysely<DB> = db) {
      await repo.updateUser(exec, id, { real_name_status: status, updated_at: Date.now() });
      if (exec === db) await cache.changed({ users: [id] });
    },

    /** Announces a committed change of the user's row to every process (their cached copies go). */
    changed: (id: string) => cache.changed({ users: [id] }),
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
