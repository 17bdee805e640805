import { describe, expect, it } from 'vitest';
import {
  newId,
  newTimeOrderedId,
  newToken,
  pooledRandomBytes,
  randomDigits,
  safeEqual,
  sha256,
} from './crypto.js';

describe('crypto helpers', () => {
  it('ids are 16 url-safe characters, tokens 43, and they do not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, newId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[\w-]{16}$/);
    expect(newToken()).toMatch(/^[\w-]{43}$/);
    expect(newToken()).not.toBe(newToken());
  });

  it('time-ordered ids sort by their time as strings, do not repeat within a millisecond, and are url-safe', () => {
    const at = Date.UTC(2026, 10, 24);
    const same = Array.from({ length: 1000 }, () => newTimeOrderedId(at));
    expect(new Set(same).size).toBe(1000);
    for (const id of same) expect(id).toMatch(/^[0-9a-z]{8}[\w-]{11}$/);
    // Later milliseconds sort after earlier ones (what keeps inserts at the index's end), until 2059.
    const times = [at, at + 1, at + 1000, at + 86_400_000, Date.UTC(2059, 0, 1)];
    const ids = times.map((t) => newTimeOrderedId(t));
    expect([...ids].sort()).toEqual(ids);
    expect(newTimeOrderedId()).toMatch(/^[0-9a-z]{8}[\w-]{11}$/);
  });

  it('pooled random bytes are fresh on every refill and never handed out twice', () => {
    // 1,000 ids above already span three 4 KB refills; whole pools must differ too.
    const a = Buffer.from(pooledRandomBytes(4096));
    const b = Buffer.from(pooledRandomBytes(4096));
    expect(a.equals(b)).toBe(false);
    const small = Array.from({ length: 600 }, () => pooledRandomBytes(8).toString('hex'));
    expect(new Set(small).size).toBe(600);
  });

  it('randomDigits gives exactly that many decimal digits, leading zeros included', () => {
    const codes = Array.from({ length: 2000 }, () => randomDigits(6));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    // Every digit shows up in every position over 2000 draws.
    for (let pos = 0; pos < 6; pos++) expect(new Set(codes.map((c) => c[pos])).size).toBe(10);
  });

  it('sha256 is hex and stable', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('safeEqual compares strings of any length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('验证', '验证')).toBe(true);
  });
});
