// @vitest-environment happy-dom

import * as authCalls from '@wxc/contract/calls/auth';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as operatorCalls from '@wxc/contract/calls/operator';
import * as packageCalls from '@wxc/contract/calls/packages';
import * as systemCalls from '@wxc/contract/calls/system';
import { SUPPORT_VIEW_HEADER } from '@wxc/contract/constants';
import type { UserInfo } from '@wxc/contract/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRequester, setHeaderSource } from '../api/request';
import { logoutLocal, resetToken, setUser, signIn } from './session';
import {
  leaveSupportView,
  onSupportViewChange,
  supportViewCompany,
  supportViewHeaders,
  useSupportView,
  viewCompany,
} from './support-view';

const operator: UserInfo = {
  id: 'op1',
  companyName: '',
  companyAccount: 'operator',
  userName: '运营',
  accountType: 1,
  realNameUser: 0,
  serverFlag: 'test',
  roles: ['admin'],
};
const customer: UserInfo = { ...operator, id: 'c9', companyAccount: '13900000000', roles: ['customer'] };
const acme = {
  id: 'c1',
  companyName: '星河科技有限公司',
  companyAccount: '13912345678',
  accountType: 2,
  realNameStatus: 1,
};

afterEach(() => {
  leaveSupportView();
  resetToken();
  sessionStorage.clear();
});

describe('support view store', () => {
  it('names the viewed company on customer calls only, and only for an operator', () => {
    signIn('tok', operator);
    expect(supportViewHeaders(packageCalls.list)).toBeUndefined();
    viewCompany(acme);
    expect(supportViewCompany()?.companyName).toBe('星河科技有限公司');
    expect(supportViewHeaders(packageCalls.list)).toEqual({ [SUPPORT_VIEW_HEADER]: 'c1' });
    expect(supportViewHeaders(messagingCalls.showMsgConsole)).toEqual({ [SUPPORT_VIEW_HEADER]: 'c1' });
    // The operator's own calls, the user's own profile and public calls go as they are.
    expect(supportViewHeaders(operatorCalls.registeUser)).toBeUndefined();
    expect(supportViewHeaders(authCalls.refreshLoginInfo)).toBeUndefined();
    expect(supportViewHeaders(systemCalls.siteInfo)).toBeUndefined();
    // A customer never sends it, whatever the tab remembers.
    setUser(customer);
    expect(supportViewCompany()).toBeNull();
    expect(supportViewHeaders(packageCalls.list)).toBeUndefined();
  });

  it('is the header every requester sends (registered as the shared header source)', async () => {
    // As the console's entry (main.tsx) registers it at start.
    setHeaderSource(supportViewHeaders);
    signIn('tok', operator);
    viewCompany(acme);
    const fetch = vi.fn<typeof globalThis.fetch>(
      async () =>
        new Response(JSON.stringify({ code: '200', message: '', data: { list: [] } }), {
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const { call } = createRequester({
      fetch,
      ui: { error: () => undefined, confirm: async () => false },
      session: { getToken: () => 'tok', relogin: () => undefined, resetAndReload: () => undefined },
    });
    await call(packageCalls.list, {});
    expect(fetch.mock.calls[0]![1]?.headers).toMatchObject({ [SUPPORT_VIEW_HEADER]: 'c1' });
  });

  it('keeps the view for the tab (a reload) and forgets it at logout', () => {
    signIn('tok', operator);
    viewCompany(acme);
    expect(JSON.parse(sessionStorage.getItem('wxc-support-view')!)).toMatchObject({ id: 'c1' });
    logoutLocal();
    expect(useSupportView.getState().company).toBeNull();
    expect(sessionStorage.getItem('wxc-support-view')).toBeNull();
  });

  it('runs the change hooks before another company shows, not when the same one is chosen again', () => {
    signIn('tok', operator);
    const seen: Array<string | null> = [];
    const off = onSupportViewChange(() => seen.push(useSupportView.getState().company?.id ?? null));
    viewCompany(acme);
    viewCompany({ ...acme });
    viewCompany({ ...acme, id: 'c2' });
    leaveSupportView();
    off();
    // Each hook saw the previous company still in place.
    expect(seen).toEqual([null, 'c1', 'c2']);
  });

  it('keeps only the fields it needs', () => {
    signIn('tok', operator);
    viewCompany({ ...acme, remark: '内部备注' } as typeof acme);
    expect(useSupportView.getState().company).toEqual(acme);
  });
});
