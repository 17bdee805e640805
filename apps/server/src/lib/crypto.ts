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

/**
 * Id of a row in a table that grows by thousands a second (messages, callback events and their
 * attempts): the time first (milliseconds, 8 base-36 digits, sorting as they grow until 2059), then
 * 64 random bits (11 url-safe chars). New rows then land at the end of the primary key's index
 * instead of on a random page of it: on SQLite a commit wrote ~one index page per row before
 * (profiled: commits were 43 % of the send path's SQL time), on PostgreSQL the same pages are
 * fewer full-page images in the WAL. Not a secret (access is checked by tenant), like newId.
 */
export const newTimeOrderedId = (now = Date.now()): string =>
  now.toString(36).padStart(8, '0') + pooledRandomBytes(8).toString('base64url');

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
