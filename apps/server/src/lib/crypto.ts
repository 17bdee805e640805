import { hash, randomBytes, randomFillSync, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Random bytes from the CSPRNG, taken from a pool filled 4 KB at a time (each byte used once), as
 * nanoid does: a call into it per id was ~4 % of the CPU on the send path (a send makes ~6 ids).
 * The bytes are a view of the pool: read them at once (the next refill overwrites them).
 */
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;
export function pooledRandomBytes(n: number): Buffer {
  if (poolOffset + n > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return bytes;
}

/** Random id for rows that can appear in URLs or to other tenants: 16 url-safe chars, 96 bits. */
export const newId = (): string => pooledRandomBytes(12).toString('base64url');

/** Session tokens and similar bearer secrets: 256 bits. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** hex(SHA-256) of a string (one-shot `crypto.hash`: no Hash object per call, it runs per request). */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

/** A string of `length` random decimal digits (SMS codes). */
export const randomDigits = (length: number): string =>
  Array.from({ length }, () => randomInt(0, 10)).join('');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
