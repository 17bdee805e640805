import type { WxAccountViewRow } from './mappers.js';

/**
 * The accounts this process last stored a message for, as it read them: a send or a received
 * message starts from the account here instead of reading it again (two reads of every send, 43 %
 * of a PostgreSQL soak's statements). Never trusted: the message is stored by an insert that checks
 * the account is still online under the same login (repo.insertReceived, the send's claimed
 * insert), and a login is what sets everything taken from a copy here (sub-account, device). An
 * insert refused forgets the account; it is read again. So nothing announces changes to these
 * copies, and a change made anywhere (another process, by hand) is seen at the next message.
 *
 * Kept: an account once an insert guarded by its copy succeeded; beyond `max`, the first kept go.
 */
export function createKnownAccounts(max = 10_000) {
  const byId = new Map<string, WxAccountViewRow>();
  const idByWxid = new Map<string, string>(); // company id + wxid -> account id
  const wxidKey = (companyId: string, wxid: string) => `${companyId}\u0000${wxid}`;

  function forget(id: string) {
    const row = byId.get(id);
    if (!row) return;
    byId.delete(id);
    idByWxid.delete(wxidKey(row.company_id, row.wxid));
  }

  return {
    byId: (id: string) => byId.get(id),
    byWxid(companyId: string, wxid: string) {
      const id = idByWxid.get(wxidKey(companyId, wxid));
      return id === undefined ? undefined : byId.get(id);
    },
    /** An account as read, once an insert guarded by it succeeded. */
    keep(row: WxAccountViewRow) {
      if (byId.get(row.id) === row) return;
      byId.delete(row.id);
      byId.set(row.id, row);
      idByWxid.set(wxidKey(row.company_id, row.wxid), row.id);
      if (byId.size > max) forget(byId.keys().next().value!);
    },
    forget,
    get size() {
      return byId.size;
    },
  };
}

export type KnownAccounts = ReturnType<typeof createKnownAccounts>;
