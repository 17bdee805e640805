import {
  allCalls,
  apiAccountCalls,
  type CallDef,
  messagingCalls,
  OK_CODE,
  orderCalls,
  packageCalls,
} from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setUpCatalogue } from './commerce-helpers.js';
import { type CallOptions, createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';
import { customerWithSubAccount, loginAccount, MESSAGING_ENV } from './messaging-helpers.js';

/**
 * The tenant matrix, generated from the contract: every customer call that takes an identifier is
 * made by company B (its session and its sub-account) with company A's identifiers, and by A's
 * second sub-account with the first one's. Whatever the answer, none of A's data is in it and none
 * of A's rows changed. A new call with an identifier field is covered without a line here.
 */

/** Request fields that name a tenant's resource; each gets A's value. */
const ID_FIELDS = [
  'id',
  'wxid',
  'instanceId',
  'eventId',
  'msgId',
  'beforeMsgId',
  'orderNo',
  'subAccountId',
  'subscriptionId',
  'userId',
] as const;
type IdField = (typeof ID_FIELDS)[number];

// The catalogue is shared by every company (its ids are public), and the simulator's test hooks act
// on the network, not on a tenant's data.
const NOT_TENANT_SCOPED = new Set(['package.packageById']);

/** Plausible values for the other fields, so the call gets past validation to the tenant check. */
const FILLERS: Record<string, unknown> = {
  content: '租户矩阵',
  at: [],
  page: 1,
  pageSize: 10,
  limit: 10,
  name: '租户矩阵',
  availableNum: 1,
  remark: '租户矩阵',
  expireAt: null,
  callbackUrl: null,
  imageUrl: 'https://example.com/a.png',
  videoUrl: 'https://example.com/a.mp4',
  thumbUrl: 'https://example.com/a.png',
  voiceUrl: 'https://example.com/a.silk',
  fileUrl: 'https://example.com/a.pdf',
  fileName: 'a.pdf',
  duration: 3,
  url: 'https://example.com/',
  title: '租户矩阵',
  description: '租户矩阵',
  md5: 'd41d8cd98f00b204e9800998ecf8427e',
  size: 10,
  appId: 'wx0000000000000000',
  username: 'gh_000000000000',
  displayName: '租户矩阵',
  pagePath: 'pages/index',
  coverUrl: 'https://example.com/a.png',
  quantity: 1,
  idempotencyKey: 'tenant-matrix-0001',
  waitSeconds: 1,
  reason: '租户矩阵',
  unreachable: true,
};

type Caller = 'owner' | 'otherSession' | 'otherSubAccount' | 'siblingSubAccount';

interface Tenant {
  values: Partial<Record<IdField, string>>;
  /** A contact of A's messaging account. */
  friend?: string;
  /** Strings only A's data carries: none may appear in another caller's answer. */
  markers: string[];
}

function inputFor(call: CallDef, a: Tenant): Record<string, unknown> | null {
  const request = call.request as z.ZodType;
  if (!(request instanceof z.ZodObject)) return null;
  const input: Record<string, unknown> = {};
  let hasId = false;
  for (const [field, schema] of Object.entries(request.shape as Record<string, z.ZodType>)) {
    const id = a.values[field as IdField];
    if ((ID_FIELDS as readonly string[]).includes(field) && id !== undefined) {
      input[field] = id;
      hasId = true;
    } else if (field === 'toWxid' || field === 'peer' || field === 'contactWxid') {
      input[field] = a.friend ?? a.values.wxid;
    } else if (field in FILLERS) {
      input[field] = FILLERS[field];
    } else if (!schema.safeParse(undefined).success) {
      return null; // a required field we have no value for
    }
  }
  return hasId ? input : null;
}

describe.each(dialects)('tenant matrix, every call with an identifier (%s)', (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let aCompanyId: string;
  const as = {} as Record<Caller, CallOptions>;

  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV, { app: { callbackWorker: false, gatewayWorker: false } });
    const cat = await setUpCatalogue(t);
    const companyA = await customerWithSubAccount(t, cat);
    const companyB = await customerWithSubAccount(t, cat);
    aCompanyId = companyA.user.id;
    // A: a second sub-account, a messaging account with a message, a pending order, a callback.
    const sibling = await t.call(
      apiAccountCalls.openApiAccount,
      { name: '兄弟子账号', availableNum: 1 },
      { token: companyA.token },
    );
    const siblingCreds = {
      'x-app-key': sibling.data.account.appKey as string,
      'x-app-secret': sibling.data.appSecret as string,
    };
    const login = await loginAccount(t, { headers: companyA.creds });
    const friend = (
      await t.call(messagingCalls.getAddressList, { wxid: login.account.wxid }, { headers: companyA.creds })
    ).data.list[0].wxid as string;
    const secretText = `只属于A的消息 ${companyA.phone}`;
    const sent = await t.call(
      messagingCalls.sendMsgText,
      { wxid: login.account.wxid, toWxid: friend, content: secretText },
      { headers: companyA.creds },
    );
    expect(sent.code).toBe(OK_CODE);
    const order = await t.call(
      orderCalls.buy,
      { packageId: cat.basic.id, quantity: 1, idempotencyKey: `tenant-a-${companyA.phone}` },
      { token: companyA.token },
    );
    const subs = await t.call(packageCalls.queryPackage, {}, { token: companyA.token });
    const eventId = await t.app.services.callbacks.emit({
      companyId: aCompanyId,
      subAccountId: companyA.sub.id,
      wxid: login.account.wxid,
      type: 'message',
      data: { secret: secretText },
    });
    a = {
      friend,
      values: {
        id: companyA.sub.id,
        wxid: login.account.wxid,
        instanceId: login.instanceId,
        eventId: eventId ?? undefined,
        msgId: sent.data.msgId,
        beforeMsgId: sent.data.msgId,
        orderNo: order.data.orderNo,
        subAccountId: companyA.sub.id,
        subscriptionId: subs.data.list?.[0]?.id,
        userId: aCompanyId,
      },
      markers: [
        secretText,
        order.data.orderNo,
        companyA.sub.appKey,
        companyA.phone,
        login.account.wxid,
        '兄弟子账号',
      ],
    };
    // The sibling and B register phones of their own; B's answers must not carry A's phone either.
    as.owner = { headers: companyA.creds, ip: '10.7.0.4' };
    as.otherSession = { token: companyB.token, ip: '10.7.0.1' };
    as.otherSubAccount = { headers: companyB.creds, ip: '10.7.0.2' };
    as.siblingSubAccount = { headers: siblingCreds, ip: '10.7.0.3' };
    expect((await registerCompany(t)).token).toBeTruthy(); // a third company, so lists are not trivially A's
  });
  afterAll(() => t?.close());

  /** A's rows in every table that records a company, as text: compared before and after each call. */
  async function rowsOfA(): Promise<string> {
    const db = t.database.db;
    const tables = [
      'api_accounts',
      'company_api_settings',
      'orders',
      'subscriptions',
      'wx_accounts',
      'wx_messages',
      'wx_logins',
      'wx_devices',
      'callback_events',
      'files',
    ] as const;
    const out: Record<string, unknown[]> = {};
    for (const table of tables) {
      const rows = await db.selectFrom(table).selectAll().where('company_id', '=', aCompanyId).execute();
      out[table] = rows.map((r) => JSON.stringify(r)).sort();
    }
    out.users = await db.selectFrom('users').selectAll().where('id', '=', aCompanyId).execute();
    return JSON.stringify(out);
  }

  const scoped = allCalls.filter(
    (c) =>
      (c.audience === 'customer' || c.audience === 'customerOrApi' || c.audience === 'user') &&
      !NOT_TENANT_SCOPED.has(c.id) &&
      !c.id.startsWith('sim.'),
  );

  it('reaches the calls that take an identifier (a required field it cannot fill would drop one)', () => {
    const covered = scoped.filter((c) => inputFor(c, a));
    expect(covered.length).toBeGreaterThanOrEqual(35);
  });

  it('the same inputs work for A itself, so the refusals above are the tenant check, not bad input', async () => {
    for (const id of [
      'msg.showMsgConsole',
      'msg.getAuth',
      'msg.getAddressList',
      'callback.list',
      'msg.checkQrCode',
    ]) {
      const call = scoped.find((c) => c.id === id)!;
      const res = await t.call(call, inputFor(call, a) as never, as.owner);
      expect(res.code, `${id} as A: ${res.message}`).toBe(OK_CODE);
    }
    const { beforeMsgId: _, ...newest } = inputFor(scoped.find((c) => c.id === 'msg.showMsgConsole')!, a)!;
    const history = await t.call(messagingCalls.showMsgConsole, newest as never, as.owner);
    expect(JSON.stringify(history.data)).toContain(a.markers[0]);
  });

  it.each(scoped.map((c) => [c.id, c] as const))('%s', async (_id, call) => {
    const input = inputFor(call, a);
    if (!input) return; // no identifier field, or a required field this matrix cannot fill
    for (const caller of ['otherSession', 'otherSubAccount', 'siblingSubAccount'] as const) {
      const before = await rowsOfA();
      const res = await t.call(call, input as never, as[caller]);
      const where = `${call.id} as ${caller} with A's ${JSON.stringify(input)}`;
      expect(res.status, where).toBeLessThan(500);
      if (res.code === OK_CODE) {
        const text = JSON.stringify(res.data);
        // The sibling is A's own sub-account: it may see the company's shared facts, not A1's own.
        const markers =
          caller === 'siblingSubAccount' ? a.markers.filter((m) => m !== a.values.wxid) : a.markers;
        for (const m of markers) expect(text, `${where} revealed ${m}`).not.toContain(m);
      }
      expect(await rowsOfA(), `${where} changed A's rows`).toBe(before);
    }
  });
});
