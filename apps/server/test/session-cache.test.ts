import { authCalls, realNameCalls } from '@wxc/contract';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBus } from '../src/modules/events/bus.js';
import {
  createAdmin,
  createPgSchema,
  createTestApp,
  dialects,
  loginToken,
  registerCompany,
  sendCode,
  type TestApp,
  uniquePhone,
} from './helpers.js';
import { bothImages, upload } from './realname-helpers.js';

/**
 * Authenticated requests answer from in-process copies of the session and the user
 * (modules/auth/cache.ts). Whatever changes them is seen by the very next request: in the process
 * that made the change, and in every other process sharing the database.
 */

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const me = (t: TestApp, token: string) => t.call(authCalls.refreshLoginInfo, {}, { token });

describe.each(dialects)('session and user copies (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('a used session is refused the moment it is logged out', async () => {
    const c = await registerCompany(t);
    for (let i = 0; i < 3; i++) expect((await me(t, c.token)).code).toBe('200'); // copies taken
    expect((await t.call(authCalls.logout, {}, { token: c.token })).code).toBe('200');
    expect(await me(t, c.token)).toMatchObject({ status: 401, code: '403' });
  });

  it('a password change ends the other sessions at once and keeps the caller’s', async () => {
    const c = await registerCompany(t);
    const other = (await loginToken(t, c.phone, c.password)).data.token as string;
    expect((await me(t, c.token)).code).toBe('200');
    expect((await me(t, other)).code).toBe('200');
    const res = await t.call(
      authCalls.resetPassword,
      { oldPassword: c.password, password: 'newSecret456', checkPassword: 'newSecret456' },
      { token: other },
    );
    expect(res.code).toBe('200');
    expect(await me(t, c.token)).toMatchObject({ code: '403' });
    expect((await me(t, other)).code).toBe('200');
  });

  it('profile changes show in the next answer: user name, company name, phone, real-name status', async () => {
    const c = await registerCompany(t);
    expect((await me(t, c.token)).data.userName).toBe(c.phone);
    expect((await t.call(authCalls.modUserName, { userName: '李四' }, { token: c.token })).code).toBe('200');
    expect((await me(t, c.token)).data.userName).toBe('李四');
    await t.call(authCalls.updateCompanyInfo, { companyName: '新名字科技有限公司' }, { token: c.token });
    expect((await me(t, c.token)).data.companyName).toBe('新名字科技有限公司');

    const phone = uniquePhone();
    const verifyCode = await sendCode(t, phone, 'changePhone', { token: c.token, ip: '10.88.0.1' });
    expect((await t.call(authCalls.changePhone, { phone, verifyCode }, { token: c.token })).code).toBe('200');
    expect((await me(t, c.token)).data.companyAccount).toBe(phone);

    // Written inside a transaction (the review), announced once it commits.
    expect((await upload(t, realNameCalls.uploadRealNameSource.path, c.token, bothImages())).code).toBe(
      '200',
    );
    expect((await me(t, c.token)).data.realNameUser).toBe(2);
    const admin = await createAdmin(t);
    const passed = await t.call(
      realNameCalls.passRealNameAuth,
      { userId: c.user.id },
      { token: admin.token },
    );
    expect(passed.code).toBe('200');
    expect((await me(t, c.token)).data.realNameUser).toBe(1);
  });
});

describe.skipIf(!dialects.includes('postgres'))('copies across processes (postgres)', () => {
  let schema: { schema: string; drop: () => Promise<void> };
  let a: TestApp;
  let b: TestApp;
  const pgBus = () => createPostgresBus(process.env.TEST_DATABASE_URL!, pino({ level: 'silent' }));
  beforeAll(async () => {
    schema = await createPgSchema();
    // Two processes' worth of service on one database, each with its own LISTEN/NOTIFY bus.
    a = await createTestApp('postgres', {}, { pgSchema: schema.schema, app: { bus: await pgBus() } });
    b = await createTestApp('postgres', {}, { pgSchema: schema.schema, app: { bus: await pgBus() } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  it('a logout on one process is refused on the other at once', async () => {
    const c = await registerCompany(a);
    for (let i = 0; i < 3; i++) expect((await me(b, c.token)).code).toBe('200'); // B holds copies
    expect((await a.call(authCalls.logout, {}, { token: c.token })).code).toBe('200');
    expect(await me(b, c.token)).toMatchObject({ status: 401, code: '403' });
  });

  it('a password change on one process ends the other sessions on the other at once', async () => {
    const c = await registerCompany(a);
    const other = (await loginToken(a, c.phone, c.password)).data.token as string;
    expect((await me(b, c.token)).code).toBe('200');
    const res = await a.call(
      authCalls.resetPassword,
      { oldPassword: c.password, password: 'newSecret456', checkPassword: 'newSecret456' },
      { token: other },
    );
    expect(res.code).toBe('200');
    expect(await me(b, c.token)).toMatchObject({ code: '403' });
    expect((await me(b, other)).code).toBe('200');
  });

  it('a profile change on one process shows on the other at once', async () => {
    const c = await registerCompany(a);
    expect((await me(b, c.token)).data.userName).toBe(c.phone);
    await a.call(authCalls.modUserName, { userName: '王五' }, { token: c.token });
    expect((await me(b, c.token)).data.userName).toBe('王五');
  });

  it('a process that never acknowledges is not waited for long, and one that said goodbye not at all', async () => {
    // A process that announces itself (heartbeat) and then answers nothing: stuck, or an old build.
    const ghost = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await ghost.connect();
    try {
      const say = (wire: object) =>
        ghost.query(`select pg_notify('wxc_live', $1)`, [JSON.stringify({ o: 'ghost-1', ...wire })]);
      await say({ h: 1 });
      await sleep(200);
      const c = await registerCompany(a);
      expect((await me(b, c.token)).code).toBe('200');
      const started = Date.now();
      expect((await a.call(authCalls.logout, {}, { token: c.token })).code).toBe('200');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900); // it waited for the ghost's answer
      expect(await me(b, c.token)).toMatchObject({ code: '403' });
      // Gone: the next change waits for B alone.
      await say({ bye: 1 });
      await sleep(200);
      const d = await registerCompany(a);
      expect((await a.call(authCalls.logout, {}, { token: d.token })).code).toBe('200');
      expect(await me(b, d.token)).toMatchObject({ code: '403' });
    } finally {
      await ghost.end();
    }
  });

  it('a process whose listener is lost reads the database until it listens again, then drops its copies', async () => {
    const c = await registerCompany(a);
    const kept = await registerCompany(a);
    expect((await me(b, c.token)).code).toBe('200');
    expect((await me(b, kept.token)).data.userName).toBe(kept.phone);
    // Cut every live-event listener of the database (both processes' LISTEN connections).
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN wxc_live' and pid <> pg_backend_pid()`,
      );
    } finally {
      await admin.end();
    }
    const deadline = Date.now() + 5000;
    while (b.app.services.bus.changesLive() && Date.now() < deadline) await sleep(10);
    expect(b.app.services.bus.changesLive()).toBe(false);

    // Announced while B cannot hear: B must not answer from what it held.
    expect((await a.call(authCalls.logout, {}, { token: c.token })).code).toBe('200');
    await a.call(authCalls.modUserName, { userName: '赵六' }, { token: kept.token });
    expect(await me(b, c.token)).toMatchObject({ code: '403' });

    // Listening again (reconnected): still refused, and the change B missed is seen.
    const back = Date.now() + 10_000;
    while (!b.app.services.bus.changesLive() && Date.now() < back) await sleep(50);
    expect(b.app.services.bus.changesLive()).toBe(true);
    expect(await me(b, c.token)).toMatchObject({ code: '403' });
    expect((await me(b, kept.token)).data.userName).toBe('赵六');
  });
});
