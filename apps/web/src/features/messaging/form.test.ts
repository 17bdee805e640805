import type { ApiParam } from '@wxc/contract/calls/catalogue';
import { describe, expect, it } from 'vitest';
import { buildBody, curlFor, fieldsFromParams, initialValues, takesWxid, widgetFor } from './form';

const p = (x: Partial<ApiParam> & { name: string }): ApiParam => ({
  type: 'string',
  required: false,
  example: '',
  description: '',
  enum: null,
  ...x,
});

const sendText = fieldsFromParams([
  p({ name: 'wxid', required: true, example: 'wxid_sim_7k2m9q' }),
  p({ name: 'toWxid', required: true, example: 'wxid_friend_01' }),
  p({ name: 'content', required: true, example: '你好' }),
  p({ name: 'at', type: 'array', example: [] }),
]);

describe('widgets', () => {
  it('gives pickers to wxid and subAccountId, selects to enums, typed inputs to the rest', () => {
    expect(widgetFor(p({ name: 'wxid' }))).toBe('wxid');
    expect(widgetFor(p({ name: 'subAccountId' }))).toBe('subAccount');
    expect(widgetFor(p({ name: 'lastState', enum: ['waiting', 'scanned'] }))).toBe('enum');
    expect(widgetFor(p({ name: 'duration', type: 'integer' }))).toBe('integer');
    expect(widgetFor(p({ name: 'unreachable', type: 'boolean' }))).toBe('boolean');
    expect(widgetFor(p({ name: 'ids', type: 'array' }))).toBe('array');
    expect(widgetFor(p({ name: 'extra', type: 'object' }))).toBe('json');
    expect(takesWxid(sendText)).toBe(true);
  });
});

describe('initialValues', () => {
  it('prefills required examples and the chosen account; all=true fills every example', () => {
    expect(initialValues(sendText, { wxid: 'wxid_me' })).toEqual({
      wxid: 'wxid_me',
      toWxid: 'wxid_friend_01',
      content: '你好',
      at: '',
    });
    const fields = fieldsFromParams([
      p({ name: 'ids', type: 'array', required: true, example: ['a', 'b'] }),
      p({ name: 'waitSeconds', type: 'integer', example: 25 }),
      p({ name: 'on', type: 'boolean', example: true }),
    ]);
    expect(initialValues(fields, {}, true)).toEqual({ ids: 'a\nb', waitSeconds: '25', on: true });
    expect(initialValues(fields, {})).toEqual({ ids: 'a\nb', waitSeconds: '', on: undefined });
  });
});

describe('buildBody', () => {
  it('converts types, splits arrays, leaves out empty optional fields', () => {
    const fields = fieldsFromParams([
      p({ name: 'wxid', required: true }),
      p({ name: 'duration', type: 'integer', required: true }),
      p({ name: 'ids', type: 'array' }),
      p({ name: 'state', enum: ['a', 'b'] }),
      p({ name: 'size', type: 'number' }),
      p({ name: 'flag', type: 'boolean' }),
      p({ name: 'meta', type: 'object' }),
    ]);
    expect(
      buildBody(fields, {
        wxid: ' w1 ',
        duration: '12',
        ids: 'x, y\nz',
        state: 'b',
        size: '',
        flag: false,
        meta: '{"a":1}',
      }),
    ).toEqual({
      body: { wxid: 'w1', duration: 12, ids: ['x', 'y', 'z'], state: 'b', flag: false, meta: { a: 1 } },
      errors: {},
    });
    expect(buildBody(fields, { wxid: 'w', duration: '1', ids: '["a",1]' }).body.ids).toEqual(['a', 1]);
  });

  it('names what is missing or malformed', () => {
    const fields = fieldsFromParams([
      p({ name: 'wxid', required: true }),
      p({ name: 'duration', type: 'integer', required: true }),
      p({ name: 'ids', type: 'array' }),
      p({ name: 'meta', type: 'object' }),
    ]);
    expect(buildBody(fields, { wxid: '', duration: '1.5', ids: '[1', meta: '{' }).errors).toEqual({
      wxid: '请填写 wxid',
      duration: 'duration 须为整数',
      ids: 'ids 不是有效的 JSON 数组',
      meta: 'meta 不是有效的 JSON',
    });
  });
});

describe('curlFor', () => {
  it('is a copyable POST with the credential headers as placeholders and the JSON body', () => {
    const text = curlFor('http://h:8080/', '/api/msg/sendMsgText', { wxid: 'w', content: "it's" });
    expect(text).toContain("curl -X POST 'http://h:8080/api/msg/sendMsgText'");
    expect(text).toContain("-H 'x-app-key: <您的 AppKey>'");
    expect(text).toContain("-H 'x-app-secret: <您的 AppSecret>'");
    expect(text).toContain(`-d '{"wxid":"w","content":"it'\\''s"}'`);
  });
});
