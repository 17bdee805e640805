import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { type ZodType, z } from 'zod';

/**
 * Answers are written through their contract schema, so a field the contract does not declare (a
 * password hash, say) never leaves the service. The schema is compiled once (`compiledWriter`): the zod
 * schema becomes a JSON Schema (`z.toJSONSchema`), that becomes a fast-json-stringify function,
 * which writes exactly the declared properties in one pass (no zod walk, no intermediate copy).
 *
 * Only schemas built from plain parts are compiled (objects with declared properties, arrays,
 * strings, numbers, integers, booleans, null, and "X or null"); anything else (unions of objects,
 * records, unknown values) keeps the zod path: encode through the schema, then JSON.stringify.
 *
 * The compiled path writes, it does not check values against their rules (a number's range, an
 * enum's members). With `verify` (the test suites) every answer is also encoded by zod, which
 * refuses what the contract refuses, and the compiled output must be the same JSON as zod's (the
 * same values; required properties come first): every API test is a check that the two agree.
 */

type JsonSchema = Record<string, unknown>;

/** Keywords that only describe or constrain values: irrelevant to writing them. */
const DESCRIPTIVE = new Set([
  '$schema',
  'title',
  'description',
  'examples',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'enum',
  'const',
  'contentEncoding',
  'contentMediaType',
]);
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * The JSON Schema fast-json-stringify gets, or null when the schema uses something this compiler
 * does not take (the zod path is used then).
 */
export function plainSchemaOf(node: unknown): JsonSchema | null {
  if (typeof node !== 'object' || node === null) return null;
  const src = node as JsonSchema;
  const nullableOf = src.anyOf ?? src.oneOf;
  if (nullableOf !== undefined) {
    const branches = nullableOf as JsonSchema[];
    if (Object.keys(src).some((k) => k !== 'anyOf' && k !== 'oneOf' && !DESCRIPTIVE.has(k))) return null;
    if (branches.length !== 2) return null;
    const other = branches.find((b) => b.type !== 'null');
    if (!other || !branches.some((b) => b.type === 'null' && Object.keys(b).length === 1)) return null;
    const inner = plainSchemaOf(other);
    return inner && !inner.nullable ? { ...inner, nullable: true } : null;
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(src)) {
    if (DESCRIPTIVE.has(key)) continue;
    if (key === 'type') {
      if (typeof value === 'string') out.type = value;
      else if (Array.isArray(value) && value.length === 2 && value.includes('null')) {
        // ["string", "null"]: a nullable primitive
        out.type = value.find((t) => t !== 'null');
        out.nullable = true;
      } else return null;
    } else if (key === 'properties') {
      const props: JsonSchema = {};
      for (const [name, child] of Object.entries(value as JsonSchema)) {
        const plain = plainSchemaOf(child);
        if (!plain) return null;
        props[name] = plain;
      }
      out.properties = props;
    } else if (key === 'required') {
      out.required = value;
    } else if (key === 'additionalProperties') {
      if (value !== false) return null; // a record or a loose object
    } else if (key === 'items') {
      const plain = plainSchemaOf(value);
      if (!plain) return null;
      out.items = plain;
    } else {
      return null; // $ref, allOf, prefixItems, propertyNames, default, …
    }
  }
  const type = out.type as string | undefined;
  if (type === 'object') return out.properties ? out : null;
  if (type === 'array') return out.items ? out : null;
  return type !== undefined && PRIMITIVES.has(type) ? out : null;
}

export class ResponseMismatchError extends Error {}

/**
 * A contract schema's compiled writer, or null where the zod path serves: made once per schema for
 * the process, not per route of every app (the test suites build hundreds of apps, ~1 ms a route),
 * and every app's routes then run the same function.
 */
const compiledBySchema = new WeakMap<ZodType, ((data: unknown) => string) | null>();

export function compiledWriter(zodSchema: ZodType): ((data: unknown) => string) | null {
  let compiled = compiledBySchema.get(zodSchema);
  if (compiled !== undefined) return compiled;
  let plain: JsonSchema | null = null;
  try {
    plain = plainSchemaOf(z.toJSONSchema(zodSchema, { io: 'output', unrepresentable: 'throw' }));
  } catch {
    plain = null; // transforms and the like: not expressible, the zod path serves
  }
  compiled = plain ? fastJson(plain) : null;
  compiledBySchema.set(zodSchema, compiled);
  return compiled;
}

/** Fastify's `setSerializerCompiler`, for zod response schemas. */
export function createSerializerCompiler(opts: { verify: boolean }) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zodSchema = schema as ZodType;
    const viaZod = (data: unknown) => {
      const result = z.safeEncode(zodSchema, data);
      if (!result.success) {
        throw new ResponseMismatchError(`answer of ${method} ${url} does not fit its schema`, {
          cause: result.error,
        });
      }
      return JSON.stringify(result.data);
    };
    const compiled = compiledWriter(zodSchema);
    if (!compiled) return viaZod;
    if (!opts.verify) return (data: unknown) => compiled(data);
    return (data: unknown) => {
      const expected = viaZod(data);
      const written = compiled(data);
      // Equal as JSON (fast-json-stringify writes required properties before optional ones).
      if (written !== expected && !isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new ResponseMismatchError(
          `compiled serializer of ${method} ${url} differs from the contract: ${written} vs ${expected}`,
        );
      }
      return written;
    };
  };
}
