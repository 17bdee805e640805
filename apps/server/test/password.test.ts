import { authCalls, PASSWORD_RULE_TEXT } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ageSms,
  createAdmin,
  createTestApp,
  dialects,
  loginToken,
  registerCompany,
  sendCode,
  type TestApp,
  tableCounts,
  uniquePhone,
  wrongCode,
} from './helpers.js';

const NEW_PASSWORD = 'brand-new-pass9';

describe.each(dialects)('resetPassword (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A company whose registration code is old enough that a reset code may be sent at once. */
  async function company() {
    const c = await registerCompany(t);
    await ageSms(t, c.phone, 24 * 3_600_000 + 1);
    return c;
  }
  const bySms = (companyAccount: string, verifyCode: string, password = NEW_PASSWORD) => ({
    companyAccount,
    verifyCode,
    password,
    checkPassword: password,
  });
  const me = (token: string) => t.call(authCalls.refreshLoginInfo, {}, { token });

  describe('by SMS code (logged out)', () => {
    it('sets the new password, the old one stops working, every session is revoked', async () => {
      const c = await company();
      const second = (await loginToken(t, c.phone, c.password)).data.token;
      const code = await sendCode(t, c.phone, 'resetPassword');
      const res = await t.call(authCalls.resetPassword, bySms(c.phone, code));
      expect(res).toMatchObject({ status: 200, code: '200', data: null });

      expect(await loginToken(t, c.phone, c.password)).toMatchObject({ code: '40013' });
      const fresh = await loginToken(t, c.phone, NEW_PASSWORD);
      expect(fresh.code).toBe('200');
      expect(await me(c.token)).toMatchObject({ status: 401, code: '403' });
      expect(await me(second)).toMatchObject({ status: 401, code: '403' });
      expect((await me(fresh.data.token)).code).toBe('200');

      const audit = await t.database.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('user_id', '=', c.user.id)
        .where('action', '=', 'password.reset')
        .execute();
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.detail)).toEqual({ by: 'sms' });
      expect(audit[0]!.detail).not.toContain(NEW_PASSWORD);
    });

    it('the code is single use', async () => {
      const c = await company();
      const code = await sendCode(t, c.phone, 'resetPassword');
      expect((await t.call(authCalls.resetPassword, bySms(c.phone, code))).code).toBe('200');
      const again = await t.call(authCalls.resetPassword, bySms(c.phone, code, 'third-pass-1234'));
      expect(again).toMatchObject({ status: 400, code: '40012' });
      expect((await loginToken(t, c.phone, NEW_PASSWORD)).code).toBe('200');
    });

    it('clears a login lockout', async () => {
      const c = await company();
      for (let i = 0; i < 5; i++) await loginToken(t, c.phone, 'wrong-pass-1', '10.50.0.1');
      expect((await loginToken(t, c.phone, c.password, '10.50.0.2')).code).toBe('42903');
      const code = await sendCode(t, c.phone, 'resetPassword');
      expect((await t.call(authCalls.resetPassword, bySms(c.phone, code))).code).toBe('200');
      expect((await loginToken(t, c.phone, NEW_PASSWORD, '10.50.0.3')).code).toBe('200');
    });

    it('a wrong, expired, register-scene or missing code changes nothing', async () => {
      const c = await company();
      const code = await sendCode(t, c.phone, 'resetPassword');
      const before = await tableCounts(t.database);
      const wrong = await t.call(authCalls.resetPassword, bySms(c.phone, wrongCode(code)));
      expect(wrong).toMatchObject({ status: 400, code: '40011', message: '短信验证码错误，还可尝试 4 次' });

      await t.database.db
        .updateTable('sms_codes')
        .set({ expires_at: Date.now() - 1 })
        .where('phone', '=', c.phone)
        .where('scene', '=', 'resetPassword')
        .execute();
      const expired = await t.call(authCalls.resetPassword, bySms(c.phone, code));
      expect(expired).toMatchObject({ status: 400, code: '40012' });

      // The registration code (scene register) is not a reset code.
      const other = await registerCompany(t);
      const before2 = await tableCounts(t.database);
      const registerCode = t.outbox.find((m) => m.phone === other.phone && m.scene === 'register')!.code;
      const wrongScene = await t.call(authCalls.resetPassword, bySms(other.phone, registerCode));
      expect(wrongScene).toMatchObject({ status: 400, code: '40011', message: '请先获取短信验证码' });

      expect(await tableCounts(t.database)).toEqual(before2);
      expect(before2.users).toBe(before.users + 1);
      expect((await loginToken(t, c.phone, c.password)).code).toBe('200');
      expect((await loginToken(t, other.phone, other.password)).code).toBe('200');
    });

    it('an unregistered number or an operator account is 40015', async () => {
      const admin = await createAdmin(t, { account: '13700000002' });
      const before = await tableCounts(t.database);
      for (const account of [uniquePhone(), admin.account]) {
        const res = await t.call(authCalls.resetPassword, bySms(account, '123456'));
        expect(res).toMatchObject({ status: 400, code: '40015', message: '该手机号尚未注册' });
      }
      expect(await tableCounts(t.database)).toEqual(before);
    });

    it('a caller logged in as the same account keeps that session; others are revoked', async () => {
      const c = await company();
      const second = (await loginToken(t, c.phone, c.password)).data.token;
      const code = await sendCode(t, c.phone, 'resetPassword');
      const res = await t.call(authCalls.resetPassword, bySms(c.phone, code), { token: c.token });
      expect(res.code).toBe('200');
      expect((await me(c.token)).code).toBe('200');
      expect((await me(second)).code).toBe('403');
    });
  });

  describe('by old password (logged in)', () => {
    const byOld = (oldPassword: string, password = NEW_PASSWORD) => ({
      oldPassword,
      password,
      checkPassword: password,
    });

    it('changes the password, keeps the caller logged in and revokes other sessions', async () => {
      const c = await company();
      const second = (await loginToken(t, c.phone, c.password)).data.token;
      const res = await t.call(authCalls.resetPassword, byOld(c.password), { token: c.token });
      expect(res).toMatchObject({ status: 200, code: '200', data: null });
      expect((await me(c.token)).code).toBe('200');
      expect(await me(second)).toMatchObject({ status: 401, code: '403' });
      expect((await loginToken(t, c.phone, c.password)).code).toBe('40013');
      expect((await loginToken(t, c.phone, NEW_PASSWORD)).code).toBe('200');
      const audit = await t.database.db
        .selectFrom('audit_log')
        .select('detail')
        .where('user_id', '=', c.user.id)
        .where('action', '=', 'password.reset')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.detail)).toEqual({ by: 'oldPassword' });
    });

    it('does not touch other accounts', async () => {
      const a = await company();
      const b = await company();
      expect((await t.call(authCalls.resetPassword, byOld(a.password), { token: a.token })).code).toBe('200');
      expect((await me(b.token)).code).toBe('200');
      expect((await loginToken(t, b.phone, b.password)).code).toBe('200');
    });

    it('a wrong old password is 40014 and changes nothing', async () => {
      const c = await company();
      const before = await tableCounts(t.database);
      const res = await t.call(authCalls.resetPassword, byOld('not-my-pass-1'), { token: c.token });
      expect(res).toMatchObject({ status: 400, code: '40014', message: '原密码错误' });
      expect(await tableCounts(t.database)).toEqual(before);
      expect((await me(c.token)).code).toBe('200');
      expect((await loginToken(t, c.phone, c.password)).code).toBe('200');
    });

    it('the new password may not equal the old one', async () => {
      const c = await company();
      const before = await tableCounts(t.database);
      const res = await t.call(authCalls.resetPassword, byOld(c.password, c.password), { token: c.token });
      expect(res).toMatchObject({ status: 400, code: '400', message: 'password：新密码不能与原密码相同' });
      expect(await tableCounts(t.database)).toEqual(before);
    });

    it('without a (valid) session it is "403" and changes nothing', async () => {
      const c = await company();
      await t.call(authCalls.logout, {}, { token: c.token });
      const before = await tableCounts(t.database);
      for (const token of [undefined, 'nope', c.token]) {
        const res = await t.call(authCalls.resetPassword, byOld(c.password), { token });
        expect(res).toMatchObject({ status: 401, code: '403' });
        expect(res.message).toContain('短信验证码');
      }
      expect(await tableCounts(t.database)).toEqual(before);
      expect((await loginToken(t, c.phone, c.password)).code).toBe('200');
    });
  });

  it('bad input: the message is about the form the caller meant, and nothing is written', async () => {
    const c = await company();
    const before = await tableCounts(t.database);
    const cases: [unknown, string | RegExp][] = [
      // SMS form
      [
        { companyAccount: c.phone, password: NEW_PASSWORD, checkPassword: NEW_PASSWORD },
        'verifyCode：缺少必填参数',
      ],
      [{ ...bySms(c.phone, '123456'), checkPassword: 'other-pass-1' }, 'checkPassword：两次输入的密码不一致'],
      [bySms(c.phone, '12345'), 'verifyCode：短信验证码为 6 位数字'],
      [bySms('1234', '123456'), 'companyAccount：请输入正确的 11 位手机号'],
      [bySms(c.phone, '123456', 'short1'), `password：${PASSWORD_RULE_TEXT}`],
      [bySms(c.phone, '123456', 'nodigitshere'), `password：${PASSWORD_RULE_TEXT}`],
      [{ ...bySms(c.phone, '123456'), extra: 1 }, '不支持的参数：extra'],
      // old-password form
      [{ oldPassword: c.password, password: NEW_PASSWORD }, 'checkPassword：缺少必填参数'],
      [{ oldPassword: c.password, password: 'abc', checkPassword: 'abc' }, `password：${PASSWORD_RULE_TEXT}`],
      [
        { oldPassword: c.password, password: NEW_PASSWORD, checkPassword: 'other-pass-1' },
        'checkPassword：两次输入的密码不一致',
      ],
      [{ oldPassword: '', password: NEW_PASSWORD, checkPassword: NEW_PASSWORD }, 'oldPassword：请输入密码'],
      [
        { oldPassword: 'x'.repeat(129), password: NEW_PASSWORD, checkPassword: NEW_PASSWORD },
        'oldPassword：密码过长',
      ],
      [{ password: NEW_PASSWORD, checkPassword: NEW_PASSWORD }, /缺少必填参数/],
      [{}, /缺少必填参数/],
    ];
    for (const [payload, message] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      const res = await t.call(authCalls.resetPassword, payload as any, { token: c.token });
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.code).toBe('400');
      if (typeof message === 'string') expect(res.message, JSON.stringify(payload)).toBe(message);
      else expect(res.message, JSON.stringify(payload)).toMatch(message);
    }
    const empty = await t.app.inject({ method: 'POST', url: authCalls.resetPassword.path });
    expect(empty.json()).toMatchObject({ code: '400', message: '请求体不能为空' });
    expect(await tableCounts(t.database)).toEqual(before);
  });
});
