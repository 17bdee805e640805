import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Random id for rows that can appear in URLs or to other tenants: 16 url-safe chars, 96 bits. */
export const newId = (): string => randomBytes(12).toString('base64url');

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
