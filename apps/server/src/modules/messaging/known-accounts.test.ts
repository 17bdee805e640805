import { describe, expect, it } from 'vitest';
import { createKnownAccounts } from './known-accounts.js';
import type { WxAccountViewRow } from './mappers.js';

const account = (id: string, companyId = 'c1', wxid = `wxid_${id}`) =>
  ({ id, company_id: companyId, wxid, current_login_id: `login-${id}` }) as WxAccountViewRow;

describe('known accounts', () => {
  it('finds an account kept by id and by company and wxid; forgetting drops both', () => {
    const known = createKnownAccounts();
    const a = account('a');
    known.keep(a);
    expect(known.byId('a')).toBe(a);
    expect(known.byWxid('c1', 'wxid_a')).toBe(a);
    expect(known.byWxid('c2', 'wxid_a')).toBeUndefined();
    known.forget('a');
    expect(known.byId('a')).toBeUndefined();
    expect(known.byWxid('c1', 'wxid_a')).toBeUndefined();
    known.forget('a'); // twice: nothing to do
    expect(known.size).toBe(0);
  });

  it('a newer read of an account replaces the older one', () => {
    const known = createKnownAccounts();
    known.keep(account('a'));
    const again = { ...account('a'), current_login_id: 'login-2' };
    known.keep(again);
    expect(known.byWxid('c1', 'wxid_a')).toBe(again);
    expect(known.size).toBe(1);
  });

  it('keeps at most `max`: the first kept go first', () => {
    const known = createKnownAccounts(2);
    known.keep(account('a'));
    known.keep(account('b'));
    known.keep(account('c'));
    expect(known.size).toBe(2);
    expect(known.byId('a')).toBeUndefined();
    expect(known.byWxid('c1', 'wxid_a')).toBeUndefined();
    expect(known.byId('b')).toBeDefined();
    expect(known.byId('c')).toBeDefined();
  });
});
