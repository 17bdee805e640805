import fs from 'node:fs';
import path from 'node:path';
import { authCalls } from '@wxc/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../src/config.js';
import { DEMO_ACCOUNT, DEMO_PASSWORD, INITIAL_ADMIN_PASSWORD_FILE, seed } from '../src/seed.js';
import {
  createAdmin,
  createTestApp,
  dialects,
  FIXED_CAPTCHA,
  loginToken,
  registerCompany,
  type TestApp,
  tableCounts,
  tempDataDir,
  uniquePhone,
} from './helpers.js';

describe.each(dialects)('auto-register switch (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('isAutoRegiste is open by default, for anyone', async () => {
    const res = await t.call(authCalls.isAutoRegiste, {});
    expect(res).toMatchObject({ status: 200, code: '200', data: { open: true } });
    const bare = await t.app.inject({ method: 'POST', url: authCalls.isAutoRegiste.path });
    expect(bare.json()).toMatchObject({ code: '200', data: { open: true } });
    // biome-ignore lint/suspicious/noExplicitAny: deliberately unknown parameter
    const extra = await t.call(authCalls.isAutoRegiste, { open: false } as any);
    expect(extra).toMatchObject({ status: 400, code: '400', message: '不支持的参数：open' });
  });

  it('openAutoRegiste: a customer gets 40300 (HTTP 403) and nothing changes', async () => {
    const c = await registerCompany(t);
    const before = await tableCounts(t.database);
    const res = await t.call(authCalls.openAutoRegiste, { open: false }, { token: c.token });
    expect(res).toMatchObject({ status: 403, code: '40300', message: '没有权限执行此操作', data: null });
    expect(await tableCounts(t.database)).toEqual(before);
    expect((await t.call(authCalls.isAutoRegiste, {})).data).toEqual({ open: true });
  });

  it('openAutoRegiste: no session or a dead one is "403" and nothing changes', async () => {
    const c = await registerCompany(t);
    await t.call(authCalls.logout, {}, { token: c.token });
    const before = await tableCounts(t.database);
    for (const token of [undefined, 'nope', c.token]) {
      const res = await t.call(authCalls.openAutoRegiste, { open: false }, { token });
      expect(res).toMatchObject({ status: 401, code: '403' });
    }
    expect(await tableCounts(t.database)).toEqual(before);
    expect((await t.call(authCalls.isAutoRegiste, {})).data).toEqual({ open: true });
  });

  it('an operator switches it off and on; each switch is audited; registration follows', async () => {
    const admin = await createAdmin(t);
    expect(admin.user).toMatchObject({ companyAccount: 'ops-admin', roles: ['admin'] });

    const off = await t.call(authCalls.openAutoRegiste, { open: false }, { token: admin.token });
    expect(off).toMatchObject({ status: 200, code: '200', data: { open: false } });
    expect((await t.call(authCalls.isAutoRegiste, {})).data).toEqual({ open: false });
    await expect(registerCompany(t)).rejects.toThrow(/暂未开放注册/);

    const on = await t.call(authCalls.openAutoRegiste, { open: true }, { token: admin.token });
    expect(on.data).toEqual({ open: true });
    expect((await t.call(authCalls.isAutoRegiste, {})).data).toEqual({ open: true });
    await registerCompany(t);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'detail', 'user_id'])
      .where('action', '=', 'settings.autoRegister')
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => [a.user_id, JSON.parse(a.detail)])).toEqual([
      [admin.user.id, { open: false }],
      [admin.user.id, { open: true }],
    ]);
  });

  it('openAutoRegiste: bad input is 400 naming open, writing nothing', async () => {
    const admin = await createAdmin(t);
    const before = await tableCounts(t.database);
    for (const payload of [{}, { open: 'false' }, { open: 0 }, { open: null }]) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
      const res = await t.call(authCalls.openAutoRegiste, payload as any, { token: admin.token });
      expect(res, JSON.stringify(payload)).toMatchObject({ status: 400, code: '400' });
      expect(res.message).toMatch(/^open：/);
    }
    // biome-ignore lint/suspicious/noExplicitAny: deliberately malformed input
    const extra = await t.call(authCalls.openAutoRegiste, { open: true, x: 1 } as any, {
      token: admin.token,
    });
    expect(extra).toMatchObject({ status: 400, message: '不支持的参数：x' });
    expect(await tableCounts(t.database)).toEqual(before);
  });
});

describe.each(dialects)('first start: seed (%s)', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  beforeEach(async () => {
    t = await createTestApp(dialect);
    dataDir = tempDataDir();
  });
  afterEach(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const config = (env: Record<string, string> = {}) =>
    loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SEED_DEMO: 'false', ...env });
  const users = () => t.database.db.selectFrom('users').selectAll().orderBy('created_at').execute();

  it('creates the operator from ADMIN_ACCOUNT/ADMIN_PASSWORD once; a second run creates nothing', async () => {
    const cfg = config({ ADMIN_ACCOUNT: 'boss', ADMIN_PASSWORD: 'boss-pass-123' });
    const first = await seed(t.database.db, cfg);
    expect(first.admin).toEqual({ account: 'boss', created: true });
    expect(first.demo).toBeUndefined();
    const rows = await users();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account: 'boss', role: 'admin', status: 'active' });
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(fs.existsSync(path.join(dataDir, INITIAL_ADMIN_PASSWORD_FILE))).toBe(false);

    const before = await tableCounts(t.database);
    const second = await seed(
      t.database.db,
      config({ ADMIN_ACCOUNT: 'other', ADMIN_PASSWORD: 'other-pass-1' }),
    );
    expect(second.admin.created).toBe(false);
    expect(await tableCounts(t.database)).toEqual(before);

    const login = await loginToken(t, 'boss', 'boss-pass-123');
    expect(login.code).toBe('200');
    expect(login.data.userInfo).toMatchObject({ companyAccount: 'boss', roles: ['admin'] });
  });

  it('embedded default without ADMIN_PASSWORD: generates one, keeps it in DATA_DIR, reports it once', async () => {
    const first = await seed(t.database.db, config());
    expect(first.admin.created).toBe(true);
    expect(first.admin.account).toBe('admin');
    const password = first.admin.password!;
    expect(password).toMatch(/^[\w-]{12,}$/);
    const file = path.join(dataDir, INITIAL_ADMIN_PASSWORD_FILE);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${password}\n`);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await loginToken(t, 'admin', password)).code).toBe('200');

    const second = await seed(t.database.db, config());
    expect(second.admin).toEqual({ account: 'admin', created: false, passwordFile: file });
    expect(fs.readFileSync(file, 'utf8')).toBe(`${password}\n`);
    expect(await users()).toHaveLength(1);
  });

  it.each([
    ['production', { NODE_ENV: 'production' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://db.example/app' }],
  ])('refuses to generate an operator password with %s', async (name, env) => {
    // Production needs more settings than this test is about; only isProduction matters to seed().
    const cfg = (extra: Record<string, string> = {}): Config => {
      if (name !== 'production') return loadConfig({ DATA_DIR: dataDir, ...env, ...extra });
      return {
        ...loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false', ...extra }),
        env: 'production',
        isProduction: true,
      };
    };
    const before = await tableCounts(t.database);
    await expect(seed(t.database.db, cfg())).rejects.toThrow(/ADMIN_ACCOUNT and ADMIN_PASSWORD/);
    expect(await tableCounts(t.database)).toEqual(before);
    expect(fs.existsSync(path.join(dataDir, INITIAL_ADMIN_PASSWORD_FILE))).toBe(false);
    // With a password given it is fine, and there is no demo company.
    const ok = await seed(t.database.db, cfg({ ADMIN_PASSWORD: 'given-pass-1' }));
    expect(ok.admin.created).toBe(true);
    expect(ok.demo).toBeUndefined();
    expect((await users()).map((u) => u.role)).toEqual(['admin']);
  });

  it('seeds the demo customer only when seedDemo is on; its login works', async () => {
    await seed(t.database.db, config({ ADMIN_PASSWORD: 'admin-pass-1' }));
    expect((await users()).some((u) => u.account === DEMO_ACCOUNT)).toBe(false);

    const embedded = loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'admin-pass-1',
    });
    expect(embedded.seedDemo).toBe(true);
    const report = await seed(t.database.db, embedded);
    expect(report.demo).toEqual({ account: DEMO_ACCOUNT, password: DEMO_PASSWORD });
    const again = await seed(t.database.db, embedded);
    expect(again.demo).toEqual(report.demo);
    const demo = (await users()).filter((u) => u.account === DEMO_ACCOUNT);
    expect(demo).toHaveLength(1);
    expect(demo[0]).toMatchObject({ role: 'customer', status: 'active' });

    const login = await t.call(authCalls.login, {
      companyAccount: DEMO_ACCOUNT,
      password: DEMO_PASSWORD,
      captchaId: 'x',
      captchaCode: FIXED_CAPTCHA,
    });
    expect(login.code).toBe('200');
    expect(login.data.userInfo).toMatchObject({ companyAccount: DEMO_ACCOUNT, roles: ['customer'] });
    expect(uniquePhone()).not.toBe(DEMO_ACCOUNT);
  });
});
