import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { devOutboxProvider } from './provider.js';

describe('dev outbox SMS provider', () => {
  it('writes one clearly marked [dev-sms] line with number, scene and code', async () => {
    const lines: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => lines.push(args) } as unknown as FastifyBaseLogger;
    const provider = devOutboxProvider(log);
    expect(provider.name).toBe('dev-outbox');
    await provider.sendCode('13900000000', 'resetPassword', '012345');
    expect(lines).toEqual([['[dev-sms] to=13900000000 scene=resetPassword code=012345']]);
  });
});
