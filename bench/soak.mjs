#!/usr/bin/env node
// 1,000 kept-alive connections for a while, reads and sends mixed: console-session reads
// (refreshLoginInfo), API-credential reads (proxyList) and sendMsgText through the simulator with
// every callback delivered to a local receiver. Reports req/s, errors and timeouts, latency per kind,
// the listen-queue overflows the kernel counted meanwhile, the server's RSS over time, and how far
// the callbacks fell behind (their delay from event to arrival, the backlog at the end and its drain).
// Loopback only; bounded in time (it stops by itself).
//   npm run build && node bench/soak.mjs [--seconds 60] [--connections 1000] [--send-share 0.1]
//   [--accounts 20] [--timeout-ms 10000] [--warmup-seconds 3] [--storm [--ramp-ms 0]]
//   [--server path/to/other/dist/main.js]
//   DATABASE_URL=postgres://…/<fresh db> ADMIN_PASSWORD=… node bench/soak.mjs
import { readFileSync } from 'node:fs';
import http from 'node:http';
import {
  api,
  apiCompany,
  BENCH_ENV,
  databaseOf,
  loadConnections,
  loginSimAccount,
  machineFacts,
  numberArg,
  percentiles,
  rssMb,
  startServer,
  stringArg,
  writeReport,
} from './lib.mjs';

const SECONDS = numberArg('seconds', 60);
const CONNECTIONS = numberArg('connections', 1000);
const SEND_SHARE = numberArg('send-share', 0.1);
const ACCOUNTS = numberArg('accounts', 20);
const TIMEOUT_MS = numberArg('timeout-ms', 10_000);
/**
 * The first seconds of load meet a cold process (its JIT, its caches): the report gives every
 * kind's p50/p99 also over the requests sent after them (`afterWarmup`), beside the whole run's,
 * and the whole run second by second (`timeline`). The goal is judged on the whole run.
 */
const WARMUP_SECONDS = numberArg('warmup-seconds', 3);
/**
 * --storm: the connections are opened by the load itself, all at once (a reconnect storm) or spread
 * over --ramp-ms; by default they are opened first and the clock starts once all are kept alive.
 */
const STORM = process.argv.includes('--storm');
const RAMP_MS = numberArg('ramp-ms', 0);
if (!(SECONDS > 0 && SECONDS <= 600)) throw new Error('--seconds: 1 to 600');

/** The kernel's count of connections dropped because a listen queue was full (all sockets). */
function listenOverflows() {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const names = lines.find((l) => l.startsWith('TcpExt:'))?.split(/\s+/) ?? [];
    const values = lines.filter((l) => l.startsWith('TcpExt:'))[1]?.split(/\s+/) ?? [];
    return Number(values[names.indexOf('ListenOverflows')] ?? Number.NaN);
  } catch {
    return null;
  }
}

/**
 * A load balancer's health check while the load runs: once a second a fresh connection (no
 * keep-alive) asks GET /healthz, given 5 s. Reports how many answered, and how fast.
 */
function probeHealth(origin, seconds) {
  const probes = [];
  const one = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = http.get(`${origin}/healthz`, { agent: false, timeout: 5000 }, (res) => {
        res.resume();
        res.on('end', () => resolve({ ok: res.statusCode === 200, ms: performance.now() - started }));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve({ ok: false, ms: performance.now() - started }));
    });
  const done = (async () => {
    for (let i = 0; i < seconds; i++) {
      const next = new Promise((r) => setTimeout(r, 1000));
      probes.push(one());
      await next;
    }
    const results = await Promise.all(probes);
    const ms = results
      .filter((r) => r.ok)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    return {
      probes: results.length,
      answered: ms.length,
      p50Ms: ms.length ? Math.round(ms[Math.floor(ms.length / 2)]) : null,
      maxMs: ms.length ? Math.round(ms.at(-1)) : null,
    };
  })();
  return done;
}

// ---- callback receiver: counts what arrives, and how long after its event (the envelope's
// `timestamp` is in whole seconds, so delays are ±1 s)
let callbacks = 0;
let lastCallbackAt = 0;
let callbackDelays = [];
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    callbacks++;
    lastCallbackAt = performance.now();
    const sent = JSON.parse(Buffer.concat(chunks).toString()).timestamp;
    callbackDelays.push(Date.now() / 1000 - sent);
    res.end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/callback`;

// --server: another build's apps/server/dist/main.js (an earlier commit, to compare).
const SERVER = stringArg('server', undefined);
const server = await startServer(BENCH_ENV, SERVER ? { main: SERVER } : {});
const base = server.url;
try {
  const company = await apiCompany(server, ACCOUNTS);
  await api(base, '/api/msg/resetCallbackUrl', { callbackUrl: receiverUrl }, company.creds);
  const targets = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await loginSimAccount(base, company.creds);
    const friend = (
      await api(base, '/api/msg/getAddressList', { wxid: account.wxid }, company.creds)
    ).list.find((c) => c.kind === 'friend');
    targets.push({ wxid: account.wxid, toWxid: friend.wxid });
  }
  await new Promise((r) => setTimeout(r, 500));

  const json = { 'content-type': 'application/json' };
  const session = { ...json, authorization: company.token };
  const creds = { ...json, ...company.creds };
  const sendEvery = SEND_SHARE > 0 ? Math.round(1 / SEND_SHARE) : 0;
  const rss = [{ second: 0, mb: rssMb(server.child.pid) }];
  const overflowsBefore = listenOverflows();
  const callbacksBefore = callbacks;
  callbackDelays = [];
  const health = probeHealth(base, SECONDS);
  const result = await loadConnections({
    origin: base,
    connections: CONNECTIONS,
    seconds: SECONDS,
    timeoutMs: TIMEOUT_MS,
    rampMs: RAMP_MS,
    warmupSeconds: WARMUP_SECONDS,
    ...(STORM ? {} : { warmPath: '/healthz' }),
    next(c, i) {
      const n = c + i * 7; // spreads the kinds over connections and time
      if (sendEvery && n % sendEvery === 0) {
        const t = targets[(c + i) % targets.length];
        return {
          kind: 'sendMsgText',
          method: 'POST',
          path: '/api/msg/sendMsgText',
          headers: creds,
          body: JSON.stringify({ ...t, content: `压测 ${c}-${i}` }),
        };
      }
      return n % 2 === 0
        ? {
            kind: 'refreshLoginInfo',
            method: 'POST',
            path: '/api/refreshLoginInfo',
            headers: session,
            body: '{}',
          }
        : { kind: 'proxyList', method: 'POST', path: '/api/msg/proxyList', headers: creds, body: '{}' };
    },
    check: (_kind, status, text) => status === 200 && text.startsWith('{"code":"200"'),
    onSecond(second) {
      if (second % 5 === 0) rss.push({ second, mb: rssMb(server.child.pid) });
    },
  });
  const overflowsAfter = listenOverflows();
  const ended = performance.now();
  const callbacksByEnd = callbacks - callbacksBefore;
  rss.push({ second: result.seconds, mb: rssMb(server.child.pid) });
  // Each send yields a message_status callback and the simulated contact's reply: wait (at most 2
  // minutes) for the backlog the load left.
  const expectedCallbacks = (result.byKind.sendMsgText?.ok ?? 0) * 2;
  const drainDeadline = Date.now() + 120_000;
  while (callbacks - callbacksBefore < expectedCallbacks && Date.now() < drainDeadline)
    await new Promise((r) => setTimeout(r, 100));

  const kinds = Object.values(result.byKind);
  const sum = (f) => kinds.reduce((n, k) => n + k[f], 0);
  const ok = sum('ok');
  writeReport('soak', {
    when: new Date().toISOString(),
    machine: machineFacts(),
    settings: {
      seconds: SECONDS,
      connections: CONNECTIONS,
      sendShare: SEND_SHARE,
      accounts: ACCOUNTS,
      timeoutMs: TIMEOUT_MS,
      warmupSeconds: WARMUP_SECONDS,
      connectionsOpened: STORM
        ? RAMP_MS
          ? `over ${RAMP_MS} ms under load`
          : 'all at once under load'
        : 'first',
      rampMs: RAMP_MS,
      database: databaseOf(),
      ...(SERVER ? { server: SERVER } : {}),
    },
    secondsToOpenConnections: result.warmSeconds,
    total: {
      ok,
      perSecond: Math.round(ok / result.seconds),
      failed: sum('failed'),
      timeouts: sum('timeouts'),
      connectTimeouts: sum('connectTimeouts'),
      errors: sum('errors'),
      // Over every request of the mix (a tenth of them sends), and the slowest kind's own p99.
      allRequests: result.allKinds,
      worstP99: Math.max(...kinds.map((k) => k.p99 ?? 0)),
      worstP99AfterWarmup: Math.max(...kinds.map((k) => k.afterWarmup?.p99 ?? 0)),
    },
    byKind: result.byKind,
    timeline: result.timeline,
    listenQueueOverflows: overflowsBefore === null ? null : overflowsAfter - overflowsBefore,
    callbacks: {
      expected: expectedCallbacks,
      deliveredDuringRun: callbacksByEnd,
      backlogAtEnd: expectedCallbacks - callbacksByEnd,
      delivered: callbacks - callbacksBefore,
      drainedAfterEndSeconds:
        callbacks - callbacksBefore >= expectedCallbacks
          ? Number((Math.max(0, lastCallbackAt - ended) / 1000).toFixed(1))
          : null,
      // From the event to its arrival, in seconds (±1: the envelope's timestamp is whole seconds).
      delaySeconds: percentiles(callbackDelays, [50, 99]),
    },
    healthProbes: await health,
    rssMb: {
      start: rss[0].mb,
      end: rss.at(-1).mb,
      max: Math.max(...rss.map((s) => s.mb ?? 0)),
      samples: rss,
    },
    goal: { errors: 0, p99Ms: 250, memory: 'flat' },
  });
} finally {
  await server.stop();
  receiver.close();
}
