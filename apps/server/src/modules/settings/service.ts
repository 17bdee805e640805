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

export interface SettingsService {
  isOn(name: SwitchName): Promise<boolean>;
  setSwitch(name: SwitchName, on: boolean): Promise<void>;
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
  };
}
