import { authCalls, CAPTCHA_MAX_CHECKS } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, solvedCaptcha, type TestApp, tableCounts, uniquePhone } from './helpers.js';

describe.each(dialects)('captcha (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** The only call that consumes a captcha without other rules getting in the way. */
  const consume = (captcha: { captchaId: string; captchaCode: string }) =>
    t.call(authCalls.sendRegisterSms, { phone: uniquePhone(), ...captcha }, { ip: '10.20.0.1' });

  it('getVerifyCode (GET) returns an id and an SVG data URI, and stores only a hash of the answer', async () => {
    const res = await t.call(authCalls.getVerifyCode, {});
    expect(res).toMatchObject({ status: 200, code: '200', message: '成功' });
    expect(Object.keys(res.data).sort()).toEqual(['captchaId', 'image']);
    expect(res.data.captchaId).toMatch(/^[\w-]{16}$/);
    expect(res.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(res.data.image.split(',')[1], 'base64').toString();
    expect(svg).toBe('<svg/>');

    const row = await t.database.db
      .selectFrom('captchas')
      .selectAll()
      .where('id', '=', res.data.captchaId)
      .executeTakeFirstOrThrow();
    const answer = t.captchaAnswers.get(res.data.captchaId)!;
    expect(row.code_hash).not.toContain(answer);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.used_at).toBeNull();
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(5 * 60_000);
  });

  it('accepts the cache-buster query parameter t, refuses unknown ones without writing', async () => {
    expect((await t.call(authCalls.getVerifyCode, { t: '12345' })).code).toBe('200');
    const before = await tableCounts(t.database);
    // biome-ignore lint/suspicious/noExplicitAny: deliberately unknown parameter
    const res = await t.call(authCalls.getVerifyCode, { foo: '1' } as any);
    expect(res).toMatchObject({ status: 400, code: '400', message: '不支持的参数：foo' });
    const long = await t.call(authCalls.getVerifyCode, { t: 'x'.repeat(33) });
    expect(long).toMatchObject({ status: 400, code: '400' });
    expect(long.message).toMatch(/^t：/);
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('checkVerifyCode: the right answer is valid and does not consume the captcha', async () => {
    const captcha = await solvedCaptcha(t);
    const res = await t.call(authCalls.checkVerifyCode, captcha);
    expect(res).toMatchObject({ status: 200, code: '200', data: { valid: true } });
    // Case and surrounding spaces do not matter.
    const loud = await t.call(authCalls.checkVerifyCode, {
      captchaId: captcha.captchaId,
      captchaCode: ` ${captcha.captchaCode.toUpperCase()} `,
    });
    expect(loud.data).toEqual({ valid: true });
    // Still usable once by a guarded call afterwards, then never again.
    expect((await consume(captcha)).code).toBe('200');
    expect(await consume(captcha)).toMatchObject({ status: 400, code: '40010' });
    expect(await t.call(authCalls.checkVerifyCode, captcha)).toMatchObject({ status: 400, code: '40010' });
  });

  it('checkVerifyCode: a wrong answer is 40010 and an unknown id is 40010', async () => {
    const captcha = await solvedCaptcha(t);
    const wrong = await t.call(authCalls.checkVerifyCode, {
      captchaId: captcha.captchaId,
      captchaCode: 'zzzz',
    });
    expect(wrong).toMatchObject({
      status: 400,
      code: '40010',
      message: '图形验证码错误或已失效，请重新输入',
      data: null,
    });
    const unknown = await t.call(authCalls.checkVerifyCode, { captchaId: 'no-such-id', captchaCode: 'abcd' });
    expect(unknown).toMatchObject({ status: 400, code: '40010' });
    // One wrong check does not burn it.
    expect((await t.call(authCalls.checkVerifyCode, captcha)).code).toBe('200');
  });

  it(`burns the captcha after ${CAPTCHA_MAX_CHECKS} wrong checks: then even the right answer fails`, async () => {
    const captcha = await solvedCaptcha(t);
    for (let i = 0; i < CAPTCHA_MAX_CHECKS; i++) {
      const res = await t.call(authCalls.checkVerifyCode, {
        captchaId: captcha.captchaId,
        captchaCode: 'zzzz',
      });
      expect(res.code).toBe('40010');
    }
    expect(await t.call(authCalls.checkVerifyCode, captcha)).toMatchObject({ code: '40010' });
    expect(await consume(captcha)).toMatchObject({ code: '40010' });
  });

  it(`${CAPTCHA_MAX_CHECKS - 1} wrong checks leave the captcha usable`, async () => {
    const captcha = await solvedCaptcha(t);
    for (let i = 0; i < CAPTCHA_MAX_CHECKS - 1; i++) {
      await t.call(authCalls.checkVerifyCode, { captchaId: captcha.captchaId, captchaCode: 'zzzz' });
    }
    expect((await t.call(authCalls.checkVerifyCode, captcha)).code).toBe('200');
    expect((await consume(captcha)).code).toBe('200');
  });

  it('an expired captcha is refused by check and by consume', async () => {
    const captcha = await solvedCaptcha(t);
    await t.database.db
      .updateTable('captchas')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', captcha.captchaId)
      .execute();
    expect(await t.call(authCalls.checkVerifyCode, captcha)).toMatchObject({ status: 400, code: '40010' });
    const before = t.outbox.length;
    expect(await consume(captcha)).toMatchObject({ status: 400, code: '40010' });
    expect(t.outbox.length).toBe(before);
  });

  it('consume is single use, and a wrong answer uses the captcha up too', async () => {
    const captcha = await solvedCaptcha(t);
    expect((await consume(captcha)).code).toBe('200');
    expect((await consume(captcha)).code).toBe('40010');

    const other = await solvedCaptcha(t);
    expect((await consume({ captchaId: other.captchaId, captchaCode: 'zzzz' })).code).toBe('40010');
    expect((await consume(other)).code).toBe('40010');
  });

  it('two simultaneous uses of one captcha: exactly one succeeds', async () => {
    const captcha = await solvedCaptcha(t);
    const results = await Promise.all([consume(captcha), consume(captcha), consume(captcha)]);
    expect(results.map((r) => r.code).sort()).toEqual(['200', '40010', '40010']);
  });

  it('rejects malformed checkVerifyCode input with a 400 naming the field, writing nothing', async () => {
    const before = await tableCounts(t.database);
    const cases: [unknown, RegExp][] = [
      [{ captchaCode: 'abcd' }, /^captchaId：/],
      [{ captchaId: 'x' }, /^captchaCode：/],
      [{ captchaId: '', captchaCode: 'abcd' }, /^captchaId：缺少图形验证码编号/],
      [{ captchaId: 'x'.repeat(65), captchaCode: 'abcd' }, /^captchaId：图形验证码编号无效/],
      [{ captchaId: 'x', captchaCode: 'a'.repeat(9) }, /^captchaCode：/],
      [{ captchaId: 'x', captchaCode: '  ' }, /^captchaCode：请输入图形验证码/],
      [{ captchaId: 1, captchaCode: 'abcd' }, /^captchaId：/],
      [{ captchaId: 'x', captchaCode: 'abcd', extra: true }, /不支持的参数：extra/],
    ];
    for (const [payload, message] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      const res = await t.call(authCalls.checkVerifyCode, payload as any);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.code).toBe('400');
      expect(res.message, JSON.stringify(payload)).toMatch(message);
    }
    expect(await tableCounts(t.database)).toEqual(before);
  });
});
