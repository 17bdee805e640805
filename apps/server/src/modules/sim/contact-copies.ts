import type { Selectable } from 'kysely';
import type { SimContactsTable } from '../../db/schema.js';
import { type Changes, createCopies, localChanges } from '../../lib/copies.js';

/**
 * In-process copies of the simulated contacts a send looks up (the gateway's contact check, then the
 * send itself, whose row the reply reuses), so a send through the simulator reads no contact row.
 * The rules of the session copies (modules/auth/cache.ts), for the same reason — a contact made
 * unreachable must fail the next send, on every process:
 * - a change is announced once committed, and the changing call answers only after that: this
 *   process drops the account's copies at once, the others before the call answers (the bus);
 * - copies are served only while every process's announcements reach this one (`live()`);
 * - a read that started before an announcement is not kept (a generation counter);
 * - misses are not kept (a network stored later is found); copies are read again after `maxAgeMs`.
 */

/** What changed: accounts whose simulated contacts changed (wx_accounts ids). */
export interface SimContactChange {
  simContacts?: string[];
}

/** How changes travel between processes (the event bus; wired in services.ts). */
export type SimContactChanges = Changes<SimContactChange>;

/** One process (tests): announcements are synchronous calls, always live. */
export const localSimContactChanges = (): SimContactChanges => localChanges<SimContactChange>();

export type SimContactRow = Selectable<SimContactsTable>;

export function createContactCopies(
  changes: SimContactChanges,
  opts: { maxEntries?: number; maxAgeMs?: number } = {},
) {
  const keyOf = (accountId: string, wxid: string) => `${accountId}\u0000${wxid}`;
  const keysByAccount = new Map<string, Set<string>>();
  const forget = (row: SimContactRow) => {
    const keys = keysByAccount.get(row.wx_account_id);
    keys?.delete(keyOf(row.wx_account_id, row.contact_wxid));
    if (keys?.size === 0) keysByAccount.delete(row.wx_account_id);
  };
  const copies = createCopies<SimContactRow>({
    maxEntries: opts.maxEntries ?? 20_000,
    maxAgeMs: opts.maxAgeMs ?? 60_000,
    live: () => changes.live(),
    evicted: forget,
  });
  let generation = 0;

  const unlisten = changes.listen((change) => {
    generation += 1;
    if (change === 'all') {
      copies.clear();
      keysByAccount.clear();
      return;
    }
    for (const accountId of change.simContacts ?? []) {
      for (const key of keysByAccount.get(accountId) ?? []) copies.delete(key);
      keysByAccount.delete(accountId);
    }
  });

  return {
    /** The account's contact `wxid`: the copy, or `read()` (kept when found and nothing changed meanwhile). */
    async contact(
      accountId: string,
      wxid: string,
      read: () => Promise<SimContactRow | undefined>,
    ): Promise<SimContactRow | undefined> {
      const key = keyOf(accountId, wxid);
      const copy = copies.get(key, Date.now());
      if (copy) return copy;
      const readFrom = generation;
      const row = await read();
      if (row && readFrom === generation && changes.live()) {
        copies.put(key, row, Date.now());
        const keys = keysByAccount.get(accountId) ?? new Set<string>();
        keysByAccount.set(accountId, keys.add(key));
      }
      return row;
    },
    /** Announces committed changes to these accounts' contacts to every process; resolves once announced. */
    changed: (accountIds: string[]) => changes.announce({ simContacts: accountIds }),
    close: unlisten,
  };
}

export type ContactCopies = ReturnType<typeof createContactCopies>;
