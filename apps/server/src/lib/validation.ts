import type { z } from 'zod';

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
export function describeIssues(issues: z.core.$ZodIssue[]): string {
  const issue = issues[0];
  if (!issue) return '请求参数错误';
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branches = [...issue.errors].sort((a, b) => rank(a) - rank(b));
    return describeIssues(branches[0] ?? []);
  }
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') return `不支持的参数：${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return field ? `${field}：缺少必填参数` : '请求体不能为空';
  }
  const message = /^[\x20-\x7e]*$/.test(issue.message) ? `参数格式错误（${issue.message}）` : issue.message;
  return field ? `${field}：${message}` : message;
}

function rank(issues: z.core.$ZodIssue[]): number {
  const unknownKeys = issues.some((i) => i.code === 'unrecognized_keys') ? 100 : 0;
  return unknownKeys + issues.length;
}
