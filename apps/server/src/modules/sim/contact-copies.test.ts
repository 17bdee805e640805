import { describe, expect, it } from 'vitest';
import type { Changes } from '../../lib/copies.js';
import {
  createContactCopies,
  localSimContactChanges,
  type SimContactChange,
  type SimContactRow,
} from './contact-copies.js';

const row = (accountId: string, wxid: string, unreachable = 0) =>
  ({ wx_account_id: accountId, contact_wxid: wxid, unreachable }) as SimContactRow;

/** A reader counting its reads, answering the current row of a tiny "database". */
function database() {
  const rows = new Map<string, SimContactRow>();
  let reads = 0;
  return {
    set: (r: SimContactRow) => rows.set(`${r.wx_account_id}/${r.contact_wxid}`, r),
    reader: (accountId: string, wxid: string) => async () => {
      reads += 1;
      return rows.get(`${accountId}/${wxid}`);
    },
    reads: () => reads,
  };
}

describe('simulated contact copies', () => {
  it('reads a contact once, then serves the copy; misses are read every time', async () => {
    const copies = createContactCopies(localSimContactChanges());
    const db = database();
    db.set(row('a1', 'friend'));
    expect(await copies.contact('a1', 'friend', db.reader('a1', 'friend'))).toMatchObject({ unreachable: 0 });
    expect(await copies.contact('a1', 'friend', db.reader('a1', 'friend'))).toMatchObject({ unreachable: 0 });
    expect(db.reads()).toBe(1);
    expect(await copies.contact('a1', 'nobody', db.reader('a1', 'nobody'))).toBeUndefined();
    db.set(row('a1', 'nobody'));
    expect(await copies.contact('a1', 'nobody', db.reader('a1', 'nobody'))).toBeDefined();
    expect(db.reads()).toBe(3);
  });

  it('an announced change drops that account’s copies only', async () => {
    const copies = createContactCopies(localSimContactChanges());
    const db = database();
    db.set(row('a1', 'f'));
    db.set(row('a2', 'f'));
    await copies.contact('a1', 'f', db.reader('a1', 'f'));
    await copies.contact('a2', 'f', db.reader('a2', 'f'));
    db.set(row('a1', 'f', 1));
    await copies.changed(['a1']);
    expect(await copies.contact('a1', 'f', db.reader('a1', 'f'))).toMatchObject({ unreachable: 1 });
    await copies.contact('a2', 'f', db.reader('a2', 'f'));
    expect(db.reads()).toBe(3); // a1 twice, a2 once
  });

  it('does not keep a read that began before a change was announced', async () => {
    const copies = createContactCopies(localSimContactChanges());
    const db = database();
    db.set(row('a1', 'f'));
    let release!: () => void;
    const slow = async () => {
      const before = row('a1', 'f'); // read before the change commits
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return before;
    };
    const pending = copies.contact('a1', 'f', slow);
    db.set(row('a1', 'f', 1));
    await copies.changed(['a1']);
    release();
    expect(await pending).toMatchObject({ unreachable: 0 });
    expect(await copies.contact('a1', 'f', db.reader('a1', 'f'))).toMatchObject({ unreachable: 1 });
  });

  it('serves no copy while announcements may be missed, and drops everything on "all"', async () => {
    let live = true;
    const listeners = new Set<(c: SimContactChange | 'all') => void>();
    const changes: Changes<SimContactChange> = {
      announce: async () => {},
      listen: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      live: () => live,
    };
    const copies = createContactCopies(changes);
    const db = database();
    db.set(row('a1', 'f'));
    await copies.contact('a1', 'f', db.reader('a1', 'f'));
    live = false;
    await copies.contact('a1', 'f', db.reader('a1', 'f'));
    expect(db.reads()).toBe(2);
    live = true;
    for (const l of listeners) l('all');
    await copies.contact('a1', 'f', db.reader('a1', 'f'));
    await copies.contact('a1', 'f', db.reader('a1', 'f'));
    expect(db.reads()).toBe(3);
  });

  it('keeps at most maxEntries copies, the oldest going first', async () => {
    const copies = createContactCopies(localSimContactChanges(), { maxEntries: 2 });
    const db = database();
    for (const w of ['x', 'y', 'z']) {
      db.set(row('a1', w));
      await copies.contact('a1', w, db.reader('a1', w));
    }
    await copies.contact('a1', 'z', db.reader('a1', 'z'));
    await copies.contact('a1', 'x', db.reader('a1', 'x'));
    expect(db.reads()).toBe(4); // x was pushed out, z was not
    await copies.changed(['a1']); // drops what is left, however it was indexed
    await copies.contact('a1', 'z', db.reader('a1', 'z'));
    expect(db.reads()).toBe(5);
  });
});
