import { pooledRandomBytes } from '../../lib/crypto.js';

let counter = 0;

/** Order of messages within the service: milliseconds × 1000 plus a per-process counter. */
export function nextSeq(now: number): number {
  counter = (counter + 1) % 1000;
  return now * 1000 + counter;
}

/** The platform's 64-bit message id, as a decimal string (never a JS number: it exceeds 2^53). */
export function newMsgId64(): string {
  return (pooledRandomBytes(8).readBigUInt64BE() >> 1n).toString();
}
