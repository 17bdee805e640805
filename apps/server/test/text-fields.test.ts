import {
  apiAccountCalls,
  authCalls,
  messagingCalls,
  operatorCalls,
  packageCalls,
  realNameCalls,
  recordCalls,
} from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpCatalogue } from './commerce-helpers.js';
import {
  createTestApp,
  dialects,
  FIXED_CAPTCHA,
  lastCode,
  PASSWORD,
  registerCompany,
  type TestApp,
  tableCounts,
  uniquePhone,
} from './helpers.js';
import { type Catalogue, customerWithSubAccount, loginAccount, MESSAGING_ENV } from './messaging-helpers.js';

/**
 * Names, remarks and notes refuse control characters, bidi overrides and other invisible format
 * characters, and lone surrogates, with a 400 naming the field; nothing is written. Ordinary names
 * (Chinese with spaces, emoji) still work.
 */

const BAD: [string, string][] = [
  ['NUL', '甲\u0000公司'],
  ['escape', '甲\u001b[31m公司'],
  ['line break', '甲公司\n乙'],
  ['right-to-left override', '甲\u202e司公'],
  ['left-to-right isolate', '甲\u2066公司\u2069'],
  ['zero-width space', '甲\u200b公司'],
  ['BOM inside', '甲\ufeff公司'],
  ['lone surrogate', '甲\ud800公司'],
];
const refusal = (field: string, label: string, value: string) =>
  value.includes('\ud800')
    ? `${field}：${label}包含无效的字符编码`
    : `${field}：${label}不能包含控制字符或不可见的格式字符`;

describe.each(dialects)('names and remarks refuse control and format characters (%s)', (dialect) => {
  let t: TestApp;
  let cat: Catalogue;
  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV);
    cat = await setUpCatalogue(t);
  });
  afterAll(() => t.close());

  const me = async (token: string) => (await t.call(authCalls.refreshLoginInfo, {}, { token })).data;

  it('companyName at registration: refused, no account, no session', async () => {
    for (const [what, companyName] of BAD) {
      const phone = uniquePhone();
      const ip = '10.88.0.1';
      await t.call(authCalls.sendRegisterSms, { phone, captchaId: 'x', captchaCode: FIXED_CAPTCHA }, { ip });
      const before = await tableCounts(t.database);
      const res = await t.call(
        authCalls.register,
        {
          companyName,
          companyAccount: phone,
          password: PASSWORD,
          checkPassword: PASSWORD,
          verifyCode: lastCode(t, phone),
          readMsg: true,
        },
        { ip },
      );
      expect(res, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('companyName', '公司名称', companyName),
      });
      expect(await tableCounts(t.database), what).toEqual(before);
    }
  });

  it('companyName and userName changes: refused, nothing changes', async () => {
    const c = await registerCompany(t, { companyName: '原来的公司' });
    const before = await tableCounts(t.database);
    for (const [what, value] of BAD) {
      const company = await t.call(authCalls.updateCompanyInfo, { companyName: value }, { token: c.token });
      expect(company, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('companyName', '公司名称', value),
      });
      const user = await t.call(authCalls.modUserName, { userName: value }, { token: c.token });
      expect(user, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('userName', '用户名', value),
      });
    }
    expect(await tableCounts(t.database)).toEqual(before);
    expect(await me(c.token)).toMatchObject({ companyName: '原来的公司', userName: c.phone });
  });

  it('Chinese names with spaces and emoji still work, stored as typed (trimmed)', async () => {
    const c = await registerCompany(t, { companyName: '  上海 某某 科技 🚀  ' });
    expect(c.user.companyName).toBe('上海 某某 科技 🚀');
    const user = await t.call(authCalls.modUserName, { userName: ' 张 三 👨‍👩‍👧 ' }, { token: c.token });
    expect(user).toMatchObject({ status: 200, code: '200' });
    expect(await me(c.token)).toMatchObject({ companyName: '上海 某某 科技 🚀', userName: '张 三 👨‍👩‍👧' });
  });

  it('sub-account names: refused on create and rename; emoji names work', async () => {
    const c = await customerWithSubAccount(t, cat, 1);
    const before = await tableCounts(t.database);
    for (const [what, name] of BAD) {
      const opened = await t.call(
        apiAccountCalls.openApiAccount,
        { name, availableNum: 0 },
        { token: c.token },
      );
      expect(opened, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('name', '子账号名称', name),
      });
      const renamed = await t.call(
        apiAccountCalls.updateApiAccount,
        { id: c.sub.id, name },
        { token: c.token },
      );
      expect(renamed, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('name', '子账号名称', name),
      });
    }
    expect(await tableCounts(t.database)).toEqual(before);
    const ok = await t.call(
      apiAccountCalls.updateApiAccount,
      { id: c.sub.id, name: '客服 🤖 一号' },
      { token: c.token },
    );
    expect(ok).toMatchObject({ status: 200, code: '200' });
    expect(ok.data.name).toBe('客服 🤖 一号');
  });

  it('remarks of messaging accounts and of companies, and other operator texts: refused', async () => {
    const c = await customerWithSubAccount(t, cat);
    const { account } = await loginAccount(t, { token: c.token });
    const admin = cat.admin.token;
    const before = await tableCounts(t.database);
    for (const [what, value] of BAD) {
      const wx = await t.call(
        recordCalls.updateRemarks,
        { wxid: account.wxid, remark: value },
        { token: c.token },
      );
      expect(wx, what).toMatchObject({ status: 400, code: '400', message: refusal('remark', '备注', value) });
      if (what === 'line break') continue; // the operator's remark and notes are multi-line
      const company = await t.call(
        operatorCalls.updateCompanyRemarks,
        { userId: c.user.id, remark: value },
        { token: admin },
      );
      expect(company, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('remark', '备注', value),
      });
      const reason = await t.call(
        realNameCalls.refuseRealNameAuth,
        { userId: c.user.id, reason: value },
        { token: admin },
      );
      expect(reason, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('reason', '驳回原因', value),
      });
      const pkg = await t.call(
        packageCalls.adminSavePackage,
        {
          name: value,
          tier: 'basic',
          slots: 1,
          durationDays: 1,
          priceFen: 0,
          onSale: false,
          description: '',
        },
        { token: admin },
      );
      expect(pkg, what).toMatchObject({
        status: 400,
        code: '400',
        message: refusal('name', '套餐名称', value),
      });
    }
    const file = await t.call(
      messagingCalls.sendMsgFile,
      {
        wxid: account.wxid,
        toWxid: 'wxid_friend_01',
        fileUrl: 'https://example.com/report.pdf',
        fileName: 'report\u202efdp.exe',
      },
      { headers: c.creds },
    );
    expect(file).toMatchObject({
      status: 400,
      code: '400',
      message: 'fileName：文件名不能包含控制字符或不可见的格式字符',
    });
    expect(await tableCounts(t.database)).toEqual(before);

    const ok = await t.call(
      recordCalls.updateRemarks,
      { wxid: account.wxid, remark: '大客户 ⭐ 重点' },
      { token: c.token },
    );
    expect(ok.data.remark).toBe('大客户 ⭐ 重点');
    const multi = await t.call(
      operatorCalls.updateCompanyRemarks,
      { userId: c.user.id, remark: '第一行\r\n第二行 ✅' },
      { token: admin },
    );
    expect(multi).toMatchObject({ status: 200, code: '200' });
    expect(multi.data.remark).toBe('第一行\n第二行 ✅');
  });

  it('no field of any call may carry a NUL character (PostgreSQL text cannot store it): "400", nothing written', async () => {
    const c = await customerWithSubAccount(t, cat);
    const { account } = await loginAccount(t, { headers: c.creds });
    const before = await tableCounts(t.database);
    const sent = await t.call(
      messagingCalls.sendMsgText,
      { wxid: account.wxid, toWxid: 'wxid_friend_01', content: '你好\u0000' },
      { headers: c.creds },
    );
    expect(sent).toMatchObject({ status: 400, code: '400', message: 'content：不能包含空字符（\\0）' });
    const search = await t.call(recordCalls.queryHistoryWx, { keyword: 'a\u0000' }, { token: c.token });
    expect(search).toMatchObject({ status: 400, code: '400', message: 'keyword：不能包含空字符（\\0）' });
    expect(await tableCounts(t.database)).toEqual(before);
  });
});
