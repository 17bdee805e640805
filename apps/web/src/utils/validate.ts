import type { z } from 'zod';

/**
 * Field rules come from the contract's zod field schemas, so the form shows the same Chinese message
 * the service would answer. These helpers turn a schema into "first message or nothing".
 */
export function fieldError(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : (result.error.issues[0]?.message ?? '输入有误');
}

/** Validates a whole object schema and returns the first message per top-level field. */
export function formErrors<T extends string>(schema: z.ZodType, values: unknown): Partial<Record<T, string>> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<T, string>> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '') as T;
    if (key && errors[key] === undefined) errors[key] = issue.message;
  }
  return errors;
}
