import {
  apiAccountCalls,
  messagingCalls,
  onboardingCalls,
  realNameCalls,
  SUPPORT_VIEW_HEADER,
} from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';
import { loginAccount, MESSAGING_ENV } from './messaging-helpers.js';
import { bothImages, upload } from './realname-helpers.js';

describe.each(dialects)('开始使用: the first-day checklist (%s)', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof setUpCatalogue>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV, { app: { callbackWorker: false } });
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());

  const doneSteps = async (token: string) => {
    const res = await t.call(onboardingCalls.gettingStarted, {}, { token });
    expect(res.code).toBe('200');
    return {
      done: res.data.steps.filter((s: { done: boolean }) => s.done).map((s: { key: string }) => s.key),
      allDone: res.data.allDone as boolean,
    };
  };

  it('ticks each step from the records it leaves, in order, until all are done', async () => {
    const c = await registerCompany(t);
    expect(await doneSteps(c.token)).toEqual({ done: [], allDone: false });

    await buyAndPay(t, c.token, cat.basic.id);
    expect((await doneSteps(c.token)).done).toEqual(['package']);

    const opened = await t.call(
      apiAccountCalls.openApiAccount,
      { name: '机器人', availableNum: 2 },
      { token: c.token },
    );
    expect((await doneSteps(c.token)).done).toEqual(['package', 'subAccount']);

    const { account } = await loginAccount(t, { token: c.token }, { subAccountId: opened.data.account.id });
    expect((await doneSteps(c.token)).done).toEqual(['package', 'subAccount', 'login']);

    const book = await t.call(messagingCalls.getAddressList, { wxid: account.wxid }, { token: c.token });
    const friend = book.data.list.find((x: { kind: string }) => x.kind === 'friend').wxid;
    const sent = await t.call(
      messagingCalls.sendMsgText,
      { wxid: account.wxid, toWxid: friend, content: '你好' },
      { token: c.token },
    );
    expect(sent.code).toBe('200');
    expect((await doneSteps(c.token)).done).toEqual(['package', 'subAccount', 'login', 'message']);

    const config = await t.call(
      apiAccountCalls.configCompanyInfo,
      { defaultCallbackUrl: 'https://203.0.113.10/wx/cb', ipAllowlist: [] },
      { token: c.token },
    );
    expect(config.code).toBe('200');
    expect((await doneSteps(c.token)).done).toEqual([
      'package',
      'subAccount',
      'login',
      'message',
      'callback',
    ]);

    expect((await upload(t, '/api/uploadRealNameSource', c.token, bothImages())).code).toBe('200');
    expect((await doneSteps(c.token)).allDone).toBe(false); // under review is not done
    const pass = await t.call(
      realNameCalls.passRealNameAuth,
      { userId: c.user.id },
      { token: cat.admin.token },
    );
    expect(pass.code).toBe('200');
    expect(await doneSteps(c.token)).toEqual({
      done: ['package', 'subAccount', 'login', 'message', 'callback', 'realName'],
      allDone: true,
    });
  });

  it('one company never sees another’s progress; an operator sees it only in the support view', async () => {
    const a = await registerCompany(t);
    await buyAndPay(t, a.token, cat.basic.id);
    const b = await registerCompany(t);
    expect((await doneSteps(b.token)).done).toEqual([]);
    expect(await t.call(onboardingCalls.gettingStarted, {}, { token: cat.admin.token })).toMatchObject({
      code: '40300',
    });
    const viewed = await t.call(
      onboardingCalls.gettingStarted,
      {},
      { token: cat.admin.token, headers: { [SUPPORT_VIEW_HEADER]: a.user.id } },
    );
    expect(viewed.data.steps[0]).toEqual({ key: 'package', done: true });
  });
});
