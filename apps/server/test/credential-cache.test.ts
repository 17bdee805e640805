import { apiAccountCalls, messagingCalls, simCalls } from '@wxc/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBus } from '../src/modules/events/bus.js';
import { setUpCatalogue } from './commerce-helpers.js';
import { createPgSchema, createTestApp, dialects, type TestApp } from './helpers.js';
import { customerWithSubAccount, loginAccount, MESSAGING_ENV } from './messaging-helpers.js';

/**
 * API-credential requests answer from in-process copies of the sub-account and the company's API
 * settings (modules/api-accounts/cache.ts). A reset secret, a reclaimed sub-account or a new IP
 * allow-list holds from the very next request: in the process that made the change and in every
 * other process sharing the database. The simulator's copies of contacts (sim/contact-copies.ts) rest
 * on the same announcements, tested here across processes too.
 */

const call = (t: TestApp, creds: Record<string, string>, ip = '127.0.0.1') =>
  t.call(messagingCalls.proxyList, {}, { headers: creds, ip });

describe.each(dialects)('sub-account copies (%s)', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV);
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());

  it('a reset secret refuses the old one at once and takes the new one', async () => {
    const c = await customerWithSubAccount(t, cat);
    for (let i = 0; i < 3; i++) expect((await call(t, c.creds)).code).toBe('200'); // copies taken
    const reset = await t.call(apiAccountCalls.resetApiSecret, { id: c.sub.id }, { token: c.token });
    expect(reset.code).toBe('200');
    expect((await call(t, c.creds)).status).toBe(401);
    const fresh = { 'x-app-key': c.sub.appKey, 'x-app-secret': reset.data.appSecret as string };
    expect((await call(t, fresh)).code).toBe('200');
  });

  it('a reclaimed sub-account is refused at once', async () => {
    const c = await customerWithSubAccount(t, cat);
    expect((await call(t, c.creds)).code).toBe('200');
    expect(
      (await t.call(apiAccountCalls.recoveryApiAccount, { id: c.sub.id }, { token: c.token })).code,
    ).toBe('200');
    expect((await call(t, c.creds)).status).toBe(401);
  });

  it('a new IP allow-list holds from the next request', async () => {
    const c = await customerWithSubAccount(t, cat);
    expect((await call(t, c.creds, '10.9.0.7')).code).toBe('200');
    const set = await t.call(
      apiAccountCalls.configCompanyInfo,
      { defaultCallbackUrl: null, ipAllowlist: ['10.1.0.0/16'] },
      { token: c.token },
    );
    expect(set.code).toBe('200');
    expect((await call(t, c.creds, '10.9.0.7')).code).toBe('40300');
    expect((await call(t, c.creds, '10.1.2.3')).code).toBe('200');
  });
});

describe.skipIf(!dialects.includes('postgres'))('sub-account copies across processes (postgres)', () => {
  let schema: { schema: string; drop: () => Promise<void> };
  let a: TestApp;
  let b: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  const pgBus = () => createPostgresBus(process.env.TEST_DATABASE_URL!, pino({ level: 'silent' }));
  beforeAll(async () => {
    schema = await createPgSchema();
    a = await createTestApp('postgres', MESSAGING_ENV, {
      pgSchema: schema.schema,
      app: { bus: await pgBus() },
    });
    b = await createTestApp('postgres', MESSAGING_ENV, {
      pgSchema: schema.schema,
      app: { bus: await pgBus() },
    });
    cat = await setUpCatalogue(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  it('a secret reset, an allow-list and a reclaim on one process hold on the other at once', async () => {
    const c = await customerWithSubAccount(a, cat);
    for (let i = 0; i < 3; i++) expect((await call(b, c.creds, '10.9.0.7')).code).toBe('200'); // B holds copies

    const reset = await a.call(apiAccountCalls.resetApiSecret, { id: c.sub.id }, { token: c.token });
    expect((await call(b, c.creds)).status).toBe(401);
    const fresh = { 'x-app-key': c.sub.appKey, 'x-app-secret': reset.data.appSecret as string };
    expect((await call(b, fresh, '10.9.0.7')).code).toBe('200');

    await a.call(
      apiAccountCalls.configCompanyInfo,
      { defaultCallbackUrl: null, ipAllowlist: ['10.1.0.0/16'] },
      { token: c.token },
    );
    expect((await call(b, fresh, '10.9.0.7')).code).toBe('40300');

    await a.call(apiAccountCalls.recoveryApiAccount, { id: c.sub.id }, { token: c.token });
    expect((await call(b, fresh, '10.1.2.3')).status).toBe(401);
  });

  it('a simulated contact made unreachable on one process fails the next send on the other', async () => {
    const c = await customerWithSubAccount(a, cat);
    const { account } = await loginAccount(a, { token: c.token });
    const friend = (await a.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token }))
      .data.list[0].wxid;
    const sendOn = (t: TestApp) =>
      t.call(
        messagingCalls.sendMsgText,
        { wxid: account.wxid, toWxid: friend, content: 'hi' },
        { token: c.token },
      );
    expect((await sendOn(b)).data.status).toBe('sent'); // B holds a copy of the contact
    const set = (unreachable: boolean) =>
      a.call(
        simCalls.setUnreachable,
        { wxid: account.wxid, contactWxid: friend, unreachable },
        { token: c.token },
      );
    expect((await set(true)).code).toBe('200');
    expect((await sendOn(b)).data.status).toBe('failed');
    expect((await set(false)).code).toBe('200');
    expect((await sendOn(b)).data.status).toBe('sent');
  });
});
