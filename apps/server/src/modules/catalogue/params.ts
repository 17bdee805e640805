import type { ApiParam } from '@wxc/contract';
import { z } from 'zod';

/** A JSON Schema node as zod 4's `z.toJSONSchema` writes it (the parts read here). */
interface JsonSchema {
  type?: string | string[];
  description?: string;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

const TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'] as const;
type ParamType = (typeof TYPES)[number];

/**
 * The parameters of a call, generated from its request schema (zod 4 -> JSON Schema, input side),
 * so the online tester and the reference never drift from what the server validates.
 */
export function paramsOf(schema: z.ZodType): ApiParam[] {
  const root = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const defs = root.$defs ?? {};
  const resolve = (node: JsonSchema): JsonSchema => {
    const ref = node.$ref?.match(/^#\/\$defs\/(.+)$/)?.[1];
    const target = ref ? defs[ref] : undefined;
    return target ? { ...resolve(target), ...withoutRef(node) } : node;
  };
  const top = unwrap(resolve(root), resolve).node;
  const required = new Set(top.required ?? []);
  return Object.entries(top.properties ?? {}).map(([name, raw]) => {
    const { node, nullable } = unwrap(resolve(raw), resolve);
    const type = typeOf(node);
    const values = enumOf(node);
    return {
      name,
      type,
      required: required.has(name) && node.default === undefined,
      example: exampleOf(name, node, type, values, nullable),
      description: describe(node, type, values, nullable),
      enum: values,
    };
  });
}

function withoutRef(node: JsonSchema): JsonSchema {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

/**
 * Folds nullable / optional wrappers: `anyOf: [X, {type: 'null'}]` becomes X (nullable), and the
 * outer node's description, example and default win over the inner ones.
 */
function unwrap(
  node: JsonSchema,
  resolve: (n: JsonSchema) => JsonSchema,
): { node: JsonSchema; nullable: boolean } {
  const options = node.anyOf ?? node.oneOf;
  let nullable = Array.isArray(node.type) && node.type.includes('null');
  if (options) {
    const members = options.map(resolve);
    const nonNull = members.filter((m) => m.type !== 'null');
    nullable ||= nonNull.length < members.length;
    const { anyOf: _a, oneOf: _o, ...outer } = node;
    if (nonNull.length === 1) {
      const inner = unwrap(nonNull[0]!, resolve);
      return { node: { ...inner.node, ...outer }, nullable: nullable || inner.nullable };
    }
    // A union of constants reads as an enum; other unions keep the first member's shape.
    if (nonNull.length > 1 && nonNull.every((m) => m.const !== undefined)) {
      return {
        node: { ...outer, enum: nonNull.map((m) => m.const), type: jsonType(nonNull[0]!.const) },
        nullable,
      };
    }
    if (nonNull.length > 1) return { node: { ...unwrap(nonNull[0]!, resolve).node, ...outer }, nullable };
  }
  if (node.allOf?.length === 1) {
    const { allOf: _all, ...outer } = node;
    const inner = unwrap(resolve(node.allOf[0]!), resolve);
    return { node: { ...inner.node, ...outer }, nullable: nullable || inner.nullable };
  }
  return { node, nullable };
}

const jsonType = (v: unknown): string =>
  typeof v === 'number'
    ? Number.isInteger(v)
      ? 'integer'
      : 'number'
    : typeof v === 'boolean'
      ? 'boolean'
      : 'string';

function typeOf(node: JsonSchema): ParamType {
  const declared = (Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type) ?? undefined;
  if (declared && (TYPES as readonly string[]).includes(declared)) return declared as ParamType;
  if (node.const !== undefined) return jsonType(node.const) as ParamType;
  if (node.enum?.length) return jsonType(node.enum[0]) as ParamType;
  if (node.properties) return 'object';
  if (node.items) return 'array';
  return 'string';
}

function enumOf(node: JsonSchema): (string | number)[] | null {
  const raw = node.enum ?? (node.const !== undefined ? [node.const] : null);
  if (!raw) return null;
  const values = raw.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  return values.length > 0 ? values : null;
}

function exampleOf(
  name: string,
  node: JsonSchema,
  type: ParamType,
  values: (string | number)[] | null,
  nullable: boolean,
): unknown {
  if (node.example !== undefined) return node.example;
  if (node.examples?.length) return node.examples[0];
  if (node.default !== undefined) return node.default;
  if (values) return values[0];
  switch (type) {
    case 'integer':
    case 'number': {
      const low =
        node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : undefined);
      const high =
        node.maximum ?? (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : undefined);
      if (/(At|Time)$/.test(name)) return nullable ? null : 1_767_225_600_000; // 2026-01-01 (ms)
      if (low !== undefined && low > 0) return low;
      if (high !== undefined && high < 1) return high;
      return 1;
    }
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return stringExample(name, node);
  }
}

function stringExample(name: string, node: JsonSchema): string {
  const lower = name.toLowerCase();
  let text: string;
  if (node.format === 'uri' || node.format === 'url' || lower.endsWith('url')) {
    text = `https://example.com/${name}`;
  } else if (node.format === 'email') {
    text = 'user@example.com';
  } else if (lower.endsWith('wxid')) {
    text = 'wxid_sim_7k2m9q';
  } else if (lower.endsWith('id')) {
    text = `${name}_123456`;
  } else if (lower.includes('phone') || lower.includes('mobile')) {
    text = '13800138000';
  } else {
    text = '示例';
  }
  if (node.maxLength !== undefined && text.length > node.maxLength) text = text.slice(0, node.maxLength);
  if (node.minLength !== undefined && text.length < node.minLength) text = text.padEnd(node.minLength, 'x');
  return text;
}

const FORMATS: Record<string, string> = {
  uri: '以 http:// 或 https:// 开头的完整地址',
  url: '以 http:// 或 https:// 开头的完整地址',
  email: '邮箱地址',
  date: '日期 YYYY-MM-DD',
  'date-time': '日期时间（ISO 8601）',
};

/** The schema's description, then its constraints in Chinese ("最长 64 个字符", "取值 1-3600", ...). */
function describe(
  node: JsonSchema,
  type: ParamType,
  values: (string | number)[] | null,
  nullable: boolean,
): string {
  const rules: string[] = [];
  if (values) rules.push(`可选值：${values.join('、')}`);
  if (type === 'string') {
    const { minLength: min, maxLength: max } = node;
    if (min !== undefined && max !== undefined)
      rules.push(min === max ? `${min} 个字符` : `${min}-${max} 个字符`);
    else if (max !== undefined) rules.push(`最长 ${max} 个字符`);
    else if (min !== undefined && min > 1) rules.push(`至少 ${min} 个字符`);
    else if (min === 1) rules.push('不能为空');
    if (node.format && FORMATS[node.format]) rules.push(FORMATS[node.format]!);
    else if (node.pattern && !values) rules.push(`格式：${node.pattern}`);
  }
  if (type === 'integer' || type === 'number') {
    const low = node.minimum ?? node.exclusiveMinimum;
    const high = node.maximum ?? node.exclusiveMaximum;
    const kind = type === 'integer' ? '整数' : '数字';
    if (low !== undefined && high !== undefined) rules.push(`${kind}，取值 ${low}-${high}`);
    else if (low !== undefined) rules.push(`${kind}，最小 ${low}`);
    else if (high !== undefined) rules.push(`${kind}，最大 ${high}`);
    else rules.push(kind);
  }
  if (type === 'array') {
    if (node.maxItems !== undefined) rules.push(`最多 ${node.maxItems} 项`);
    if (node.minItems !== undefined && node.minItems > 0) rules.push(`至少 ${node.minItems} 项`);
  }
  if (nullable) rules.push('可为 null');
  if (node.default !== undefined) rules.push(`默认 ${JSON.stringify(node.default)}`);
  return [node.description, rules.join('，')].filter((s) => s).join('；');
}
