import { createHash, createHmac, randomUUID } from 'node:crypto';
import { messagingCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers.js';

/** The settings a production start needs besides NODE_ENV (the test helper's fixed captcha is unset). */
const PRODUCTION = {
  NODE_ENV: 'production',
  CAPTCHA_FIXED_CODE: '',
  SMS_DEV_OUTBOX_IN_PRODUCTION: 'true',
  PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
};

const sha256hex = (data: string) => createHash('sha256').update(data).digest('hex');

/** A company and an active sub-account written straight to the database; returns its credentials. */
async function subAccount(t: TestApp) {
  const now = Date.now();
  const companyId = randomUUID();
  const appKey = `ak_${randomUUID().replaceAll('-', '')}`;
  const appSecret = `sk_${randomUUID().replaceAll('-', '')}`;
  await t.database.db
    .insertInto('users')
    .values({
      id: companyId,
      account: `api-${companyId.slice(0, 8)}`,
      password_hash: 'x',
      role: 'customer',
      company_name: '测试科技有限公司',
      user_name: '测试',
      account_type: 1,
      real_name_status: 0,
      status: 'active',
      created_at: now,
      updated_at: now,
    })
    .execute();
  await t.database.db
    .insertInto('api_accounts')
    .values({
      id: randomUUID(),
      company_id: companyId,
      name: '机器人',
      app_key: appKey,
      secret_hash: sha256hex(appSecret),
      available_num: 1,
      callback_url: null,
      status: 'active',
      created_at: now,
      updated_at: now,
      recovered_at: null,
    })
    .execute();
  return { appKey, appSecret };
}

const proxyList = (t: TestApp, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: messagingCalls.proxyList.path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: '{}',
  });

function signed(appKey: string, appSecret: string, body: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = `n-${randomUUID()}`;
  const signature = createHmac('sha256', sha256hex(appSecret))
    .update(`POST\n${messagingCalls.proxyList.path}\n${appKey}\n${timestamp}\n${nonce}\n${sha256hex(body)}`)
    .digest('hex');
  return { 'x-app-key': appKey, 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature };
}

describe.each(dialects)('the x-app-secret header mode and https (%s)', (dialect) => {
  let behindProxy: TestApp;
  let direct: TestApp;
  let development: TestApp;
  beforeAll(async () => {
    behindProxy = await createTestApp(dialect, { ...PRODUCTION, TRUST_PROXY: 'true' });
    direct = await createTestApp(dialect, PRODUCTION);
    development = await createTestApp(dialect, { NODE_ENV: 'development' });
  });
  afterAll(async () => {
    await Promise.all([behindProxy.close(), direct.close(), development.close()]);
  });

  it('in production, refuses the secret sent over plain http and says what to do instead', async () => {
    const { appKey, appSecret } = await subAccount(behindProxy);
    const res = await proxyList(behindProxy, { 'x-app-key': appKey, 'x-app-secret': appSecret });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('403');
    expect(res.json().message).toMatch(/HTTPS/);
    expect(res.json().message).toMatch(/签名/);
    // the same answer whether the secret is right or not: plain http is no oracle for secrets
    const wrong = await proxyList(behindProxy, { 'x-app-key': appKey, 'x-app-secret': 'sk_wrong' });
    expect(wrong.json().message).toBe(res.json().message);
  });

  it('in production, accepts the secret over https (TLS ended by a trusted proxy)', async () => {
    const { appKey, appSecret } = await subAccount(behindProxy);
    const res = await proxyList(behindProxy, {
      'x-app-key': appKey,
      'x-app-secret': appSecret,
      'x-forwarded-proto': 'https',
    });
    expect(res.json().code).toBe('200');
  });

  it('without TRUST_PROXY, a client’s own X-Forwarded-Proto does not make plain http count as https', async () => {
    const { appKey, appSecret } = await subAccount(direct);
    const res = await proxyList(direct, {
      'x-app-key': appKey,
      'x-app-secret': appSecret,
      'x-forwarded-proto': 'https',
    });
    expect(res.json().code).toBe('403');
    expect(res.json().message).toMatch(/HTTPS/);
  });

  it('in production, signed requests (the secret never on the wire) work over plain http', async () => {
    for (const t of [behindProxy, direct]) {
      const { appKey, appSecret } = await subAccount(t);
      expect((await proxyList(t, signed(appKey, appSecret, '{}'))).json().code).toBe('200');
    }
  });

  it('outside production (local development), the secret is accepted over plain http', async () => {
    const { appKey, appSecret } = await subAccount(development);
    expect(
      (await proxyList(development, { 'x-app-key': appKey, 'x-app-secret': appSecret })).json().code,
    ).toBe('200');
  });
});
