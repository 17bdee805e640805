import {
  allCalls,
  apiAccountCalls,
  CALL_AUDIENCES,
  type CallAudience,
  type CallDef,
  ErrorCatalogue,
  orderCalls,
  SUPPORT_VIEW_HEADER,
} from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpCatalogue } from './commerce-helpers.js';
import {
  type CallOptions,
  createAdmin,
  createTestApp,
  dialects,
  type TestApp,
  tableCounts,
} from './helpers.js';
import { customerWithSubAccount, MESSAGING_ENV } from './messaging-helpers.js';

/**
 * Who may make each call, swept over every call of the contract: the answer class each kind of
 * caller gets from its audience. "allowed" means the call got past the door (it may still answer
 * "400" for the empty input, or a domain error); the other classes are the door's own answers.
 */
type Caller = 'anonymous' | 'customer' | 'operator' | 'subAccount' | 'revokedSubAccount' | 'operatorViewing';
type Answer = 'allowed' | '403' | '40300';

const EXPECTED: Record<CallAudience, Record<Exclude<Caller, 'operatorViewing'>, Answer>> = {
  public: {
    anonymous: 'allowed',
    customer: 'allowed',
    operator: 'allowed',
    subAccount: 'allowed',
    revokedSubAccount: 'allowed',
  },
  user: {
    anonymous: '403',
    customer: 'allowed',
    operator: 'allowed',
    subAccount: '403',
    revokedSubAccount: '403',
  },
  customer: {
    anonymous: '403',
    customer: 'allowed',
    operator: '40300',
    subAccount: '403',
    revokedSubAccount: '403',
  },
  operator: {
    anonymous: '403',
    customer: '40300',
    operator: 'allowed',
    subAccount: '403',
    revokedSubAccount: '403',
  },
  customerOrApi: {
    anonymous: '403',
    customer: 'allowed',
    operator: '40300',
    subAccount: 'allowed',
    revokedSubAccount: '403',
  },
};

/**
 * The operator's read-only support view (`x-view-company` names the company): the contract's
 * support reads are allowed, every other customer call is refused as for any operator.
 */
function expected(call: CallDef, caller: Caller): Answer {
  if (caller !== 'operatorViewing') return EXPECTED[call.audience][caller];
  if (call.audience === 'customer' || call.audience === 'customerOrApi')
    return call.supportRead ? 'allowed' : '40300';
  return EXPECTED[call.audience].operator;
}

const CALLERS: Caller[] = [...(Object.keys(EXPECTED.public) as Caller[]), 'operatorViewing'];

// Ending a session is swept last, so the sessions stay valid for every other call.
const ENDS_SESSION = new Set(['auth.logout']);
const sweepOrder = [...allCalls].sort(
  (a, b) => Number(ENDS_SESSION.has(a.id)) - Number(ENDS_SESSION.has(b.id)),
);

describe('every call names an audience', () => {
  it.each(allCalls.map((c) => [c.id, c] as const))('%s', (_id, call) => {
    expect(CALL_AUDIENCES).toContain(call.audience);
  });

  // The permissive audiences are listed here by name: opening a call wider is a decision this
  // test makes visible, not a one-word edit in the contract.
  it('only these calls are open to everyone', () => {
    expect(idsOf('public')).toEqual([
      'auth.checkVerifyCode',
      'auth.getVerifyCode',
      'auth.isAutoRegiste',
      'auth.login',
      'auth.register',
      'auth.resetPassword',
      'auth.sendRegisterSms',
      'auth.sendSms',
      'sim.scanAction',
      'sim.scanStatus',
      'system.siteInfo',
      'system.visit',
    ]);
  });
  it('only these calls serve customers and operators alike', () => {
    expect(idsOf('user')).toEqual([
      'auth.logout',
      'auth.modUserName',
      'auth.refreshLoginInfo',
      'catalogue.wechatApi',
      'catalogue.wechatApiParam',
      'clientError.list',
      'clientError.report',
      'realName.getRealNameImgs',
      'realName.isOpenRealName',
    ]);
  });
});

const idsOf = (audience: CallAudience) =>
  allCalls
    .filter((c) => c.audience === audience)
    .map((c) => c.id)
    .sort();

describe.each(dialects)('call audiences, swept over every call (%s)', (dialect) => {
  let t: TestApp;
  const as = {} as Record<Caller, CallOptions>;
  let companyId: string;
  let customerToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV, { app: { callbackWorker: false } });
    const cat = await setUpCatalogue(t);
    const company = await customerWithSubAccount(t, cat);
    const revoked = await t.call(
      apiAccountCalls.openApiAccount,
      { name: '将回收', availableNum: 0 },
      { token: company.token },
    );
    const revokedCreds = {
      'x-app-key': revoked.data.account.appKey as string,
      'x-app-secret': revoked.data.appSecret as string,
    };
    const recovered = await t.call(
      apiAccountCalls.recoveryApiAccount,
      { id: revoked.data.account.id },
      { token: company.token },
    );
    expect(recovered.code).toBe('200');
    const operator = await createAdmin(t);
    // The support view gets its own operator session: the sweep ends each session it uses.
    const viewing = await createAdmin(t);
    // Each caller from its own address, so the sweep stays under the per-IP limits.
    as.anonymous = { ip: '10.9.0.1' };
    as.customer = { token: company.token, ip: '10.9.0.2' };
    as.operator = { token: operator.token, ip: '10.9.0.3' };
    as.subAccount = { headers: company.creds, ip: '10.9.0.4' };
    as.revokedSubAccount = { headers: revokedCreds, ip: '10.9.0.5' };
    as.operatorViewing = {
      token: viewing.token,
      headers: { [SUPPORT_VIEW_HEADER]: company.user.id },
      ip: '10.9.0.7',
    };
    companyId = company.user.id;
    customerToken = company.token;
  });
  afterAll(() => t?.close());

  const answerOf = async (call: CallDef, caller: Caller): Promise<Answer> => {
    // An empty input: the door is passed or not before the input is even looked at.
    const res = await t.call(call, {} as never, as[caller]);
    expect(res.status, `${call.id} as ${caller}: ${res.code} ${res.message}`).toBeLessThan(500);
    const { UNAUTHENTICATED, FORBIDDEN } = ErrorCatalogue;
    if (res.code === UNAUTHENTICATED.code || res.code === FORBIDDEN.code) return res.code;
    return 'allowed';
  };

  it('an operator cannot buy a package or open a sub-account (the probe found both answered "200")', async () => {
    const operator = { token: as.operator.token, ip: '10.9.0.6' };
    const before = await tableCounts(t.database);
    const pkg = (await t.database.db.selectFrom('packages').select('id').executeTakeFirstOrThrow()).id;
    const buy = await t.call(
      orderCalls.buy,
      { packageId: pkg, quantity: 1, idempotencyKey: 'op-buy-0001' },
      operator,
    );
    expect(buy).toMatchObject({ status: 403, code: '40300' });
    const open = await t.call(apiAccountCalls.openApiAccount, { name: '运营', availableNum: 0 }, operator);
    expect(open).toMatchObject({ status: 403, code: '40300' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  describe('support view', () => {
    it('an operator reads a named company exactly as the customer sees it, and each read is audited', async () => {
      const auditRows = () =>
        t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'support.view').execute();
      const before = (await auditRows()).length;
      const mine = await t.call(apiAccountCalls.queryApiAccount, {}, { token: customerToken });
      const viewed = await t.call(apiAccountCalls.queryApiAccount, {}, as.operatorViewing);
      expect(viewed.code).toBe('200');
      expect(viewed.data).toEqual(mine.data);
      const rows = await auditRows();
      expect(rows.length).toBe(before + 1);
      expect(JSON.parse(rows.at(-1)!.detail)).toEqual({ companyId, call: 'accountManager.queryApiAccount' });
    });

    it('writes are refused even when a company is named, and nothing changes', async () => {
      const before = await tableCounts(t.database);
      const res = await t.call(
        apiAccountCalls.openApiAccount,
        { name: '代开', availableNum: 0 },
        as.operatorViewing,
      );
      expect(res).toMatchObject({ status: 403, code: '40300' });
      expect(await tableCounts(t.database)).toEqual(before);
    });

    it('a read without a named company, or naming no customer, is refused', async () => {
      expect(await t.call(apiAccountCalls.queryApiAccount, {}, as.operator)).toMatchObject({ code: '40300' });
      const nobody = { ...as.operatorViewing, headers: { [SUPPORT_VIEW_HEADER]: 'no-such-company' } };
      expect(await t.call(apiAccountCalls.queryApiAccount, {}, nobody)).toMatchObject({
        status: 404,
        code: '404',
      });
    });

    it('only operators may name a company', async () => {
      const other = await customerWithSubAccount(t, await setUpCatalogue(t));
      const res = await t.call(
        apiAccountCalls.queryApiAccount,
        {},
        { token: other.token, headers: { [SUPPORT_VIEW_HEADER]: companyId }, ip: '10.9.0.8' },
      );
      expect(res).toMatchObject({ status: 403, code: '40300' });
      expect(
        await t.call(
          apiAccountCalls.queryApiAccount,
          {},
          { headers: { ...other.creds, [SUPPORT_VIEW_HEADER]: companyId } },
        ),
      ).toMatchObject({ code: '40300' });
    });
  });

  it('a caller who may not make a call learns nothing about its input (refused before validation)', async () => {
    const buy = allCalls.find((c) => c.id === 'package.buy')!;
    const bad = { packageId: 12, quantity: 'many' } as never;
    expect(await t.call(buy, bad, as.anonymous)).toMatchObject({ status: 401, code: '403' });
    expect(await t.call(buy, bad, as.operator)).toMatchObject({ status: 403, code: '40300' });
    expect(await t.call(buy, bad, as.customer)).toMatchObject({ status: 400, code: '400' });
  });

  it('answers every call for every caller as its audience says', async () => {
    const wrong: string[] = [];
    for (const call of sweepOrder) {
      for (const caller of CALLERS) {
        const want = expected(call, caller);
        const got = await answerOf(call, caller);
        if (got !== want) wrong.push(`${call.id} (${call.audience}) as ${caller}: ${got}, expected ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
