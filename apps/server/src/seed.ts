import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { DB } from './db/schema.js';
import { newId } from './lib/crypto.js';
import { hashPassword } from './modules/auth/password.js';
import * as users from './modules/auth/repo.js';

export const DEMO_ACCOUNT = '13800000000';
export const DEMO_PASSWORD = 'demo123456';
export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password.txt';

export interface SeedReport {
  admin: { account: string; password?: string; passwordFile?: string; created: boolean };
  demo?: { account: string; password: string };
}

/**
 * First start: an operator account (ADMIN_ACCOUNT/ADMIN_PASSWORD, or a generated password printed
 * once and kept in DATA_DIR for the embedded default) and, in the embedded default, a demo company.
 */
export async function seed(db: Kysely<DB>, config: Config): Promise<SeedReport> {
  const now = Date.now();
  const report: SeedReport = { admin: { account: config.admin.account, created: false } };
  const passwordFile = path.join(config.dataDir, INITIAL_ADMIN_PASSWORD_FILE);

  if (!(await users.hasUserWithRole(db, 'admin'))) {
    let password = config.admin.password;
    if (!password) {
      if (config.isProduction || config.databaseUrl) {
        throw new Error('No operator account yet: set ADMIN_ACCOUNT and ADMIN_PASSWORD for the first start');
      }
      password = randomBytes(9).toString('base64url');
      fs.mkdirSync(config.dataDir, { recursive: true });
      fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
      report.admin.password = password;
    }
    await users.insertUser(db, {
      id: newId(),
      account: config.admin.account,
      password_hash: await hashPassword(password),
      role: 'admin',
      company_name: '运营中心',
      user_name: '运营',
      account_type: 1,
      real_name_status: 1,
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    report.admin.created = true;
  } else if (fs.existsSync(passwordFile)) {
    report.admin.passwordFile = passwordFile;
  }

  if (config.seedDemo) {
    if (!(await users.findUserByAccount(db, DEMO_ACCOUNT))) {
      await users.insertUser(db, {
        id: newId(),
        account: DEMO_ACCOUNT,
        password_hash: await hashPassword(DEMO_PASSWORD),
        role: 'customer',
        company_name: '示例科技有限公司',
        user_name: '演示用户',
        account_type: 1,
        real_name_status: 0,
        status: 'active',
        created_at: now,
        updated_at: now,
      });
    }
    report.demo = { account: DEMO_ACCOUNT, password: DEMO_PASSWORD };
  }
  return report;
}
