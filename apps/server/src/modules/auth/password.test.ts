import { describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('secret123abc');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash).not.toContain('secret123abc');
    expect(await verifyPassword(hash, 'secret123abc')).toBe(true);
    expect(await verifyPassword(hash, 'secret123abd')).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same-pass-1'), hashPassword('same-pass-1')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword(b, 'same-pass-1')).toBe(true);
  });

  it('a malformed hash is simply "no", not an exception', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyPassword('', 'x')).toBe(false);
  });

  it('the dummy hash (for unknown accounts) is argon2id, made once, and matches nothing likely', async () => {
    const a = await dummyPasswordHash();
    expect(a).toMatch(/^\$argon2id\$/);
    expect(await dummyPasswordHash()).toBe(a);
    expect(await verifyPassword(a, 'secret123abc')).toBe(false);
  });
});
