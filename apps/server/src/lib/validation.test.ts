import { authCalls, PASSWORD_RULE_TEXT } from '@wxc/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, pathOfNul, RequestValidationError } from './validation.js';

/** Parses the way the server's validator compiler does and describes the first failure. */
function describe_(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to fail`);
  return describeIssues(result.error.issues);
}

describe('describeIssues', () => {
  const schema = z.strictObject({
    name: z.string({ error: '请输入名称' }).min(2, '名称至少 2 个字符'),
    count: z.number().int(),
    nested: z.strictObject({ deep: z.string().max(3) }).optional(),
    list: z.array(z.string()).optional(),
  });

  it('names the field path with the schema message', () => {
    expect(describe_(schema, { name: 'a', count: 1 })).toBe('name：名称至少 2 个字符');
    expect(describe_(schema, { name: 'ab', count: 1, nested: { deep: 'abcd' } })).toMatch(/^nested\.deep：/);
    expect(describe_(schema, { name: 'ab', count: 1, list: ['a', 2] })).toMatch(/^list\.1：/);
  });

  it('reports unknown keys, also nested ones', () => {
    expect(describe_(schema, { name: 'ab', count: 1, extra: 1, more: 2 })).toBe('不支持的参数：extra, more');
    expect(describe_(schema, { name: 'ab', count: 1, nested: { deep: 'a', x: 1 } })).toBe(
      '不支持的参数：nested.x',
    );
  });

  it('says a missing field is missing, and a missing body is missing', () => {
    expect(describe_(schema, { name: 'ab' })).toBe('count：缺少必填参数');
    expect(describe_(schema, undefined)).toBe('请求体不能为空');
  });

  it('says a wrong-typed field has the wrong type, not that it is missing', () => {
    const message = describe_(schema, { name: 'ab', count: 'three' });
    expect(message).toMatch(/^count：/);
    expect(message).not.toContain('缺少');
    expect(message).toContain('数字');
    // A field with its own (Chinese) type message keeps it.
    expect(describe_(schema, { name: 5, count: 1 })).toBe('name：请输入名称');
    expect(describe_(schema, 'text')).toMatch(/^请求体：/);
  });

  it('gives zod’s English messages a Chinese prefix', () => {
    expect(describe_(schema, { name: 'ab', count: 1.5 })).toBe('count：类型错误，应为 整数');
    const big = describe_(z.strictObject({ n: z.number().max(10) }), { n: 11 });
    expect(big).toMatch(/^n：参数格式错误（.*10.*）$/);
    expect(describe_(z.string().email(), 'nope')).toMatch(/^参数格式错误（/);
  });

  it('keeps Chinese messages as they are', () => {
    expect(describe_(z.string().min(3, '太短了'), 'a')).toBe('太短了');
  });

  it('picks the union branch the caller meant: no unknown keys, then fewest problems', () => {
    const reset = authCalls.resetPassword.request;
    // SMS form without its code: about verifyCode, not about oldPassword.
    expect(
      describe_(reset, { companyAccount: '13900000000', password: 'abc12345', checkPassword: 'abc12345' }),
    ).toBe('verifyCode：缺少必填参数');
    // Old-password form with a weak new password: the password rule.
    expect(describe_(reset, { oldPassword: 'old', password: 'abc', checkPassword: 'abc' })).toBe(
      `password：${PASSWORD_RULE_TEXT}`,
    );
    expect(
      describe_(reset, { oldPassword: 'old-pass-1', password: 'old-pass-1', checkPassword: 'old-pass-1' }),
    ).toBe('password：新密码不能与原密码相同');
    expect(describe_(reset, undefined)).toBe('请求体不能为空');
  });

  it('a union with its own message says that message, under the field name', () => {
    const schema2 = z.strictObject({
      kind: z.union([z.literal(1), z.literal(2)], { error: '类型只能是 1 或 2' }),
    });
    expect(describe_(schema2, { kind: 3 })).toBe('kind：类型只能是 1 或 2');
    // A nested union without a message of its own keeps the field path.
    const schema3 = z.strictObject({ v: z.union([z.string().min(5, '至少 5 个字符'), z.number()]) });
    expect(describe_(schema3, { v: 'ab' })).toMatch(/^v：/);
  });

  it('has a fallback for no issues at all', () => {
    expect(describeIssues([])).toBe('请求参数错误');
  });

  it('RequestValidationError carries the message and a 400 status', () => {
    const result = z.strictObject({ a: z.string() }).safeParse({}, { reportInput: true });
    const err = new RequestValidationError(result.error!.issues);
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe('a：缺少必填参数');
    expect(err.name).toBe('RequestValidationError');
  });
});

describe('pathOfNul', () => {
  it('finds the first string holding a NUL, however deep, and keys holding one', () => {
    expect(pathOfNul({ a: 'ok', b: [{ c: 'x\u0000' }] })).toEqual(['b', 0, 'c']);
    expect(pathOfNul({ 'k\u0000': 1 })).toEqual(['k\u0000']);
    expect(pathOfNul('\u0000')).toEqual([]);
  });
  it('answers null for clean input of any shape', () => {
    for (const v of [undefined, null, 1, true, 'text', { a: ['b', { c: 'd' }] }])
      expect(pathOfNul(v)).toBeNull();
  });
});
