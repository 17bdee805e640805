import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import * as repo from './repo.js';

/** Operator switches, stored in the database so every server process sees the same value. */
const SWITCHES = {
  /** Self-service registration (/api/normal/isAutoRegiste). */
  autoRegister: { key: 'auto_register', default: true },
  /** When on, buying packages and opening API access need a verified company (/api/isOpenRealName). */
  realName: { key: 'real_name_required', default: false },
} as const;

export type SwitchName = keyof typeof SWITCHES;

/** Operator-edited values; absent means "use the configured default". */
const VALUES = {
  /** Customer-support text beside the QR image. */
  supportText: 'support_text',
  /** The uploaded customer-support QR image: the id of its file (kind `support`). */
  supportQr: 'support_qr',
} as const;

export type ValueName = keyof typeof VALUES;

/**
 * Random keys of this installation, made on first use and kept in the database, so every server
 * process uses the same one. Never shown anywhere.
 */
const SECRETS = {
  /** HMAC key of signed file links (files/service.ts). */
  fileUrlKey: 'file_url_key',
  /** Salt of the visitor digest (visitors/service.ts). */
  visitorSalt: 'visitor_salt',
} as const;

export type SecretName = keyof typeof SECRETS;

export interface SettingsService {
  isOn(name: SwitchName): Promise<boolean>;
  setSwitch(name: SwitchName, on: boolean): Promise<void>;
  value(name: ValueName): Promise<string | null>;
  /** null clears it (back to the default). */
  setValue(name: ValueName, value: string | null): Promise<void>;
  /** This installation's random key of that name (256 bits, hex), created on first use. */
  secret(name: SecretName): Promise<string>;
}

export function createSettingsService(db: Kysely<DB>): SettingsService {
  const secrets = new Map<SecretName, Promise<string>>();
  return {
    async isOn(name) {
      const value = await repo.get(db, SWITCHES[name].key);
      return value === undefined ? SWITCHES[name].default : value === 'true';
    },
    async setSwitch(name, on) {
      await repo.set(db, SWITCHES[name].key, String(on), Date.now());
    },
    async value(name) {
      return (await repo.get(db, VALUES[name])) ?? null;
    },
    async setValue(name, value) {
      if (value === null) await repo.remove(db, VALUES[name]);
      else await repo.set(db, VALUES[name], value, Date.now());
    },
    secret(name) {
      let secret = secrets.get(name);
      if (!secret) {
        secret = (async () => {
          // The first process to get here decides the value; the others read it back.
          await repo.insertIfAbsent(db, SECRETS[name], randomBytes(32).toString('hex'), Date.now());
          return (await repo.get(db, SECRETS[name]))!;
        })();
        secrets.set(name, secret);
      }
      return secret;
    },
  };
}
