import { describe, expect, it } from 'vitest';
import { fillPath, toProductEnvelope } from './showcase';

describe('showcase client', () => {
  it("translates the template's envelope to the product's", () => {
    expect(toProductEnvelope({ code: 20000, data: { a: 1 } })).toEqual({ code: '200', data: { a: 1 } });
    expect(toProductEnvelope({ code: 50008, message: 'x' })).toEqual({ code: '50008', message: 'x' });
    expect(toProductEnvelope({ code: 40000, message: '请求参数错误' })).toEqual({
      code: '40000',
      message: '请求参数错误',
    });
    expect(toProductEnvelope(null)).toBeNull();
    expect(toProductEnvelope('text')).toBe('text');
  });

  it('fills path parameters, encoded', () => {
    expect(fillPath('/vue-element-admin/role/:key', { key: '301' })).toBe('/vue-element-admin/role/301');
    expect(fillPath('/vue-element-admin/role/:key', { key: 'a/b' })).toBe('/vue-element-admin/role/a%2Fb');
    expect(fillPath('/vue-element-admin/roles', undefined)).toBe('/vue-element-admin/roles');
    expect(() => fillPath('/vue-element-admin/role/:key', {})).toThrow();
  });
});
