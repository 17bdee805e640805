import { authCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  FIXED_CAPTCHA,
  registerCompany,
  solvedCaptcha,
  type TestApp,
  tableCounts,
} from './helpers.js';

describe.each(dialects)('login and sessions (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('logs in with a solved captcha and returns token, user info and roles', async () => {
    const company = await registerCompany(t, { companyName: '登录测试公司' });
    const captcha = await solvedCaptcha(t);
    const res = await t.call(authCalls.login, {
      companyAccount: company.phone,
      password: company.password,
      ...captcha,
    });
    expect(res.code).toBe('200');
    expect(res.data.token).toMatch(/^[\w-]{40,}$/);
    expect(res.data.userInfo).toMatchObject({
      companyName: '登录测试公司',
      companyAccount: company.phone,
      accountType: 1,
      realNameUser: 0,
      serverFlag: 'test',
      roles: ['customer'],
    });
    const me = await t.call(authCalls.refreshLoginInfo, {}, { token: res.data.token });
    expect(me.code).toBe('200');
    expect(me.data.id).toBe(company.user.id);
  });

  it('refuses a reused captcha', async () => {
    const company = await registerCompany(t);
    const captcha = await solvedCaptcha(t);
    const first = await t.call(authCalls.login, {
      companyAccount: company.phone,
      password: company.password,
      ...captcha,
    });
    expect(first.code).toBe('200');
    const again = await t.call(authCalls.login, {
      companyAccount: company.phone,
      password: company.password,
      ...captcha,
    });
    expect(again).toMatchObject({ status: 400, code: '40010' });
  });

  it('refuses a wrong password without saying whether the account exists', async () => {
    const company = await registerCompany(t);
    const wrong = await t.call(authCalls.login, {
      companyAccount: company.phone,
      password: 'wrong-password1',
      ...(await solvedCaptcha(t)),
    });
    const unknown = await t.call(authCalls.login, {
      companyAccount: '13000000001',
      password: 'wrong-password1',
      ...(await solvedCaptcha(t)),
    });
    expect(wrong).toMatchObject({ status: 400, code: '40013', message: '账号或密码错误' });
    expect(unknown).toMatchObject({ status: 400, code: '40013', message: '账号或密码错误' });
  });

  it('locks the account after 5 failures, even for the right password, with a message saying so', async () => {
    const company = await registerCompany(t);
    const ip = '10.9.0.1';
    for (let i = 0; i < 5; i++) {
      const res = await t.call(
        authCalls.login,
        {
          companyAccount: company.phone,
          password: 'bad-password1',
          captchaId: 'x',
          captchaCode: FIXED_CAPTCHA,
        },
        { ip },
      );
      expect(res.code).toBe('40013');
    }
    const locked = await t.call(
      authCalls.login,
      {
        companyAccount: company.phone,
        password: company.password,
        captchaId: 'x',
        captchaCode: FIXED_CAPTCHA,
      },
      { ip: '10.9.0.2' },
    );
    expect(locked).toMatchObject({ status: 429, code: '42903' });
    expect(locked.message).toMatch(/账号已锁定，请 \d+ 分钟后再试/);
  });

  it('checks at most 5 passwords per account however many wrong ones arrive at once', async () => {
    const company = await registerCompany(t);
    const burst = (from: number) =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.call(
            authCalls.login,
            {
              companyAccount: company.phone,
              password: `bad-password${from + i}`,
              captchaId: 'x',
              captchaCode: FIXED_CAPTCHA,
            },
            // Forty addresses, so the per-address limit is not what stops them.
            { ip: `10.9.2.${from + i + 1}` },
          ),
        ),
      );
    const codes = [...(await burst(0)), ...(await burst(20))].map((a) => a.code);
    // "40013": the password was checked (and wrong); "42903": it was never looked at.
    expect(codes.filter((c) => c !== '40013' && c !== '42903')).toEqual([]);
    expect(codes.filter((c) => c === '40013').length).toBeLessThanOrEqual(5);
  });

  it('locks an IP that fails against many accounts', async () => {
    const ip = '10.9.1.1';
    for (let i = 0; i < 20; i++) {
      await t.call(
        authCalls.login,
        {
          companyAccount: `1300000${String(i).padStart(4, '0')}`,
          password: 'bad-password1',
          captchaId: 'x',
          captchaCode: FIXED_CAPTCHA,
        },
        { ip },
      );
    }
    const company = await registerCompany(t);
    const res = await t.call(
      authCalls.login,
      {
        companyAccount: company.phone,
        password: company.password,
        captchaId: 'x',
        captchaCode: FIXED_CAPTCHA,
      },
      { ip },
    );
    expect(res).toMatchObject({ status: 429, code: '42903' });
    expect(res.message).toContain('当前网络');
  });

  it('answers "403" for a missing, unknown, revoked, idle-expired or absolutely-expired token', async () => {
    const company = await registerCompany(t);
    expect(await t.call(authCalls.refreshLoginInfo, {})).toMatchObject({ status: 401, code: '403' });
    expect(await t.call(authCalls.refreshLoginInfo, {}, { token: 'nope' })).toMatchObject({ code: '403' });

    const logout = await t.call(authCalls.logout, {}, { token: company.token });
    expect(logout.code).toBe('200');
    expect(await t.call(authCalls.refreshLoginInfo, {}, { token: company.token })).toMatchObject({
      code: '403',
    });

    const idle = await registerCompany(t);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: Date.now() - 121 * 60_000 })
      .where('user_id', '=', idle.user.id)
      .execute();
    expect(await t.call(authCalls.refreshLoginInfo, {}, { token: idle.token })).toMatchObject({
      code: '403',
    });

    const old = await registerCompany(t);
    await t.database.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', old.user.id)
      .execute();
    expect(await t.call(authCalls.refreshLoginInfo, {}, { token: old.token })).toMatchObject({ code: '403' });
  });

  it('accepts the token with or without the Bearer prefix', async () => {
    const company = await registerCompany(t);
    expect((await t.call(authCalls.refreshLoginInfo, {}, { token: `Bearer ${company.token}` })).code).toBe(
      '200',
    );
  });

  it('rejects bad login input with a 400 naming the field, writing nothing', async () => {
    const before = await tableCounts(t.database);
    const cases: [unknown, RegExp][] = [
      [{ password: 'x', captchaId: 'x', captchaCode: 'x' }, /companyAccount/],
      [
        { companyAccount: 'a', password: 'x', captchaId: 'x', captchaCode: 'x', extra: 1 },
        /不支持的参数：extra/,
      ],
      [{ companyAccount: 123, password: 'x', captchaId: 'x', captchaCode: 'x' }, /companyAccount/],
      [
        { companyAccount: 'a'.repeat(65), password: 'x', captchaId: 'x', captchaCode: 'x' },
        /companyAccount：账号不能超过 64 个字符/,
      ],
      [{ companyAccount: 'a', password: 'x'.repeat(129), captchaId: 'x', captchaCode: 'x' }, /password/],
      [{ companyAccount: 'a', password: 'x', captchaId: 'x' }, /captchaCode/],
    ];
    for (const [payload, message] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      const res = await t.call(authCalls.login, payload as any);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.code).toBe('400');
      expect(res.message).toMatch(message);
    }
    expect(await tableCounts(t.database)).toEqual(before);
  });
});
