import { emptyRequest } from '@wxc/contract';
import type { z } from 'zod';

/**
 * The validator of `emptyRequest` (a call without parameters): no body or `{}` is `{}`, as zod would
 * answer; anything else goes through the schema for its exact message.
 */
export function emptyInput(data: unknown): { value: object } | { error: RequestValidationError } {
  if (data === undefined || data === null || isEmptyPlainObject(data)) return { value: {} };
  const result = emptyRequest.safeParse(data, { reportInput: true });
  return result.success ? { value: result.data } : { error: new RequestValidationError(result.error.issues) };
}

function isEmptyPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null; // null: a parsed query string
}

/** Thrown by the validator compiler; the error handler turns it into a "400" naming the field. */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(describeIssues(issues));
    this.name = 'RequestValidationError';
  }
}

/**
 * One message a person can read: the field path and the schema's (Chinese) message.
 * For a union (e.g. resetPassword's two forms) the branch the caller most likely meant is used:
 * the one without unknown fields, then the one with the fewest problems.
 */
export function describeIssues(issues: z.core.$ZodIssue[], prefix: PropertyKey[] = []): string {
  const issue = issues[0];
  if (!issue) return '请求参数错误';
  const path = [...prefix, ...issue.path];
  // A union with its own (Chinese) message says it best; otherwise explain the likeliest branch.
  if (issue.code === 'invalid_union' && issue.errors.length > 0 && isGeneric(issue.message)) {
    const branches = [...issue.errors].sort((a, b) => rank(a) - rank(b));
    return describeIssues(branches[0] ?? [], path);
  }
  const field = path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return `不支持的参数：${issue.keys.map((k) => (field ? `${field}.${k}` : k)).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return field ? `${field}：缺少必填参数` : '请求体不能为空';
  }
  if (issue.code === 'invalid_type' && isGeneric(issue.message)) {
    return `${field || '请求体'}：类型错误，应为 ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  }
  const message = isGeneric(issue.message) ? `参数格式错误（${issue.message}）` : issue.message;
  return field ? `${field}：${message}` : message;
}

const TYPE_NAMES: Record<string, string> = {
  string: '字符串',
  number: '数字',
  int: '整数',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
};

/** zod's own messages are English; ours are Chinese. */
const isGeneric = (message: string) => /^[\x20-\x7e]*$/.test(message);

function rank(issues: z.core.$ZodIssue[]): number {
  const unknownKeys = issues.some((i) => i.code === 'unrecognized_keys') ? 100 : 0;
  return unknownKeys + issues.length;
}

/**
 * The path of the first string in a request that holds a NUL character, or null. No field may carry
 * one: PostgreSQL text cannot store it (the write fails with a 500) and no person types it, so it is
 * refused for every call at the edge, before any schema, instead of field by field.
 */
export function pathOfNul(value: unknown, depth = 0): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  // The path is made only on the way back from a find: clean input (every request) allocates nothing.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOfNul(value[i], depth + 1);
      if (found) return [i, ...found];
    }
    return null;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes('\u0000')) return [key];
    const found = pathOfNul((value as Record<string, unknown>)[key], depth + 1);
    if (found) return [key, ...found];
  }
  return null;
}

/** The validation error for a NUL character at `path`. */
export function nulError(path: PropertyKey[]): RequestValidationError {
  return new RequestValidationError([
    { code: 'custom', path, message: '不能包含空字符（\\0）', input: undefined } as z.core.$ZodIssue,
  ]);
}
