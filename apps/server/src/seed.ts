import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DAY_MS } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { DB } from './db/schema.js';
import { newId } from './lib/crypto.js';
import * as apiAccounts from './modules/api-accounts/repo.js';
import { hashPassword } from './modules/auth/password.js';
import * as users from './modules/auth/repo.js';
import * as orders from './modules/orders/repo.js';
import * as packages from './modules/packages/repo.js';
import { DEMO_CATALOGUE } from './modules/packages/service.js';

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

  // A fresh non-production database starts with a sensible catalogue; operators edit it later.
  if (!config.isProduction && (await packages.countPackages(db)) === 0) {
    for (const p of DEMO_CATALOGUE) {
      await packages.insertPackage(db, {
        id: newId(),
        name: p.name,
        tier: p.tier,
        slots: p.slots,
        duration_days: p.durationDays,
        price_fen: p.priceFen,
        on_sale: p.onSale ? 1 : 0,
        description: p.description,
        created_at: now,
        updated_at: now,
      });
    }
  }

  if (config.seedDemo) {
    if (!(await users.findUserByAccount(db, DEMO_ACCOUNT))) {
      const companyId = newId();
      await users.insertUser(db, {
        id: companyId,
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
      await seedDemoPurchase(db, companyId, now);
    }
    report.demo = { account: DEMO_ACCOUNT, password: DEMO_PASSWORD };
  }
  return report;
}

/** The demo company holds a paid 商务版 package and one sub-account with part of its slots. */
async function seedDemoPurchase(db: Kysely<DB>, companyId: string, now: number) {
  const pkg = (await packages.listPackages(db, true)).find((p) => p.tier === 'business');
  if (!pkg) return;
  const subscriptionId = newId();
  await packages.insertSubscription(db, {
    id: subscriptionId,
    company_id: companyId,
    package_id: pkg.id,
    package_name: pkg.name,
    tier: pkg.tier,
    slots: pkg.slots,
    starts_at: now,
    ends_at: now + pkg.duration_days * DAY_MS,
    created_at: now,
    updated_at: now,
  });
  await orders.insert(db, {
    id: newId(),
    order_no: `WXDEMO${now}`,
    company_id: companyId,
    idempotency_key: 'demo-seed',
    kind: 'buy',
    package_id: pkg.id,
    subscription_id: subscriptionId,
    package_name: pkg.name,
    tier: pkg.tier,
    slots: pkg.slots,
    duration_days: pkg.duration_days,
    quantity: 1,
    amount_fen: Number(pkg.price_fen),
    state: 'paid',
    pay_method: 'sandbox',
    note: '演示数据',
    created_at: now,
    pay_deadline: now,
    paid_at: now,
    closed_at: now,
  });
  await apiAccounts.insert(db, {
    id: newId(),
    company_id: companyId,
    name: '演示应用',
    app_key: `ak_${randomBytes(10).toString('hex')}`,
    // Nobody knows this secret: the demo user resets it in 子账号 to call the API.
    secret_hash: randomBytes(32).toString('hex'),
    available_num: 5,
    callback_url: null,
    status: 'active',
    created_at: now,
    updated_at: now,
    recovered_at: null,
  });
}
