import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import * as repo from './repo.js';

/**
 * What other modules may know and change of a user row (module `auth` owns `users`): a customer
 * company's facts, and its real-name status (written by the real-name review).
 */
export function createUserDirectory(db: Kysely<DB>) {
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

    /** `exec`: the caller's transaction, when the change belongs to one. */
    setRealNameStatus: (id: string, status: number, exec: Kysely<DB> = db) =>
      repo.updateUser(exec, id, { real_name_status: status, updated_at: Date.now() }),
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
