import { authCalls, OK_CODE, PASSWORD_RULE_TEXT, SMS_CODE_MAX_ATTEMPTS } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ageSms,
  createTestApp,
  dialects,
  lastCode,
  PASSWORD,
  registerCompany,
  sendCode,
  type TestApp,
  tableCounts,
  uniquePhone,
  wrongCode,
} from './helpers.js';

describe.each(dialects)('register (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const form = (phone: string, verifyCode: string, extra: Record<string, unknown> = {}) => ({
    companyName: '注册测试有限公司',
    companyAccount: phone,
    password: PASSWORD,
    checkPassword: PASSWORD,
    verifyCode,
    readMsg: true as const,
    ...extra,
  });

  /** A fresh number with a register code sent to it. */
  async function withCode(): Promise<{ phone: string; code: string }> {
    const phone = uniquePhone();
    return { phone, code: await sendCode(t, phone, 'register', { ip: `10.40.${phone.slice(-4, -2)}.1` }) };
  }

  it('registers, logs in and returns token and user info (accountType 1, realNameUser 0, customer)', async () => {
    const { phone, code } = await withCode();
    const res = await t.call(authCalls.register, form(phone, code));
    expect(res).toMatchObject({ status: 200, code: '200', message: '成功' });
    expect(res.data.token).toMatch(/^[\w-]{40,}$/);
    expect(res.data.userInfo).toEqual({
      id: expect.stringMatching(/^[\w-]{16}$/),
      companyName: '注册测试有限公司',
      companyAccount: phone,
      userName: phone,
      accountType: 1,
      realNameUser: 0,
      serverFlag: 'test',
      roles: ['customer'],
    });
    const me = await t.call(authCalls.refreshLoginInfo, {}, { token: res.data.token });
    expect(me.data).toEqual(res.data.userInfo);

    const user = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('account', '=', phone)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.password_hash).not.toContain(PASSWORD);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['register']);
    expect(audit[0]!.detail).not.toContain(code);
    // The code is used up.
    const sms = await t.database.db
      .selectFrom('sms_codes')
      .select('consumed_at')
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(sms.consumed_at).not.toBeNull();
  });

  it.each([1, 2, 3, 4])('extAccountType %i becomes accountType', async (type) => {
    const { phone, code } = await withCode();
    const res = await t.call(authCalls.register, form(phone, code, { extAccountType: type }));
    expect(res.data.userInfo.accountType).toBe(type);
  });

  it('trims the company name and the number', async () => {
    const { phone, code } = await withCode();
    const res = await t.call(
      authCalls.register,
      form(` ${phone} `, ` ${code} `, { companyName: '  空格公司  ' }),
    );
    expect(res.code).toBe('200');
    expect(res.data.userInfo).toMatchObject({ companyName: '空格公司', companyAccount: phone });
  });

  it(`a wrong code is 40011 with the tries left; ${SMS_CODE_MAX_ATTEMPTS} wrong tries burn it`, async () => {
    const { phone, code } = await withCode();
    const before = await tableCounts(t.database);
    for (let left = SMS_CODE_MAX_ATTEMPTS - 1; left >= 1; left--) {
      const res = await t.call(authCalls.register, form(phone, wrongCode(code)));
      expect(res).toMatchObject({
        status: 400,
        code: '40011',
        message: `短信验证码错误，还可尝试 ${left} 次`,
      });
    }
    const last = await t.call(authCalls.register, form(phone, wrongCode(code)));
    expect(last).toMatchObject({ status: 400, code: '40012' });
    expect(last.message).toContain('错误次数过多');
    // Burned: now even the right code fails.
    const right = await t.call(authCalls.register, form(phone, code));
    expect(right.status).toBe(400);
    expect(['40011', '40012']).toContain(right.code);
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('an expired code is 40012', async () => {
    const { phone, code } = await withCode();
    await t.database.db
      .updateTable('sms_codes')
      .set({ expires_at: Date.now() - 1 })
      .where('phone', '=', phone)
      .execute();
    const before = await tableCounts(t.database);
    const res = await t.call(authCalls.register, form(phone, code));
    expect(res).toMatchObject({ status: 400, code: '40012', message: '短信验证码已失效，请重新获取' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('no code sent yet is 40011 asking for one', async () => {
    const before = await tableCounts(t.database);
    const res = await t.call(authCalls.register, form(uniquePhone(), '123456'));
    expect(res).toMatchObject({ status: 400, code: '40011', message: '请先获取短信验证码' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('a code sent to another number, or for another scene, does not register', async () => {
    const a = await withCode();
    const b = await withCode();
    const before = await tableCounts(t.database);
    expect(await t.call(authCalls.register, form(b.phone, a.code))).toMatchObject({ code: '40011' });

    // A changePhone code sent to a free number is not a register code for it.
    const owner = await registerCompany(t);
    const free = uniquePhone();
    const before2 = await tableCounts(t.database);
    const changeCode = await sendCode(t, free, 'changePhone', { token: owner.token, ip: '10.41.0.1' });
    const res = await t.call(authCalls.register, form(free, changeCode));
    expect(res).toMatchObject({ status: 400, code: '40011', message: '请先获取短信验证码' });
    expect(await tableCounts(t.database)).toEqual({ ...before2, sms_codes: before2.sms_codes + 1 });
    expect((await tableCounts(t.database)).users).toBe(before.users + 1);
  });

  it('a newer code replaces the older one', async () => {
    const { phone, code: first } = await withCode();
    await ageSms(t, phone, 61_000);
    const second = await sendCode(t, phone, 'register', { ip: '10.42.0.1' });
    if (second === first) return; // one in a million
    expect(await t.call(authCalls.register, form(phone, first))).toMatchObject({ code: '40011' });
    expect((await t.call(authCalls.register, form(phone, second))).code).toBe('200');
  });

  it('a code burned by wrong tries does not bring an older code back to life', async () => {
    const { phone, code: first } = await withCode();
    await ageSms(t, phone, 61_000);
    const second = await sendCode(t, phone, 'register', { ip: '10.42.0.2' });
    let wrong = wrongCode(second);
    if (wrong === first) wrong = wrongCode(wrong);
    for (let i = 0; i < SMS_CODE_MAX_ATTEMPTS; i++) {
      await t.call(authCalls.register, form(phone, wrong));
    }
    const before = await tableCounts(t.database);
    const res = await t.call(authCalls.register, form(phone, first));
    expect(res.status).toBe(400);
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('a duplicate account is 40901 and writes nothing', async () => {
    const { phone, code } = await withCode();
    expect((await t.call(authCalls.register, form(phone, code))).code).toBe('200');
    const before = await tableCounts(t.database);
    const again = await t.call(authCalls.register, form(phone, code, { companyName: '第二家公司' }));
    expect(again).toMatchObject({ status: 409, code: '40901', message: '该手机号已注册，请直接登录' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('two simultaneous registrations of one number make exactly one account', async () => {
    const { phone, code } = await withCode();
    const results = await Promise.all([
      t.call(authCalls.register, form(phone, code, { companyName: '并发一公司' })),
      t.call(authCalls.register, form(phone, code, { companyName: '并发二公司' })),
      t.call(authCalls.register, form(phone, code, { companyName: '并发三公司' })),
    ]);
    expect(results.filter((r) => r.code === '200')).toHaveLength(1);
    for (const r of results.filter((r) => r.code !== OK_CODE)) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    const users = await t.database.db.selectFrom('users').select('id').where('account', '=', phone).execute();
    expect(users).toHaveLength(1);
  });

  it('password rules: violations are 400 with the rule stated, and the code is not spent', async () => {
    const { phone, code } = await withCode();
    const before = await tableCounts(t.database);
    for (const password of ['abc1234', 'abcdefghij', '1234567890', `${'a1'.repeat(16)}x`, '', '        ']) {
      const res = await t.call(authCalls.register, form(phone, code, { password, checkPassword: password }));
      expect(res.status, password).toBe(400);
      expect(res.code).toBe('400');
      expect(res.message, password).toBe(`password：${PASSWORD_RULE_TEXT}`);
    }
    // 8 and 32 characters are fine.
    expect(await tableCounts(t.database)).toEqual(before);
    const max = `${'a1'.repeat(16)}`;
    const ok = await t.call(authCalls.register, form(phone, code, { password: max, checkPassword: max }));
    expect(ok.code).toBe('200');
  });

  it('rejects bad register input with a 400 naming the field, writing nothing and sparing the code', async () => {
    const { phone, code } = await withCode();
    const good = form(phone, code);
    const { readMsg: _r, ...noReadMsg } = good;
    const { companyName: _c, ...noCompanyName } = good;
    const { verifyCode: _v, ...noCode } = good;
    const before = await tableCounts(t.database);
    const cases: [unknown, RegExp][] = [
      [{ ...good, checkPassword: 'other123abc' }, /^checkPassword：两次输入的密码不一致$/],
      [{ ...good, checkPassword: undefined }, /^checkPassword：/],
      [{ ...good, readMsg: false }, /^readMsg：请阅读并同意服务协议$/],
      [noReadMsg, /^readMsg：/],
      [{ ...good, readMsg: 'true' }, /^readMsg：/],
      [{ ...good, companyName: 'A' }, /^companyName：公司名称至少 2 个字符$/],
      [{ ...good, companyName: '  A  ' }, /^companyName：公司名称至少 2 个字符$/],
      [{ ...good, companyName: '公'.repeat(51) }, /^companyName：公司名称不能超过 50 个字符$/],
      [noCompanyName, /^companyName：/],
      [{ ...good, companyName: 12345 }, /^companyName：/],
      [{ ...good, companyAccount: '12345' }, /^companyAccount：请输入正确的 11 位手机号$/],
      [{ ...good, companyAccount: Number(phone) }, /^companyAccount：/],
      [{ ...good, verifyCode: '12345' }, /^verifyCode：短信验证码为 6 位数字$/],
      [{ ...good, verifyCode: '12345a' }, /^verifyCode：/],
      [{ ...good, verifyCode: 123456 }, /^verifyCode：/],
      [noCode, /^verifyCode：/],
      [{ ...good, password: 'x'.repeat(1000), checkPassword: 'x'.repeat(1000) }, /^password：/],
      [{ ...good, inviteCode: 'abc' }, /^不支持的参数：inviteCode$/],
      [{ ...good, role: 'admin' }, /^不支持的参数：role$/],
      [[good], /./],
      ['text', /./],
    ];
    for (const [payload, message] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      const res = await t.call(authCalls.register, payload as any);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.code).toBe('400');
      expect(res.message, JSON.stringify(payload)).toMatch(message);
    }
    const empty = await t.app.inject({ method: 'POST', url: authCalls.register.path });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ code: '400', message: '请求体不能为空', data: null });

    expect(await tableCounts(t.database)).toEqual(before);
    // None of that spent a try of the code.
    expect((await t.call(authCalls.register, good)).code).toBe('200');
  });

  it('a wrong-typed field is reported as wrong, not as missing', async () => {
    const { phone, code } = await withCode();
    const cases: [unknown, string][] = [
      [form(phone, code, { companyAccount: Number(phone) }), 'companyAccount'],
      [form(phone, code, { companyName: 12345 }), 'companyName'],
      [form(phone, code, { verifyCode: Number(code) }), 'verifyCode'],
    ];
    for (const [payload, field] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong types
      const res = await t.call(authCalls.register, payload as any);
      expect(res.status).toBe(400);
      expect(res.message.startsWith(`${field}：`), res.message).toBe(true);
      expect(res.message, field).not.toContain('缺少必填参数');
    }
  });

  it('an invalid extAccountType names the field and says which values are allowed', async () => {
    const { phone, code } = await withCode();
    const before = await tableCounts(t.database);
    for (const extAccountType of [5, 0, '1', null]) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately invalid
      const res = await t.call(authCalls.register, form(phone, code, { extAccountType }) as any);
      expect(res, JSON.stringify(extAccountType)).toMatchObject({
        status: 400,
        code: '400',
        message: 'extAccountType：接入方式只能是 1(SaaS)、2(本地)、3(托管) 或 4(私有化)',
      });
    }
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('lowercase letters, uppercase and symbols all count for the password rule', async () => {
    const { phone, code } = await withCode();
    const password = 'PASS-WORD-9';
    const res = await t.call(authCalls.register, form(phone, code, { password, checkPassword: password }));
    expect(res.code).toBe('200');
    const again = await t.call(authCalls.login, {
      companyAccount: phone,
      password,
      captchaId: 'x',
      captchaCode: 'pass',
    });
    expect(again.code).toBe('200');
    expect(lastCode(t, phone)).toBe(code);
  });
});
