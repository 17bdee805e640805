import {
  authCalls,
  SMS_DAILY_LIMIT_PER_PHONE,
  SMS_HOURLY_LIMIT_PER_IP,
  SMS_RESEND_SECONDS,
  type SmsScene,
} from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ageSms,
  type CallResult,
  createAdmin,
  createTestApp,
  dialects,
  FIXED_CAPTCHA,
  registerCompany,
  solvedCaptcha,
  type TestApp,
  tableCounts,
  uniquePhone,
} from './helpers.js';

type Via = 'sendRegisterSms' | SmsScene;
const VIAS: Via[] = ['sendRegisterSms', 'register', 'resetPassword', 'changePhone'];

describe.each(dialects)('SMS codes (%s)', (dialect) => {
  let t: TestApp;
  let customer: Awaited<ReturnType<typeof registerCompany>>;
  let ipSeq = 0;
  /** Each test its own IP, so the per-IP hourly cap only bites where a test wants it. */
  const freshIp = () => `10.30.${Math.floor(ipSeq / 200)}.${(ipSeq++ % 200) + 1}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    customer = await registerCompany(t);
  });
  afterAll(() => t.close());

  /** A number the given send may go to, and the token it needs. */
  async function target(via: Via): Promise<{ phone: string; token?: string }> {
    if (via === 'resetPassword') {
      const { phone } = await registerCompany(t);
      await ageSms(t, phone, 24 * 3_600_000 + 1); // the registration code is a day old
      return { phone };
    }
    if (via === 'changePhone') return { phone: uniquePhone(), token: customer.token };
    return { phone: uniquePhone() };
  }

  function send(
    via: Via,
    phone: string,
    captcha: { captchaId: string; captchaCode: string } = { captchaId: 'x', captchaCode: FIXED_CAPTCHA },
    opts: { token?: string; ip?: string } = {},
  ): Promise<CallResult> {
    const ip = opts.ip ?? '10.31.0.1';
    if (via === 'sendRegisterSms') {
      return t.call(authCalls.sendRegisterSms, { phone, ...captcha }, { ...opts, ip });
    }
    return t.call(authCalls.sendSms, { phone, scene: via, ...captcha }, { ...opts, ip });
  }

  describe.each(VIAS)('via %s', (via) => {
    const scene = via === 'sendRegisterSms' ? 'register' : via;

    it('sends a 6-digit code that no response carries, and stores only its hash', async () => {
      const { phone, token } = await target(via);
      const before = t.outbox.length;
      const res = await send(via, phone, await solvedCaptcha(t), { token, ip: freshIp() });
      expect(res).toMatchObject({ status: 200, code: '200' });
      expect(res.data).toEqual({ resendAfter: SMS_RESEND_SECONDS, expiresIn: 300 });
      expect(t.outbox.length).toBe(before + 1);
      const sms = t.outbox.at(-1)!;
      expect(sms).toMatchObject({ phone, scene });
      expect(sms.code).toMatch(/^\d{6}$/);
      expect(JSON.stringify(res)).not.toContain(sms.code);

      const rows = await t.database.db
        .selectFrom('sms_codes')
        .selectAll()
        .where('phone', '=', phone)
        .where('created_at', '>', Date.now() - 60_000)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ scene, consumed_at: null });
      expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(Number(rows[0]!.expires_at) - Number(rows[0]!.created_at)).toBe(300_000);
    });

    it('needs a captcha: missing, wrong or reused captchas send nothing', async () => {
      const { phone, token } = await target(via);
      const other = await target(via);
      const ip = freshIp();
      const before = await tableCounts(t.database);
      const sent = t.outbox.length;

      const missing = await send(
        via,
        phone,
        // biome-ignore lint/suspicious/noExplicitAny: deliberately incomplete
        { captchaId: 'x' } as any,
        { token, ip },
      );
      expect(missing).toMatchObject({ status: 400, code: '400' });
      expect(missing.message).toMatch(/^captchaCode：/);

      const captcha = await solvedCaptcha(t);
      const wrong = await send(
        via,
        phone,
        { captchaId: captcha.captchaId, captchaCode: 'zzzz' },
        { token, ip },
      );
      expect(wrong).toMatchObject({ status: 400, code: '40010' });
      // The wrong answer used that captcha up.
      expect((await send(via, phone, captcha, { token, ip })).code).toBe('40010');
      expect(t.outbox.length).toBe(sent);

      const good = await solvedCaptcha(t);
      expect((await send(via, phone, good, { token, ip })).code).toBe('200');
      expect(t.outbox.length).toBe(sent + 1);
      const reused = await send(via, other.phone, good, { token: other.token, ip });
      expect(reused).toMatchObject({ status: 400, code: '40010' });
      expect(t.outbox.length).toBe(sent + 1);

      const after = await tableCounts(t.database);
      // The only rows written: the captchas fetched and the one code sent.
      expect(after).toEqual({ ...before, captchas: before.captchas + 2, sms_codes: before.sms_codes + 1 });
    });

    it('refuses malformed phone numbers with a 400 naming phone, writing nothing', async () => {
      const { token } = await target(via);
      const before = await tableCounts(t.database);
      const sent = t.outbox.length;
      const bad: unknown[] = [
        '1390000000',
        '139000000001',
        '23900000000',
        '12900000000',
        '1390000000a',
        '+8613900000000',
        '139 0000 0000',
        '',
        13900000000,
        null,
      ];
      for (const phone of bad) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
        const res = await send(via, phone as any, undefined, { token, ip: freshIp() });
        expect(res.status, JSON.stringify(phone)).toBe(400);
        expect(res.code).toBe('400');
        expect(res.message).toMatch(/^phone：/);
      }
      // biome-ignore lint/suspicious/noExplicitAny: deliberately incomplete
      const noPhone = await send(via, undefined as any, undefined, { token });
      expect(noPhone.message).toBe('phone：缺少必填参数');
      expect(t.outbox.length).toBe(sent);
      expect(await tableCounts(t.database)).toEqual(before);
    });

    it(`allows one send per number per ${SMS_RESEND_SECONDS} s and says how long to wait`, async () => {
      const { phone, token } = await target(via);
      const ip = freshIp();
      expect((await send(via, phone, undefined, { token, ip })).code).toBe('200');
      const before = await tableCounts(t.database);
      const sent = t.outbox.length;
      const again = await send(via, phone, undefined, { token, ip: freshIp() });
      expect(again).toMatchObject({ status: 429, code: '42901' });
      const seconds = Number(/请 (\d+) 秒后再试/.exec(again.message)?.[1]);
      expect(seconds).toBeGreaterThan(50);
      expect(seconds).toBeLessThanOrEqual(SMS_RESEND_SECONDS);
      expect(t.outbox.length).toBe(sent);
      expect(await tableCounts(t.database)).toEqual(before);

      await ageSms(t, phone, 45_000);
      const later = await send(via, phone, undefined, { token, ip });
      expect(later.code).toBe('42901');
      expect(Number(/请 (\d+) 秒后再试/.exec(later.message)?.[1])).toBeLessThanOrEqual(15);

      await ageSms(t, phone, 16_000);
      expect((await send(via, phone, undefined, { token, ip })).code).toBe('200');
    });

    it(`caps a number at ${SMS_DAILY_LIMIT_PER_PHONE} codes a day`, async () => {
      const { phone, token } = await target(via);
      for (let i = 0; i < SMS_DAILY_LIMIT_PER_PHONE; i++) {
        const res = await send(via, phone, undefined, { token, ip: freshIp() });
        expect(res.code, `send ${i + 1}`).toBe('200');
        await ageSms(t, phone, 2 * 60_000);
      }
      const before = await tableCounts(t.database);
      const sent = t.outbox.length;
      const capped = await send(via, phone, undefined, { token, ip: freshIp() });
      expect(capped).toMatchObject({ status: 429, code: '42902', message: '今日验证码发送次数已达上限' });
      expect(t.outbox.length).toBe(sent);
      expect(await tableCounts(t.database)).toEqual(before);

      // A day later (the oldest code more than 24 h ago) one more may go.
      await ageSms(t, phone, 24 * 3_600_000 - 19 * 60_000);
      expect((await send(via, phone, undefined, { token, ip: freshIp() })).code).toBe('200');
    });
  });

  it(`caps an IP at ${SMS_HOURLY_LIMIT_PER_IP} codes an hour, whatever the numbers`, async () => {
    const ip = '10.39.0.1';
    for (let i = 0; i < SMS_HOURLY_LIMIT_PER_IP; i++) {
      expect((await send('sendRegisterSms', uniquePhone(), undefined, { ip })).code, `send ${i + 1}`).toBe(
        '200',
      );
    }
    const before = await tableCounts(t.database);
    const sent = t.outbox.length;
    for (const via of ['sendRegisterSms', 'register', 'changePhone'] as const) {
      const res = await send(via, uniquePhone(), undefined, { ip, token: customer.token });
      expect(res).toMatchObject({ status: 429, code: '42901' });
      expect(res.message).toContain('当前网络');
    }
    expect(t.outbox.length).toBe(sent);
    expect(await tableCounts(t.database)).toEqual(before);
    // Another IP is not affected.
    expect((await send('sendRegisterSms', uniquePhone(), undefined, { ip: '10.39.0.2' })).code).toBe('200');
    // An hour later the IP may send again.
    await t.database.db
      .updateTable('sms_codes')
      .set((eb) => ({ created_at: eb('created_at', '-', 3_600_000) }))
      .where('ip', '=', ip)
      .execute();
    expect((await send('sendRegisterSms', uniquePhone(), undefined, { ip })).code).toBe('200');
  });

  it.each(['sendRegisterSms', 'register'] as const)(
    '%s: a registered number is refused with 40901',
    async (via) => {
      const before = await tableCounts(t.database);
      const sent = t.outbox.length;
      const res = await send(via, customer.phone, await solvedCaptcha(t), { ip: freshIp() });
      expect(res).toMatchObject({ status: 409, code: '40901', message: '该手机号已注册，请直接登录' });
      expect(t.outbox.length).toBe(sent);
      const after = await tableCounts(t.database);
      expect(after).toEqual({ ...before, captchas: before.captchas + 1 });
    },
  );

  it('resetPassword: an unregistered number, or an operator account, is refused with 40015', async () => {
    const admin = await createAdmin(t, { account: '13700000001' });
    const before = await tableCounts(t.database);
    const sent = t.outbox.length;
    for (const phone of [uniquePhone(), admin.account]) {
      const res = await send('resetPassword', phone, undefined, { ip: freshIp() });
      expect(res).toMatchObject({ status: 400, code: '40015', message: '该手机号尚未注册' });
    }
    expect(t.outbox.length).toBe(sent);
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('changePhone: needs a session, and the new number must be free and different', async () => {
    const other = await registerCompany(t);
    const before = await tableCounts(t.database);
    const sent = t.outbox.length;

    const anonymous = await send('changePhone', uniquePhone(), undefined, { ip: freshIp() });
    expect(anonymous).toMatchObject({ status: 401, code: '403' });
    const badToken = await send('changePhone', uniquePhone(), undefined, { ip: freshIp(), token: 'nope' });
    expect(badToken).toMatchObject({ status: 401, code: '403' });

    const taken = await send('changePhone', other.phone, undefined, { ip: freshIp(), token: customer.token });
    expect(taken).toMatchObject({ status: 409, code: '40901', message: '该手机号已被其他账号使用' });
    const same = await send('changePhone', customer.phone, undefined, {
      ip: freshIp(),
      token: customer.token,
    });
    expect(same).toMatchObject({ status: 409, code: '40901', message: '新手机号不能与当前手机号相同' });

    expect(t.outbox.length).toBe(sent);
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('refuses an unknown scene, a missing scene and extra fields with 400', async () => {
    const before = await tableCounts(t.database);
    const base = { phone: uniquePhone(), captchaId: 'x', captchaCode: FIXED_CAPTCHA };
    const cases: [unknown, RegExp][] = [
      [{ ...base, scene: 'login' }, /^scene：短信场景只能是 register、resetPassword 或 changePhone$/],
      [base, /^scene：/],
      [{ ...base, scene: 'register', code: '123456' }, /不支持的参数：code/],
    ];
    for (const [payload, message] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      const res = await t.call(authCalls.sendSms, payload as any);
      expect(res).toMatchObject({ status: 400, code: '400' });
      expect(res.message).toMatch(message);
    }
    const extra = await t.call(authCalls.sendRegisterSms, {
      ...base,
      scene: 'register',
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
    } as any);
    expect(extra).toMatchObject({ status: 400, message: '不支持的参数：scene' });
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('registration closed: register-scene SMS and register are refused with 40301', async () => {
    const admin = await createAdmin(t, { account: '13700000001' });
    const phone = uniquePhone();
    const ip = freshIp();
    const resetTarget = await target('resetPassword');
    const code = await (async () => {
      expect((await send('sendRegisterSms', phone, undefined, { ip })).code).toBe('200');
      return t.outbox.at(-1)!.code;
    })();
    expect((await t.call(authCalls.openAutoRegiste, { open: false }, { token: admin.token })).data).toEqual({
      open: false,
    });
    try {
      const before = await tableCounts(t.database);
      const sent = t.outbox.length;
      for (const via of ['sendRegisterSms', 'register'] as const) {
        const res = await send(via, uniquePhone(), undefined, { ip: freshIp() });
        expect(res).toMatchObject({ status: 403, code: '40301', message: '暂未开放注册，请联系客服' });
      }
      const reg = await t.call(authCalls.register, {
        companyName: '关闭注册公司',
        companyAccount: phone,
        password: 'secret123abc',
        checkPassword: 'secret123abc',
        verifyCode: code,
        readMsg: true,
      });
      expect(reg).toMatchObject({ status: 403, code: '40301' });
      // Other scenes still work.
      const target2 = await registerCompany(t).catch(() => null);
      expect(target2).toBeNull(); // registerCompany itself is refused
      expect(t.outbox.length).toBe(sent);
      expect(await tableCounts(t.database)).toEqual(before);
      expect((await send('resetPassword', resetTarget.phone, undefined, { ip: freshIp() })).code).toBe('200');
    } finally {
      await t.call(authCalls.openAutoRegiste, { open: true }, { token: admin.token });
    }
    // Open again: the code sent before still registers.
    const reg = await t.call(authCalls.register, {
      companyName: '重新开放公司',
      companyAccount: phone,
      password: 'secret123abc',
      checkPassword: 'secret123abc',
      verifyCode: code,
      readMsg: true,
    });
    expect(reg.code).toBe('200');
  });
});
