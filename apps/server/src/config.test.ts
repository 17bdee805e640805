import path from 'node:path';
import { PRODUCT_TITLE_DEFAULT } from '@wxc/contract';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** Everything production insists on being said explicitly, for the tests about other rules. */
const PRODUCTION = {
  NODE_ENV: 'production',
  SMS_DEV_OUTBOX_IN_PRODUCTION: 'true',
  PAYMENT_SANDBOX_IN_PRODUCTION: 'true',
};

describe('loadConfig', () => {
  it('slices requests only when REQUEST_SLICE_MS asks', () => {
    expect(loadConfig({}).requestSliceMs).toBe(0);
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/x' }).requestSliceMs).toBe(0);
    expect(loadConfig({ REQUEST_SLICE_MS: '5' }).requestSliceMs).toBe(5);
    expect(() => loadConfig({ REQUEST_SLICE_MS: '-1' })).toThrow();
    expect(() => loadConfig({ REQUEST_SLICE_MS: '5 ms' })).toThrow();
  });

  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      env: 'development',
      isProduction: false,
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      logLevel: 'info',
      productTitle: PRODUCT_TITLE_DEFAULT,
      serverFlag: 'test',
      publicUrl: 'http://127.0.0.1:8080',
      admin: { account: 'admin', password: undefined },
      seedDemo: true,
      captchaFixedCode: undefined,
      sms: { provider: 'dev-outbox' },
      session: { idleMs: 120 * 60_000, maxMs: 7 * 24 * 3_600_000 },
      rateLimitPerMinute: 600,
      trustProxy: false,
      corsOrigins: [],
    });
    expect(path.isAbsolute(c.dataDir)).toBe(true);
    expect(path.isAbsolute(c.webDistDir)).toBe(true);
  });

  it('chooses a wechaty puppet, requiring what puppet-service needs and keeping tokens apart', () => {
    const service = {
      MESSAGING_PROVIDER: 'wechaty',
      WECHATY_PUPPET_ENDPOINT: 'puppet.example.com:8788',
      WECHATY_PUPPET_TOKEN: 'puppet_service_a,puppet_service_b',
    };
    expect(loadConfig(service)).toMatchObject({
      messaging: { provider: 'wechaty' },
      wechaty: {
        module: 'wechaty-puppet-service',
        endpoint: 'puppet.example.com:8788',
        tokens: ['puppet_service_a', 'puppet_service_b'],
        tls: { enabled: true, caCert: undefined, serverName: undefined },
      },
    });
    expect(loadConfig({ ...service, WECHATY_PUPPET_TLS: 'false' }).wechaty.tls.enabled).toBe(false);
    // puppet-service without its address or token: said at start
    expect(() => loadConfig({ MESSAGING_PROVIDER: 'wechaty' })).toThrow(/WECHATY_PUPPET_ENDPOINT/);
    expect(() => loadConfig({ ...service, WECHATY_PUPPET_TOKEN: undefined })).toThrow(ConfigError);
    // another puppet module may need neither
    expect(
      loadConfig({ MESSAGING_PROVIDER: 'wechaty', WECHATY_PUPPET: 'wechaty-puppet-mock' }).wechaty,
    ).toMatchObject({ module: 'wechaty-puppet-mock', tokens: [] });
    expect(() => loadConfig({ ...service, WECHATY_PUPPET: '../evil' })).toThrow(/npm module name/);
    expect(() => loadConfig({ ...service, WECHATY_PUPPET_ENDPOINT: 'http://x' })).toThrow(/host:port/);
    expect(() => loadConfig({ ...service, WECHATY_PUPPET_TLS_CA_FILE: '/nonexistent/ca.pem' })).toThrow(
      /cannot read/,
    );
    // a bad token is refused without echoing it
    let message = '';
    try {
      loadConfig({ ...service, WECHATY_PUPPET_TOKEN: 'secret token' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/WECHATY_PUPPET_TOKEN/);
    expect(message).not.toContain('secret');
    // several processes: each has a route server (a free port each) and leases of this length
    const many = { ...service, WORKERS: '2', DATABASE_URL: 'postgres://localhost/x' };
    expect(loadConfig(many).wechaty).toMatchObject({
      routing: { host: '127.0.0.1', port: 0 },
      leaseMs: 15_000,
    });
    expect(
      loadConfig({ ...many, WECHATY_ROUTE_HOST: '10.0.0.5', WECHATY_LEASE_SECONDS: '5' }).wechaty,
    ).toMatchObject({ routing: { host: '10.0.0.5', port: 0 }, leaseMs: 5_000 });
    expect(() => loadConfig({ ...many, WECHATY_ROUTE_PORT: '9100' })).toThrow(/a route port of its own/);
    expect(loadConfig({ ...service, WECHATY_ROUTE_PORT: '9100' }).wechaty.routing.port).toBe(9100);
    expect(() => loadConfig({ ...service, WECHATY_LEASE_SECONDS: '1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...service, WECHATY_ROUTE_HOST: 'http://x' })).toThrow(/WECHATY_ROUTE_HOST/);
  });

  it('reads only the source it is given', () => {
    expect(loadConfig({ PORT: '9000' }).port).toBe(9000);
  });

  it('resolves DATA_DIR and parses the other settings', () => {
    const c = loadConfig({
      DATA_DIR: 'some/dir',
      PORT: '3000',
      HOST: '0.0.0.0',
      SESSION_IDLE_MINUTES: '30',
      SESSION_MAX_HOURS: '2',
      CORS_ORIGINS: ' https://a.example , ,https://b.example',
      TRUST_PROXY: '1',
      PUBLIC_URL: 'https://api.example.com/',
    });
    expect(c.dataDir).toBe(path.resolve('some/dir'));
    expect(c.port).toBe(3000);
    expect(c.session).toEqual({ idleMs: 30 * 60_000, maxMs: 2 * 3_600_000 });
    expect(c.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(c.trustProxy).toBe(true);
    expect(c.publicUrl).toBe('https://api.example.com');
    // 0.0.0.0 is where it listens, not an address to show people.
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '3000' }).publicUrl).toBe('http://127.0.0.1:3000');
  });

  it('serverFlag is "test" outside production and "formal" in production, unless set', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).serverFlag).toBe('test');
    expect(loadConfig(PRODUCTION).serverFlag).toBe('formal');
    expect(loadConfig({ ...PRODUCTION, SERVER_FLAG: 'staging' }).serverFlag).toBe('staging');
  });

  it('refuses CAPTCHA_FIXED_CODE in production', () => {
    expect(loadConfig({ CAPTCHA_FIXED_CODE: 'pass' }).captchaFixedCode).toBe('pass');
    expect(() => loadConfig({ ...PRODUCTION, CAPTCHA_FIXED_CODE: 'pass' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PRODUCTION, CAPTCHA_FIXED_CODE: 'pass' })).toThrow(/CAPTCHA_FIXED_CODE/);
  });

  it('refuses the dev SMS outbox in production unless SMS_DEV_OUTBOX_IN_PRODUCTION=true', () => {
    const { SMS_DEV_OUTBOX_IN_PRODUCTION: _, ...rest } = PRODUCTION;
    expect(() => loadConfig(rest)).toThrow(/SMS_DEV_OUTBOX_IN_PRODUCTION/);
    expect(() => loadConfig({ ...rest, SMS_DEV_OUTBOX_IN_PRODUCTION: 'false' })).toThrow(ConfigError);
    expect(loadConfig(PRODUCTION).sms.provider).toBe('dev-outbox');
  });

  it('refuses SEED_DEMO with DATABASE_URL or in production; no demo by default there', () => {
    const url = 'postgres://u@db.example:5432/app';
    expect(() => loadConfig({ DATABASE_URL: url, SEED_DEMO: 'true' })).toThrow(/SEED_DEMO/);
    expect(() => loadConfig({ ...PRODUCTION, SEED_DEMO: 'true' })).toThrow(/SEED_DEMO/);
    expect(loadConfig({ DATABASE_URL: url }).seedDemo).toBe(false);
    expect(loadConfig(PRODUCTION).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('WORKERS: one process by default; more only with PostgreSQL, and within bounds', () => {
    const url = 'postgres://u@db.example:5432/app';
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ DATABASE_URL: url }).workers).toBe(1);
    expect(loadConfig({ DATABASE_URL: url, WORKERS: '4' }).workers).toBe(4);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS > 1 needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ DATABASE_URL: url, WORKERS: 'many' })).toThrow(/WORKERS/);
  });

  it('DATABASE_PREPARED_STATEMENTS: on unless turned off', () => {
    expect(loadConfig({}).databasePreparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements).toBe(false);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: '0' }).databasePreparedStatements).toBe(false);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'true' }).databasePreparedStatements).toBe(true);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'yes' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  it('bad values are a ConfigError that lists every offending field', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', NODE_ENV: 'staging', DATABASE_URL: 'mysql://x', SEED_DEMO: 'yes' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toMatch(/^Invalid configuration:/);
      for (const field of ['PORT', 'NODE_ENV', 'DATABASE_URL', 'SEED_DEMO']) {
        expect(message).toMatch(new RegExp(`^  ${field}: `, 'm'));
      }
    }
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ PORT: '-1' })).toThrow(/PORT/);
    expect(() => loadConfig({ SESSION_IDLE_MINUTES: '0' })).toThrow(/SESSION_IDLE_MINUTES/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('an empty PORT (as in `PORT=` in an env file) is not silently port 0', () => {
    let port: number | undefined;
    try {
      port = loadConfig({ PORT: '' }).port;
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return;
    }
    expect(port).toBe(8080);
  });
});
