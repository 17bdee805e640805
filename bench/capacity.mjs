#!/usr/bin/env node
import {
  api,
  BENCH_ENV,
  cpuMs,
  databaseOf,
  loginSimAccount,
  machineFacts,
  numberArg,
  percentiles,
  postgresCpuMs,
  registerCustomer,
  rssMb,
  startServer,
  stringArg,
  writeReport,
} from './lib.mjs';

const ACCOUNTS = numberArg('accounts', 10_000);
const CONCURRENCY = numberArg('concurrency', 8);
const SAMPLES = numberArg('samples', 10);
const SLOTS_PER_PACKAGE = 10_000; // the contract's SLOTS_MAX
if (!(ACCOUNTS >= 1 && ACCOUNTS <= 100_000)) throw new Error('--accounts: 1 to 100000');

// --server: another build's apps/server/dist/main.js (an earlier commit, to compare).
const SERVER = stringArg('server', undefined);
const server = await startServer(BENCH_ENV, SERVER ? { main: SERVER } : {});
const base = server.url;
try {
  // An operator's package big enough, bought as often as needed; sub-accounts of at most 10,000 each.
  const captcha = { captchaId: 'x', captchaCode: 'bench' };
  const admin = await api(base, '/api/normal/login', {
    companyAccount: 'admin',
    password: BENCH_ENV.ADMIN_PASSWORD,
    ...captcha,
  });
  const pkg = await api(
    base,
    '/api/admin/package/save',
    {
      name: `容量压测 ${Date.now() % 100000}`,
      tier: 'enterprise',
      slots: SLOTS_PER_PACKAGE,
      durationDays: 30,
      priceFen: 0,
      onSale: true,
    },
    { authorization: admin.token },
  );
  const token = await registerCustomer(server);
  const session = { authorization: token };
  const subAccounts = [];
  for (let left = ACCOUNTS, n = 0; left > 0; left -= SLOTS_PER_PACKAGE, n++) {
    const order = await api(
      base,
      '/api/package/buy',
      { packageId: pkg.id, quantity: 1, idempotencyKey: `capacity-${Date.now()}-${n}` },
      session,
    );
    await api(base, '/api/order/paySandbox', { orderNo: order.orderNo }, session);
    const opened = await api(
      base,
      '/api/accountManager/openApiAccount',
      { name: `容量${n + 1}`, availableNum: Math.min(left, SLOTS_PER_PACKAGE) },
      session,
    );
    subAccounts.push({
      slots: Math.min(left, SLOTS_PER_PACKAGE),
      creds: { 'x-app-key': opened.account.appKey, 'x-app-secret': opened.appSecret },
    });
  }

  // ---- logins
  const rssStart = rssMb(server.child.pid);
  const progress = [{ online: 0, seconds: 0, rssMb: rssStart }];
  const queue = subAccounts.flatMap((s) => Array.from({ length: s.slots }, () => s.creds));
  // Phones scan from 250 loopback addresses in turn: the phone page's per-address limit (120 a
  // minute) is a rule for people, not something to measure here.
  const phoneAddress = (n) => `127.0.2.${(n % 250) + 1}`;
  let nth = 0;
  const loginMs = [];
  let done = 0;
  let failed = 0;
  let firstError = null;
  // Where a login's CPU goes: the service's process, and on PostgreSQL the database's processes.
  const postgres = databaseOf() === 'postgresql';
  const cpuAtStart = {
    server: cpuMs(server.child.pid, { children: true }),
    database: postgres ? postgresCpuMs() : null,
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let creds = queue.pop(); creds; creds = queue.pop()) {
        const t0 = performance.now();
        try {
          await loginSimAccount(base, creds, phoneAddress(nth++));
          loginMs.push(performance.now() - t0);
          done++;
        } catch (err) {
          failed++;
          firstError ??= String(err.message).slice(0, 300);
        }
        if (done > 0 && done % 1000 === 0 && progress.at(-1).online !== done) {
          progress.push({
            online: done,
            seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
            rssMb: rssMb(server.child.pid),
          });
        }
      }
    }),
  );
  const loginSeconds = (performance.now() - started) / 1000;
  const perLogin = (end, start) =>
    end == null || start == null || done === 0 ? null : Number(((end - start) / done).toFixed(2));
  const cpuMsPerLogin = {
    server: perLogin(cpuMs(server.child.pid, { children: true }), cpuAtStart.server),
    database: postgres ? perLogin(postgresCpuMs(), cpuAtStart.database) : null,
  };
  const online = await api(base, '/api/statistic/getOnlineCountNow', {}, session);

  // ---- dashboard statistics at that scale (each call alone, then all together as the console does)
  const month = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 7);
  const calls = [
    ['/api/statistic/getOnlineCountNow', {}],
    ['/api/statistic/getMaxOnlineCountNow', {}],
    ['/api/statistic/getAddedToday', {}],
    ['/api/statistic/onlineDays', {}],
    ['/api/statistic/getOnlineYesterday', {}],
    ['/api/statistic/getMaxOnlineCountYesterday', {}],
    ['/api/statistic/getAddedYesterday', {}],
    ['/api/statistic/getMaxOnline', {}],
    ['/api/statistic/getTotalCount', {}],
    ['/api/home/statisticsMonth', { month }],
    ['/api/home/accountDetails', { page: 1, pageSize: 10 }],
  ];
  const statistics = {};
  for (const [path, body] of calls) {
    const ms = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      await api(base, path, body, session);
      ms.push(performance.now() - t0);
    }
    statistics[path] = percentiles(ms, [50, 99]);
  }
  const dashboardMs = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    await Promise.all(calls.map(([path, body]) => api(base, path, body, session)));
    dashboardMs.push(performance.now() - t0);
  }

  writeReport('capacity', {
    when: new Date().toISOString(),
    machine: machineFacts(),
    settings: {
      accounts: ACCOUNTS,
      concurrency: CONCURRENCY,
      samples: SAMPLES,
      database: databaseOf(),
      ...(SERVER ? { server: SERVER } : {}),
    },
    logins: {
      done,
      failed,
      firstError,
      seconds: Number(loginSeconds.toFixed(1)),
      perSecond: Number((done / loginSeconds).toFixed(1)),
      ...percentiles(loginMs, [50, 99]),
      cpuMsPerLogin,
    },
    onlineNow: online.count ?? online,
    rssMb: { beforeLogins: rssStart, afterLogins: rssMb(server.child.pid), progress },
    statisticsMs: statistics,
    dashboardAllCallsTogetherMs: percentiles(dashboardMs, [50, 99]),
    goal: { rssMb: 1536, statisticsMs: 200 },
  });
} finally {
  await server.stop();
}
