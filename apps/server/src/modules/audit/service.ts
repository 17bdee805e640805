import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';
import * as repo from './repo.js';

/** Who did what, for operators and incident review. Details never carry secrets or codes. */
export interface AuditService {
  record(entry: {
    userId: string | null;
    action: string;
    ip: string;
    detail?: Record<string, unknown>;
  }): Promise<void>;
}

export function createAuditService(db: Kysely<DB>): AuditService {
  return {
    async record({ userId, action, ip, detail }) {
      await repo.insert(db, {
        id: newId(),
        user_id: userId,
        action,
        ip,
        detail: JSON.stringify(detail ?? {}),
        created_at: Date.now(),
      });
    },
  };
}
