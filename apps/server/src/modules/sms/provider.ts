import type { SmsScene } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';

/** Where SMS codes go. Real providers plug in here, selected by SMS_PROVIDER. */
export interface SmsProvider {
  readonly name: string;
  sendCode(phone: string, scene: SmsScene, code: string): Promise<void>;
}

/**
 * Development outbox: writes the code to the server log, marked `[dev-sms]`. This line is the only
 * place a code appears outside a real SMS; the API never returns it.
 */
export function devOutboxProvider(log: FastifyBaseLogger): SmsProvider {
  return {
    name: 'dev-outbox',
    async sendCode(phone, scene, code) {
      log.warn(`[dev-sms] to=${phone} scene=${scene} code=${code}`);
    },
  };
}
