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
  /** The uploaded customer-support QR image: `{"key":…,"mime":…}` in file storage. */
  supportQr: 'support_qr',
} as const;

export type ValueName = keyof typeof VALUES;

export interface SettingsService {
  isOn(name: SwitchName): Promise<boolean>;
  setSwitch(name: SwitchName, on: boolean): Promise<void>;
  value(name: ValueName): Promise<string | null>;
  /** null clears it (back to the default). */
  setValue(name: ValueName, value: string | null): Promise<void>;
}

export function createSettingsService(db: Kysely<DB>): SettingsService {
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
  };
}
