import { authCalls } from '@wxc/contract';
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

describe.each(dialects)('profile: company name, user name, phone (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const me = (token: string) => t.call(authCalls.refreshLoginInfo, {}, { token });

  describe('updateCompanyInfo', () => {
    it('updates the company name and returns the user info', async () => {
      const c = await registerCompany(t);
      const res = await t.call(
        authCalls.updateCompanyInfo,
        { companyName: '  新名称科技  ' },
        { token: c.token },
      );
      expect(res).toMatchObject({ status: 200, code: '200' });
      expect(res.data).toEqual({ ...c.user, companyName: '新名称科技' });
      expect((await me(c.token)).data.companyName).toBe('新名称科技');
      const audit = await t.database.db
        .selectFrom('audit_log')
        .select('detail')
        .where('user_id', '=', c.user.id)
        .where('action', '=', 'company.update')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.detail)).toEqual({ companyName: '新名称科技' });
    });

    it('changes only the caller', async () => {
      const a = await registerCompany(t, { companyName: '甲公司' });
      const b = await registerCompany(t, { companyName: '乙公司' });
      await t.call(authCalls.updateCompanyInfo, { companyName: '甲公司改名' }, { token: a.token });
      expect((await me(b.token)).data.companyName).toBe('乙公司');
    });

    it('rejects bad input with a 400 naming companyName, and needs a session; nothing is written', async () => {
      const c = await registerCompany(t);
      const before = await tableCounts(t.database);
      const cases: [unknown, string][] = [
        [{}, 'companyName：缺少必填参数'],
        [{ companyName: 'A' }, 'companyName：公司名称至少 2 个字符'],
        [{ companyName: '   ' }, 'companyName：公司名称至少 2 个字符'],
        [{ companyName: 'x'.repeat(51) }, 'companyName：公司名称不能超过 50 个字符'],
        [{ companyName: '正常名称', id: c.user.id }, '不支持的参数：id'],
      ];
      for (const [payload, message] of cases) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await t.call(authCalls.updateCompanyInfo, payload as any, { token: c.token });
        expect(res, JSON.stringify(payload)).toMatchObject({ status: 400, code: '400', message });
      }
      // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong type
      const typed = await t.call(authCalls.updateCompanyInfo, { companyName: 42 } as any, { token: c.token });
      expect(typed).toMatchObject({ status: 400, code: '400' });
      expect(typed.message).toMatch(/^companyName：/);
      for (const token of [undefined, 'nope']) {
        const res = await t.call(authCalls.updateCompanyInfo, { companyName: '未登录公司' }, { token });
        expect(res).toMatchObject({ status: 401, code: '403' });
      }
      expect(await tableCounts(t.database)).toEqual(before);
      expect((await me(c.token)).data.companyName).toBe(c.user.companyName);
    });
  });

  describe('modUserName', () => {
    it('updates the user name and returns the user info', async () => {
      const c = await registerCompany(t);
      expect(c.user.userName).toBe(c.phone);
      const res = await t.call(authCalls.modUserName, { userName: ' 张三 ' }, { token: c.token });
      expect(res).toMatchObject({ status: 200, code: '200' });
      expect(res.data).toEqual({ ...c.user, userName: '张三' });
      expect((await me(c.token)).data.userName).toBe('张三');
      const thirty = '李'.repeat(30);
      expect(
        (await t.call(authCalls.modUserName, { userName: thirty }, { token: c.token })).data.userName,
      ).toBe(thirty);
    });

    it('rejects bad input with a 400 naming userName, and needs a session; nothing is written', async () => {
      const c = await registerCompany(t);
      const before = await tableCounts(t.database);
      const cases: [unknown, string][] = [
        [{}, 'userName：缺少必填参数'],
        [{ userName: '' }, 'userName：请输入用户名'],
        [{ userName: '  ' }, 'userName：请输入用户名'],
        [{ userName: 'x'.repeat(31) }, 'userName：用户名不能超过 30 个字符'],
        [{ userName: '张三', companyName: '顺便改名' }, '不支持的参数：companyName'],
      ];
      for (const [payload, message] of cases) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await t.call(authCalls.modUserName, payload as any, { token: c.token });
        expect(res, JSON.stringify(payload)).toMatchObject({ status: 400, code: '400', message });
      }
      for (const token of [undefined, 'nope']) {
        expect(await t.call(authCalls.modUserName, { userName: '张三' }, { token })).toMatchObject({
          status: 401,
          code: '403',
        });
      }
      expect(await tableCounts(t.database)).toEqual(before);
    });
  });

  describe('changePhone', () => {
    it('moves the login to the new number; other sessions are revoked, the caller stays', async () => {
      const c = await registerCompany(t);
      const second = (await loginToken(t, c.phone, c.password)).data.token;
      const phone = uniquePhone();
      const code = await sendCode(t, phone, 'changePhone', { token: c.token });
      const res = await t.call(authCalls.changePhone, { phone, verifyCode: code }, { token: c.token });
      expect(res).toMatchObject({ status: 200, code: '200' });
      expect(res.data).toEqual({ ...c.user, companyAccount: phone });

      expect((await me(c.token)).data.companyAccount).toBe(phone);
      expect(await me(second)).toMatchObject({ status: 401, code: '403' });
      expect((await loginToken(t, phone, c.password)).code).toBe('200');
      expect((await loginToken(t, c.phone, c.password)).code).toBe('40013');

      const audit = await t.database.db
        .selectFrom('audit_log')
        .select('detail')
        .where('user_id', '=', c.user.id)
        .where('action', '=', 'phone.change')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.detail)).toEqual({ from: c.phone, to: phone });
      expect(audit.detail).not.toContain(code);

      // The old number is free again: it can register a new company (after the resend wait).
      await ageSms(t, c.phone, 61_000);
      const again = await registerCompany(t, { phone: c.phone });
      expect(again.user.companyAccount).toBe(c.phone);
    });

    it('a wrong, expired, reused or other-number code changes nothing', async () => {
      const c = await registerCompany(t);
      const phone = uniquePhone();
      const code = await sendCode(t, phone, 'changePhone', { token: c.token, ip: '10.60.0.1' });
      const elsewhere = uniquePhone();
      const otherCode = await sendCode(t, elsewhere, 'changePhone', { token: c.token, ip: '10.60.0.2' });
      const before = await tableCounts(t.database);

      const wrong = await t.call(
        authCalls.changePhone,
        { phone, verifyCode: wrongCode(code) },
        { token: c.token },
      );
      expect(wrong).toMatchObject({ status: 400, code: '40011' });
      expect(wrong.message).toMatch(/还可尝试 \d 次/);
      if (otherCode !== code) {
        const other = await t.call(
          authCalls.changePhone,
          { phone, verifyCode: otherCode },
          { token: c.token },
        );
        expect(other).toMatchObject({ status: 400, code: '40011' });
      }
      // Register code for a number is not a changePhone code.
      const fresh = uniquePhone();
      const registerCode = await sendCode(t, fresh, 'register', { ip: '10.60.0.3' });
      const before2 = await tableCounts(t.database);
      const scene = await t.call(
        authCalls.changePhone,
        { phone: fresh, verifyCode: registerCode },
        { token: c.token },
      );
      expect(scene).toMatchObject({ status: 400, code: '40011', message: '请先获取短信验证码' });
      expect(await tableCounts(t.database)).toEqual(before2);
      expect(before2).toEqual({ ...before, sms_codes: before.sms_codes + 1 });

      await t.database.db
        .updateTable('sms_codes')
        .set({ expires_at: Date.now() - 1 })
        .where('phone', '=', elsewhere)
        .execute();
      const expired = await t.call(
        authCalls.changePhone,
        { phone: elsewhere, verifyCode: otherCode },
        { token: c.token },
      );
      expect(expired).toMatchObject({ status: 400, code: '40012' });
      expect((await me(c.token)).data.companyAccount).toBe(c.phone);

      // The right code works once.
      expect(
        (await t.call(authCalls.changePhone, { phone, verifyCode: code }, { token: c.token })).code,
      ).toBe('200');
      const back = uniquePhone();
      const reused = await t.call(
        authCalls.changePhone,
        { phone: back, verifyCode: code },
        { token: c.token },
      );
      expect(reused).toMatchObject({ status: 400, code: '40011' });
    });

    it('a number taken by another account, or the current number, is 40901', async () => {
      const c = await registerCompany(t);
      const other = await registerCompany(t);
      const before = await tableCounts(t.database);
      const taken = await t.call(
        authCalls.changePhone,
        { phone: other.phone, verifyCode: '123456' },
        { token: c.token },
      );
      expect(taken).toMatchObject({ status: 409, code: '40901', message: '该手机号已被其他账号使用' });
      const same = await t.call(
        authCalls.changePhone,
        { phone: c.phone, verifyCode: '123456' },
        { token: c.token },
      );
      expect(same).toMatchObject({ status: 409, code: '40901', message: '新手机号不能与当前手机号相同' });
      expect(await tableCounts(t.database)).toEqual(before);
    });

    it('a number registered after the code was sent is still refused', async () => {
      const c = await registerCompany(t);
      const phone = uniquePhone();
      const code = await sendCode(t, phone, 'changePhone', { token: c.token, ip: '10.61.0.1' });
      await t.database.db
        .updateTable('sms_codes')
        .set((eb) => ({ created_at: eb('created_at', '-', 61_000) }))
        .where('phone', '=', phone)
        .execute();
      await registerCompany(t, { phone });
      const res = await t.call(authCalls.changePhone, { phone, verifyCode: code }, { token: c.token });
      expect(res).toMatchObject({ status: 409, code: '40901' });
      expect((await me(c.token)).data.companyAccount).toBe(c.phone);
    });

    it('an operator may not change phone (40300); no session is "403"; bad input is 400', async () => {
      const admin = await createAdmin(t);
      const c = await registerCompany(t);
      const before = await tableCounts(t.database);
      const byAdmin = await t.call(
        authCalls.changePhone,
        { phone: uniquePhone(), verifyCode: '123456' },
        { token: admin.token },
      );
      expect(byAdmin).toMatchObject({ status: 403, code: '40300' });
      for (const token of [undefined, 'nope']) {
        const res = await t.call(
          authCalls.changePhone,
          { phone: uniquePhone(), verifyCode: '123456' },
          { token },
        );
        expect(res).toMatchObject({ status: 401, code: '403' });
      }
      const cases: [unknown, RegExp][] = [
        [{ verifyCode: '123456' }, /^phone：缺少必填参数$/],
        [{ phone: '1234', verifyCode: '123456' }, /^phone：请输入正确的 11 位手机号$/],
        [{ phone: uniquePhone() }, /^verifyCode：缺少必填参数$/],
        [{ phone: uniquePhone(), verifyCode: '1234567' }, /^verifyCode：短信验证码为 6 位数字$/],
        [{ phone: uniquePhone(), verifyCode: '123456', userId: 'x' }, /^不支持的参数：userId$/],
      ];
      for (const [payload, message] of cases) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await t.call(authCalls.changePhone, payload as any, { token: c.token });
        expect(res, JSON.stringify(payload)).toMatchObject({ status: 400, code: '400' });
        expect(res.message).toMatch(message);
      }
      expect(await tableCounts(t.database)).toEqual(before);
    });
  });
});
