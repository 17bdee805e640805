import { allCalls, envelopeSchema, userInfoSchema } from '@wxc/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compiledWriter,
  createSerializerCompiler,
  plainSchemaOf,
  ResponseMismatchError,
} from './serializer.js';

const compile = (schema: z.ZodType, verify = false) =>
  createSerializerCompiler({ verify })({ schema, method: 'POST', url: '/api/x' });
const plain = (schema: z.ZodType) => plainSchemaOf(z.toJSONSchema(schema, { io: 'output' }));

describe('compiled response serializer', () => {
  const user = {
    id: 'u1',
    companyName: '示例公司',
    companyAccount: '13900000000',
    userName: '张三',
    accountType: 1,
    realNameUser: 0,
    serverFlag: 'test',
    roles: ['customer'],
  };

  it('writes what zod writes, and nothing undeclared', () => {
    const schema = envelopeSchema(userInfoSchema);
    expect(plain(schema)).not.toBeNull();
    const answer = { code: '200', message: '成功', data: { ...user, password_hash: '$argon2id$secret' } };
    const written = compile(schema)(answer);
    expect(written).toBe(JSON.stringify({ code: '200', message: '成功', data: user }));
    expect(written).not.toContain('argon2');
    expect(compile(schema, true)(answer)).toBe(written);
  });

  it('takes nullable values, optional fields and arrays of objects', () => {
    const schema = z.object({
      a: z.string().nullable(),
      b: z.array(z.object({ x: z.number().int(), y: z.enum(['p', 'q']) })),
      c: z.object({ d: z.string() }).nullable(),
      e: z.string().optional(),
      f: z.literal(1),
    });
    expect(plain(schema)).not.toBeNull();
    const serialize = compile(schema, true);
    for (const value of [
      { a: null, b: [], c: null, f: 1 },
      { a: 'x"\\\n中', b: [{ x: 1, y: 'p', z: 2 }], c: { d: 'd', e: 'leak' }, e: 'e', f: 1 },
    ]) {
      expect(JSON.parse(serialize(value))).toEqual(JSON.parse(JSON.stringify(schema.parse(value))));
    }
  });

  it('leaves what it does not take to zod: records, unions of objects, unknown values, defaults', () => {
    for (const schema of [
      z.record(z.string(), z.number()),
      z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
      z.object({ data: z.unknown() }),
      z.object({ n: z.number().default(1) }),
    ]) {
      expect(plain(schema)).toBeNull();
      expect(compile(schema)).toBeTypeOf('function');
    }
    expect(compile(z.record(z.string(), z.number()))({ a: 1 })).toBe('{"a":1}');
  });

  it('with verify, an answer the contract refuses is an error, as it was', () => {
    const serialize = compile(z.object({ n: z.number().int() }), true);
    expect(() => serialize({ n: 1.5 })).toThrow(ResponseMismatchError);
    expect(() => serialize({})).toThrow(ResponseMismatchError);
  });

  it('compiles a schema once for the process: every app and route with it runs the same writer', () => {
    const schema = z.object({ id: z.string(), n: z.number() });
    const writer = compiledWriter(schema);
    expect(writer).toBeTypeOf('function');
    expect(compiledWriter(schema)).toBe(writer);
    // A schema the compiler does not take is remembered as such too (zod's path serves it).
    const record = z.record(z.string(), z.number());
    expect(compiledWriter(record)).toBeNull();
    expect(compiledWriter(record)).toBeNull();
    // Two apps' compilers, one schema: the same answer, each route still named in its own errors.
    const a = createSerializerCompiler({ verify: true })({ schema, method: 'POST', url: '/api/a' });
    const b = createSerializerCompiler({ verify: true })({ schema, method: 'GET', url: '/api/b' });
    expect(a({ id: 'x', n: 1 })).toBe(b({ id: 'x', n: 1 }));
    expect(() => b({ id: 'x', n: 'one' })).toThrow(/GET \/api\/b/);
  });

  it('compiles every call of the contract (or leaves it to zod) without failing', () => {
    let compiled = 0;
    for (const def of allCalls) {
      const schema = envelopeSchema(def.response);
      expect(compile(schema)).toBeTypeOf('function');
      let json: unknown = null;
      try {
        json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' });
      } catch {}
      if (plainSchemaOf(json)) compiled++;
    }
    // Most answers are plain objects and lists; the few others keep the zod path.
    expect(compiled / allCalls.length).toBeGreaterThan(0.8);
  });
});
