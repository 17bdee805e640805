import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNING_EXAMPLE as ex } from './docs.js';
import { sha256 } from './lib/crypto.js';
import { bodyDigest, signRequest, stringToSign } from './modules/api-auth/service.js';

// The worked example at /docs is literal text; it is recomputed here so it cannot drift.
describe('the request-signing worked example in the API reference', () => {
  it('is right when recomputed from its inputs with plain node:crypto', () => {
    const hex = (data: string) => createHash('sha256').update(data).digest('hex');
    expect(hex(ex.body)).toBe(ex.bodySha256);
    expect(hex(ex.appSecret)).toBe(ex.key);
    expect(ex.stringToSign).toBe(
      `${ex.method}\n${ex.path}\n${ex.appKey}\n${ex.timestamp}\n${ex.nonce}\n${ex.bodySha256}`,
    );
    expect(createHmac('sha256', ex.key).update(ex.stringToSign).digest('hex')).toBe(ex.signature);
  });

  it('is what the server computes', () => {
    expect(bodyDigest(Buffer.from(ex.body, 'utf8'))).toBe(ex.bodySha256);
    expect(sha256(ex.appSecret)).toBe(ex.key); // how sub-account secrets are stored
    const parts = {
      method: ex.method,
      path: ex.path,
      appKey: ex.appKey,
      timestamp: ex.timestamp,
      nonce: ex.nonce,
      bodySha256: ex.bodySha256,
    };
    expect(stringToSign(parts)).toBe(ex.stringToSign);
    expect(signRequest(ex.key, parts)).toBe(ex.signature);
  });
});
