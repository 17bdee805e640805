import type { z } from 'zod';
import { fieldError } from './validate';

/** An antd Form rule from a contract field schema: the same Chinese message as the service. */
export function zodRule(schema: z.ZodType) {
  return {
    validator: (_rule: unknown, value: unknown) => {
      const message = fieldError(schema, value ?? '');
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  };
}

/** "Repeat the password" rule for antd Forms. */
export function sameAs(getOther: () => unknown, message = '两次输入的密码不一致') {
  return {
    validator: (_rule: unknown, value: unknown) =>
      !value
        ? Promise.reject(new Error('请再次输入密码'))
        : value === getOther()
          ? Promise.resolve()
          : Promise.reject(new Error(message)),
  };
}
