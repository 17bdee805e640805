import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadPuppetModule, PuppetModuleError } from './puppet.js';

const settings = (module: string) => ({
  module,
  endpoint: undefined,
  tokens: [],
  tls: { enabled: true, caCert: undefined, serverName: undefined },
});

describe('loadPuppetModule', () => {
  it('says what to install when the puppet module is missing', async () => {
    const err = await loadPuppetModule(settings('wechaty-puppet-nowhere')).catch((e) => e);
    expect(err).toBeInstanceOf(PuppetModuleError);
    expect(err.message).toContain('npm install wechaty-puppet-nowhere');
  });

  it('refuses a module that exports no puppet class', async () => {
    await expect(loadPuppetModule(settings('file-box'))).rejects.toThrow(/exports no puppet class/);
  });

  it('makes puppets of an installed module, and sends their warnings to our logger', async () => {
    const loaded = await loadPuppetModule(settings('wechaty-puppet-mock'));
    const puppet = loaded.createPuppet({ deviceId: 'd1', token: undefined });
    expect(typeof puppet.start).toBe('function');
    expect(puppet.isLoggedIn).toBe(false);

    const lines: { level: string; msg: string }[] = [];
    const logger = {
      warn: (_o: unknown, msg: string) => lines.push({ level: 'warn', msg }),
      error: (_o: unknown, msg: string) => lines.push({ level: 'error', msg }),
    } as unknown as FastifyBaseLogger;
    loaded.forwardLogs(logger);
    const { log } = await import('wechaty-puppet');
    log.warn('Test', 'a %s warning', 'puppet');
    log.error('Test', 'an error');
    log.verbose('Test', 'token %s', 'secret-token'); // below warn: never printed anywhere
    expect(lines).toEqual([
      { level: 'warn', msg: expect.stringContaining('a puppet warning') },
      { level: 'error', msg: expect.stringContaining('an error') },
    ]);
  });
});
