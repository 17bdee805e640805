import { describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { tokenFromHeader, toUserInfo } from './sessions.js';

describe('tokenFromHeader', () => {
  it('takes the token with or without "Bearer "', () => {
    expect(tokenFromHeader('abc.def')).toBe('abc.def');
    expect(tokenFromHeader('Bearer abc.def')).toBe('abc.def');
    expect(tokenFromHeader('  abc  ')).toBe('abc');
    expect(tokenFromHeader('Bearer   abc ')).toBe('abc');
  });

  it('is undefined for nothing', () => {
    expect(tokenFromHeader(undefined)).toBeUndefined();
    expect(tokenFromHeader('')).toBeUndefined();
    expect(tokenFromHeader('   ')).toBeUndefined();
    expect(tokenFromHeader('Bearer ')).toBeUndefined();
    expect(tokenFromHeader('Bearer    ')).toBeUndefined();
  });
});

describe('toUserInfo', () => {
  const user: User = {
    id: 'u1',
    account: '13900000000',
    password_hash: '$argon2id$secret',
    role: 'customer',
    company_name: '示例公司',
    user_name: '张三',
    account_type: 3,
    real_name_status: 2,
    status: 'active',
    created_at: 1,
    updated_at: 2,
  };

  it('gives the spec §3 user info plus roles, and nothing else', () => {
    expect(toUserInfo(user, 'formal')).toEqual({
      id: 'u1',
      companyName: '示例公司',
      companyAccount: '13900000000',
      userName: '张三',
      accountType: 3,
      realNameUser: 2,
      serverFlag: 'formal',
      roles: ['customer'],
    });
    expect(JSON.stringify(toUserInfo(user, 'test'))).not.toContain('argon2');
  });

  it('an operator has the admin role', () => {
    expect(toUserInfo({ ...user, role: 'admin' }, 'test').roles).toEqual(['admin']);
  });
});
