import {
  allCalls,
  apiAccountCalls,
  CALL_AUDIENCES,
  type CallAudience,
  type CallDef,
  packageCalls,
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
type Caller = 'anonymous' | 'customer' | 'operator' | 'subAccount' | 'revokedSubAccount';
type Answer = 'allowed' | '403' | '40300';

const EXPECTED: Record<CallAudience, Record<Caller, Answer>> = {
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

const CALLERS = Object.keys(EXPECTED.public) as Caller[];

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
    // Each caller from its own address, so the sweep stays under the per-IP limits.
    as.anonymous = { ip: '10.9.0.1' };
    as.customer = { token: company.token, ip: '10.9.0.2' };
    as.operator = { token: operator.token, ip: '10.9.0.3' };
    as.subAccount = { headers: company.creds, ip: '10.9.0.4' };
    as.revokedSubAccount = { headers: revokedCreds, ip: '10.9.0.5' };
  });
  afterAll(() => t?.close());

  const answerOf = async (call: CallDef, caller: Caller): Promise<Answer> => {
    // An empty input: the door is passed or not before the input is even looked at.
    const res = await t.call(call, {} as never, as[caller]);
    expect(res.status, `${call.id} as ${caller}: ${res.code} ${res.message}`).toBeLessThan(500);
    if (res.code === '403' || res.code === '40300') return res.code;
    return 'allowed';
  };

  it('an operator cannot buy a package or open a sub-account (the probe found both answered "200")', async () => {
    const operator = { token: as.operator.token, ip: '10.9.0.6' };
    const before = await tableCounts(t.database);
    const pkg = (await t.database.db.selectFrom('packages').select('id').executeTakeFirstOrThrow()).id;
    const buy = await t.call(
      packageCalls.buy,
      { packageId: pkg, quantity: 1, idempotencyKey: 'op-buy-0001' },
      operator,
    );
    expect(buy).toMatchObject({ status: 403, code: '40300' });
    const open = await t.call(apiAccountCalls.openApiAccount, { name: '运营', availableNum: 0 }, operator);
    expect(open).toMatchObject({ status: 403, code: '40300' });
    expect(await tableCounts(t.database)).toEqual(before);
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
        const expected = EXPECTED[call.audience][caller];
        const got = await answerOf(call, caller);
        if (got !== expected)
          wrong.push(`${call.id} (${call.audience}) as ${caller}: ${got}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
