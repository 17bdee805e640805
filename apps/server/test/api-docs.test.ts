import { allCalls, messagingCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_EXAMPLE } from '../src/docs.js';
import { createTestApp, type TestApp } from './helpers.js';

// The OpenAPI document depends on routes and contract only, not on the database: SQLite suffices.
describe('the OpenAPI document at /docs/json', () => {
  let t: TestApp;
  // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document, read as plain JSON
  let doc: any;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
  });
  afterAll(() => t.close());

  const binary = { type: 'string', format: 'binary' };

  it.each([
    ['/api/tools/getSourceUrl', 'file', binary],
    ['/api/uploadImg', 'img', binary],
    ['/api/uploadRealNameSource', 'imgs', { type: 'array', items: binary, minItems: 2, maxItems: 2 }],
  ])('describes %s as multipart/form-data with its file field %s', (path, field, fieldSchema) => {
    const body = doc.paths[path].post.requestBody;
    expect(Object.keys(body.content)).toEqual(['multipart/form-data']);
    const schema = body.content['multipart/form-data'].schema;
    expect(schema).toMatchObject({ type: 'object', required: [field] });
    expect(Object.keys(schema.properties)).toEqual([field]);
    expect(schema.properties[field]).toMatchObject(fieldSchema);
  });

  it('documents every call whose contract description says multipart/form-data as multipart, others as JSON', () => {
    for (const call of allCalls) {
      if (call.method === 'GET') continue;
      const content = doc.paths[call.path][call.method.toLowerCase()].requestBody.content;
      const expected = call.description?.startsWith('multipart/form-data')
        ? 'multipart/form-data'
        : 'application/json';
      expect(Object.keys(content), call.path).toEqual([expected]);
    }
    expect(Object.keys(doc.paths[messagingCalls.sendMsgText.path].post.requestBody.content)).toEqual([
      'application/json',
    ]);
  });

  it('explains request signing with the worked example, byte for byte', () => {
    const text = `${doc.info.description}\n${doc.components.securitySchemes.appSecret.description}`;
    for (const value of [
      SIGNING_EXAMPLE.appKey,
      SIGNING_EXAMPLE.appSecret,
      SIGNING_EXAMPLE.timestamp,
      SIGNING_EXAMPLE.nonce,
      SIGNING_EXAMPLE.body,
      SIGNING_EXAMPLE.bodySha256,
      SIGNING_EXAMPLE.key,
      SIGNING_EXAMPLE.signature,
    ]) {
      expect(text).toContain(value);
    }
    expect(text).toContain('multipart/form-data');
    expect(text).toMatch(/HTTPS/);
  });
});
