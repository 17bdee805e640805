import { apiAccountCalls, packageCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto.js';
import { buyAndPay, commerceCounts, DAY, payingCompany, setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';

describe.each(dialects)('sub-accounts and quotas (%s)', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());

  const open = (token: string, name: string, availableNum = 0, callbackUrl?: string) =>
    t.call(
      apiAccountCalls.openApiAccount,
      { name, availableNum, ...(callbackUrl ? { callbackUrl } : {}) },
      { token },
    );

  describe('applyApis', () => {
    it('needs a package in force', async () => {
      const c = await registerCompany(t);
      const before = await commerceCounts(t);
      expect(await t.call(apiAccountCalls.applyApis, {}, { token: c.token })).toMatchObject({
        status: 400,
        code: '40022',
      });
      expect(await commerceCounts(t)).toEqual(before);
    });

    it('opens the first sub-account with every free slot, answering 申请成功, once', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const res = await t.call(apiAccountCalls.applyApis, {}, { token: c.token });
      expect(res).toMatchObject({ code: '200', message: '申请成功' });
      expect(res.data.created).toBe(true);
      expect(res.data.credentials.account).toMatchObject({
        name: '默认应用',
        availableNum: 5,
        usedNum: 0,
        status: 'active',
      });
      expect(res.data.credentials.account.appKey).toMatch(/^ak_[0-9a-f]{20}$/);
      expect(res.data.credentials.appSecret).toMatch(/^sk_[\w-]{32}$/);
      const again = await t.call(apiAccountCalls.applyApis, {}, { token: c.token });
      expect(again.data).toEqual({ created: false, credentials: null });
      const both = await Promise.all(
        [1, 2].map(() => t.call(apiAccountCalls.applyApis, {}, { token: c.token })),
      );
      expect(both.every((r) => r.data.created === false)).toBe(true);
      expect((await t.call(apiAccountCalls.queryApiAccount, {}, { token: c.token })).data.list).toHaveLength(
        1,
      );
    });

    it('a double click on a new company opens one sub-account', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const results = await Promise.all(
        [1, 2, 3].map(() => t.call(apiAccountCalls.applyApis, {}, { token: c.token })),
      );
      expect(results.filter((r) => r.data.created)).toHaveLength(1);
      expect((await t.call(apiAccountCalls.queryApiAccount, {}, { token: c.token })).data.list).toHaveLength(
        1,
      );
    });
  });

  describe('open, secret, list', () => {
    it('shows the secret once and stores only its hash', async () => {
      const c = await payingCompany(t, cat.business.id);
      const res = await open(c.token, '客服机器人', 3);
      expect(res.code).toBe('200');
      const { account, appSecret } = res.data;
      const row = await t.database.db
        .selectFrom('api_accounts')
        .selectAll()
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(sha256(appSecret));
      const list = await t.call(apiAccountCalls.queryApiAccount, {}, { token: c.token });
      expect(JSON.stringify(list.data)).not.toContain(appSecret);
      expect(JSON.stringify(list.data)).not.toContain(row.secret_hash);
      expect(list.data).toMatchObject({ totalSlots: 20, allocatedSlots: 3, freeSlots: 17 });

      const reset = await t.call(apiAccountCalls.resetApiSecret, { id: account.id }, { token: c.token });
      expect(reset.data.appSecret).not.toBe(appSecret);
      const after = await t.database.db
        .selectFrom('api_accounts')
        .select('secret_hash')
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect(after.secret_hash).toBe(sha256(reset.data.appSecret));
    });

    it('refuses allocating more than the free slots, with the numbers in the message', async () => {
      const c = await payingCompany(t, cat.basic.id);
      await open(c.token, '甲', 4);
      const before = await commerceCounts(t);
      const res = await open(c.token, '乙', 2);
      expect(res).toMatchObject({ status: 400, code: '40020' });
      expect(res.message).toBe('可分配额度不足：套餐共 5 个，其他子账号已分配 4 个，最多还能分配 1 个');
      expect(await commerceCounts(t)).toEqual(before);
      const none = await registerCompany(t);
      const noPkg = await open(none.token, '丙', 1);
      expect(noPkg).toMatchObject({ code: '40020', message: '暂无有效套餐，无法分配账号额度，请先购买套餐' });
      expect((await open(none.token, '可以零额度')).code).toBe('200');
    });

    it('rejects bad input with a clear 400 and writes nothing', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const before = await commerceCounts(t);
      const cases: unknown[] = [
        { name: '', availableNum: 0 },
        { name: 'x'.repeat(31) },
        { name: 'ok', availableNum: -1 },
        { name: 'ok', availableNum: 1.5 },
        { name: 'ok', availableNum: 10_001 },
        { name: 'ok', availableNum: '1' },
        { name: 'ok', callbackUrl: 'ftp://example.com/cb' },
        { name: 'ok', callbackUrl: 'not a url' },
        { name: 'ok', secret: 'mine' },
      ];
      for (const payload of cases) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await t.call(apiAccountCalls.openApiAccount, payload as any, { token: c.token });
        expect(res.status, JSON.stringify(payload)).toBe(400);
        expect(res.code).toBe('400');
      }
      expect(await commerceCounts(t)).toEqual(before);
    });
  });

  describe('allocation', () => {
    it('raises within the quota, lowers freely, and never exceeds it', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const a = (await open(c.token, 'A', 2)).data.account;
      const b = (await open(c.token, 'B', 1)).data.account;
      expect(
        (await t.call(apiAccountCalls.updateAvailableNum, { id: a.id, availableNum: 4 }, { token: c.token }))
          .data.availableNum,
      ).toBe(4);
      const over = await t.call(
        apiAccountCalls.updateAvailableNum,
        { id: b.id, availableNum: 2 },
        { token: c.token },
      );
      expect(over).toMatchObject({ status: 400, code: '40020' });
      expect(
        (await t.call(apiAccountCalls.updateAvailableNum, { id: a.id, availableNum: 0 }, { token: c.token }))
          .data.availableNum,
      ).toBe(0);
      expect(
        (await t.call(apiAccountCalls.updateAvailableNum, { id: b.id, availableNum: 5 }, { token: c.token }))
          .data.availableNum,
      ).toBe(5);
    });

    it('two simultaneous allocations can never exceed the quota', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const ids = [];
      for (const name of ['一', '二', '三', '四']) ids.push((await open(c.token, name)).data.account.id);
      const results = await Promise.all(
        ids.map((id) =>
          t.call(apiAccountCalls.updateAvailableNum, { id, availableNum: 3 }, { token: c.token }),
        ),
      );
      expect(results.filter((r) => r.code === '200')).toHaveLength(1);
      expect(results.filter((r) => r.code === '40020')).toHaveLength(3);
      const list = await t.call(apiAccountCalls.queryApiAccount, {}, { token: c.token });
      expect(list.data.allocatedSlots).toBe(3);
    });

    it('when the package lapses, allocations may only go down', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const a = (await open(c.token, 'A', 3)).data.account;
      await t.database.db
        .updateTable('subscriptions')
        .set({ ends_at: Date.now() - DAY })
        .where('company_id', '=', c.user.id)
        .execute();
      const list = await t.call(apiAccountCalls.queryApiAccount, {}, { token: c.token });
      expect(list.data).toMatchObject({ totalSlots: 0, allocatedSlots: 3, freeSlots: 0 });
      expect(
        (await t.call(apiAccountCalls.updateAvailableNum, { id: a.id, availableNum: 4 }, { token: c.token }))
          .code,
      ).toBe('40020');
      expect(
        (await t.call(apiAccountCalls.updateAvailableNum, { id: a.id, availableNum: 1 }, { token: c.token }))
          .code,
      ).toBe('200');
    });
  });

  describe('recovery', () => {
    it('returns the slots, stops listing it by default, and refuses a second reclaim', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const a = (await open(c.token, '要回收的', 5)).data.account;
      const res = await t.call(apiAccountCalls.recoveryApiAccount, { id: a.id }, { token: c.token });
      expect(res.data).toMatchObject({ status: 'recovered', availableNum: 0 });
      expect(res.data.recoveredAt).toBeGreaterThan(0);
      const list = await t.call(apiAccountCalls.queryApiAccount, {}, { token: c.token });
      expect(list.data).toMatchObject({ list: [], freeSlots: 5 });
      const all = await t.call(
        apiAccountCalls.queryApiAccount,
        { includeRecovered: true },
        { token: c.token },
      );
      expect(all.data.list).toHaveLength(1);
      const before = await commerceCounts(t);
      expect(
        await t.call(apiAccountCalls.recoveryApiAccount, { id: a.id }, { token: c.token }),
      ).toMatchObject({ status: 409, message: '该子账号已回收' });
      expect(
        await t.call(apiAccountCalls.updateAvailableNum, { id: a.id, availableNum: 1 }, { token: c.token }),
      ).toMatchObject({ status: 409 });
      expect(await t.call(apiAccountCalls.resetApiSecret, { id: a.id }, { token: c.token })).toMatchObject({
        status: 409,
      });
      expect(
        await t.call(apiAccountCalls.updateApiAccount, { id: a.id, name: '复活' }, { token: c.token }),
      ).toMatchObject({ status: 409 });
      expect(await commerceCounts(t)).toEqual(before);
    });
  });

  describe('tenant isolation', () => {
    it('another company’s sub-account ids answer not-found and change nothing', async () => {
      const owner = await payingCompany(t, cat.basic.id);
      const intruder = await payingCompany(t, cat.basic.id);
      const a = (await open(owner.token, '别人的', 2)).data.account;
      const rowBefore = await t.database.db
        .selectFrom('api_accounts')
        .selectAll()
        .where('id', '=', a.id)
        .executeTakeFirstOrThrow();
      const calls = [
        t.call(apiAccountCalls.updateAvailableNum, { id: a.id, availableNum: 1 }, { token: intruder.token }),
        t.call(apiAccountCalls.recoveryApiAccount, { id: a.id }, { token: intruder.token }),
        t.call(apiAccountCalls.resetApiSecret, { id: a.id }, { token: intruder.token }),
        t.call(apiAccountCalls.updateApiAccount, { id: a.id, name: '抢来的' }, { token: intruder.token }),
      ];
      for (const res of await Promise.all(calls))
        expect(res).toMatchObject({ status: 404, code: '404', message: '子账号不存在' });
      const rowAfter = await t.database.db
        .selectFrom('api_accounts')
        .selectAll()
        .where('id', '=', a.id)
        .executeTakeFirstOrThrow();
      expect(rowAfter).toEqual(rowBefore);
      expect(
        (await t.call(apiAccountCalls.queryApiAccount, {}, { token: intruder.token })).data.list,
      ).toEqual([]);
    });
  });

  describe('callback URLs and company settings', () => {
    it('refuses loopback, private, link-local and non-http targets; accepts public ones; null clears', async () => {
      const c = await payingCompany(t, cat.basic.id);
      const a = (await open(c.token, '回调测试')).data.account;
      for (const url of [
        'http://127.0.0.1/cb',
        'http://localhost:3000/cb',
        'http://10.0.0.8/cb',
        'http://192.168.1.10/cb',
        'http://172.20.0.1/cb',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/cb',
        'http://0.0.0.0/cb',
        'http://user:pw@203.0.113.10/cb',
      ]) {
        const res = await t.call(
          apiAccountCalls.updateApiAccount,
          { id: a.id, callbackUrl: url },
          { token: c.token },
        );
        expect(res.status, url).toBe(400);
      }
      const ok = await t.call(
        apiAccountCalls.updateApiAccount,
        { id: a.id, callbackUrl: 'https://203.0.113.10/wx/cb' },
        { token: c.token },
      );
      expect(ok.data.callbackUrl).toBe('https://203.0.113.10/wx/cb');
      const cleared = await t.call(
        apiAccountCalls.updateApiAccount,
        { id: a.id, callbackUrl: null },
        { token: c.token },
      );
      expect(cleared.data.callbackUrl).toBeNull();
      expect((await open(c.token, '私网回调', 0, 'http://10.1.2.3/cb')).status).toBe(400);
    });

    it('saves the company default callback and a deduplicated IP allow-list', async () => {
      const c = await registerCompany(t);
      expect((await t.call(apiAccountCalls.getConfigCompanyInfo, {}, { token: c.token })).data).toEqual({
        defaultCallbackUrl: null,
        ipAllowlist: [],
      });
      const saved = await t.call(
        apiAccountCalls.configCompanyInfo,
        {
          defaultCallbackUrl: 'https://203.0.113.7/cb',
          ipAllowlist: ['203.0.113.5', '198.51.100.0/24', '203.0.113.5'],
        },
        { token: c.token },
      );
      expect(saved.data).toEqual({
        defaultCallbackUrl: 'https://203.0.113.7/cb',
        ipAllowlist: ['203.0.113.5', '198.51.100.0/24'],
      });
      expect((await t.call(apiAccountCalls.getConfigCompanyInfo, {}, { token: c.token })).data).toEqual(
        saved.data,
      );
      for (const bad of [
        { defaultCallbackUrl: 'http://127.0.0.1/x', ipAllowlist: [] },
        { defaultCallbackUrl: null, ipAllowlist: ['999.1.1.1'] },
        { defaultCallbackUrl: null, ipAllowlist: ['10.0.0.0/33'] },
        { defaultCallbackUrl: null, ipAllowlist: Array.from({ length: 51 }, (_, i) => `203.0.113.${i}`) },
      ]) {
        expect(
          (await t.call(apiAccountCalls.configCompanyInfo, bad, { token: c.token })).status,
          JSON.stringify(bad).slice(0, 80),
        ).toBe(400);
      }
      expect((await t.call(apiAccountCalls.getConfigCompanyInfo, {}, { token: c.token })).data).toEqual(
        saved.data,
      );
    });
  });

  it('openService reports API access once a sub-account exists', async () => {
    const c = await registerCompany(t);
    await buyAndPay(t, c.token, cat.basic.id);
    await t.call(apiAccountCalls.applyApis, {}, { token: c.token });
    const res = await t.call(packageCalls.openService, {}, { token: c.token });
    expect(res.data).toMatchObject({ apiOpened: true, subAccountCount: 1 });
  });
});
