import { PASSWORD_RULE_TEXT } from '@wxc/contract/constants';
import { mobileField, passwordField } from '@wxc/contract/fields';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldError, formErrors } from './validate';

describe('fieldError', () => {
  it('returns the contract message for a bad value and nothing for a good one', () => {
    expect(fieldError(mobileField, '123')).toBe('请输入正确的 11 位手机号');
    expect(fieldError(mobileField, '13800000000')).toBeUndefined();
    expect(fieldError(passwordField, 'abcdefgh')).toBe(PASSWORD_RULE_TEXT);
  });
});

describe('formErrors', () => {
  it('keeps the first message per field, including refinements', () => {
    const schema = z
      .object({ a: mobileField, b: z.string(), c: z.string() })
      .refine((v) => v.b === v.c, { path: ['c'], message: '不一致' });
    expect(formErrors(schema, { a: 'x', b: '1', c: '1' })).toEqual({ a: '请输入正确的 11 位手机号' });
    expect(formErrors(schema, { a: '13800000000', b: '1', c: '2' })).toEqual({ c: '不一致' });
    expect(formErrors(schema, { a: '13800000000', b: '1', c: '1' })).toEqual({});
  });
});
