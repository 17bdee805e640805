// Shared bench helpers: start the built server as a child process, call the API, measure load.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Starts `node apps/server/dist/main.js` (or `main`: another build, e.g. of an earlier commit, to
 * compare in the same run) on a free port with a fresh data dir; resolves when it listens.
 */
export async function startServer(
  env = {},
  // wrapper: a command the server runs under (instructions.mjs: valgrind), which needs a longer start.
  { main = path.join(root, 'apps/server/dist/main.js'), wrapper = [], startTimeoutMs = 30_000 } = {},
) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wxc-bench-'));
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const command = [...wrapper, process.execPath, ...nodeArgs, main];
  const child = spawn(command[0], command.slice(1), {
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      WEB_DIST_DIR: path.join(root, 'apps/web/dist'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server's data (a SQLite file of tens of MB after a run) goes with it, unless
  // BENCH_KEEP_DATA=1 keeps it to look at.
  const removeData = () => {
    if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
  // A bench that fails leaves no server behind (WORKERS=N: its workers end with it).
  process.once('exit', () => {
    child.kill('SIGKILL');
    removeData();
  });
  let out = '';
  const smsCodes = new Map();
  // BENCH_SERVER_LOG=/tmp/server.log keeps the server's log (warnings: shedding, slow work) to read after.
  const logFile = process.env.BENCH_SERVER_LOG ? createWriteStream(process.env.BENCH_SERVER_LOG) : null;
  child.stdout.on('data', (d) => {
    logFile?.write(d);
    out += d;
    for (const m of String(d).matchAll(/\[dev-sms\] to=(\d+) scene=\w+ code=(\d+)/g))
      smsCodes.set(m[1], m[2]);
  });
  child.stderr.on('data', (d) => process.stderr.write(d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), startTimeoutMs);
    const check = setInterval(() => {
      const m = out.match(/Console:\s+(http:\/\/\S+)/);
      if (m) {
        clearInterval(check);
        clearTimeout(timer);
        resolve(m[1]);
      }
    }, 50);
    child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${out}`)));
  });
  return {
    url,
    child,
    smsCodes,
    stop: () =>
      new Promise((r) => {
        child.on('exit', () => {
          removeData();
          r();
        });
        child.kill('SIGTERM');
      }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const agents = new Map(); // per local address

/**
 * POST JSON with keep-alive; resolves { status, body }. `localAddress` (127.x.y.z) sends from another
 * loopback address: per-IP limits of the simulator's phone page then count each address apart.
 */
export function post(url, body, headers = {}, { localAddress } = {}) {
  let via = agent;
  if (localAddress) {
    via = agents.get(localAddress);
    if (!via) {
      via = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress });
      agents.set(localAddress, via);
    }
  }
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: via,
        headers: { 'content-type': 'application/json', 'content-length': data.length, ...headers },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Calls an API and throws unless it answers code "200". */
export async function api(base, path, body, headers, opts) {
  const res = await post(`${base}${path}`, body, headers, opts);
  if (res.body?.code !== '200') throw new Error(`${path}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Runs `fn` from `concurrency` loops for `seconds`; returns throughput and latency percentiles. */
export async function load(fn, { concurrency, seconds }) {
  const latencies = [];
  let ok = 0;
  let failed = 0;
  const end = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      let i = 0;
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          (await fn(worker, i++)) ? ok++ : failed++;
        } catch {
          failed++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) =>
    Number(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(2));
  return {
    ok,
    failed,
    perSecond: Math.round(ok / elapsed),
    p50: pct(50),
    p99: pct(99),
    seconds: Number(elapsed.toFixed(1)),
  };
}

/** Sorted-sample percentiles of a latency list (ms, two decimals). */
export function percentiles(samples, points = [50, 90, 99, 99.9]) {
  const sorted = Float64Array.from(samples).sort();
  const at = (p) =>
    sorted.length === 0
      ? null
      : Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2));
  return {
    ...Object.fromEntries(points.map((p) => [`p${p}`, at(p)])),
    max: sorted.length === 0 ? null : Number(sorted[sorted.length - 1].toFixed(2)),
  };
}

/** One request on one connection through undici's dispatcher (less client work than request()). */
function send(client, { method = 'GET', path, headers, body }) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let status = 0;
    client.dispatch(
      { method, path, headers, body },
      {
        onConnect() {},
        onHeaders(statusCode) {
          status = statusCode;
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          resolve({ status, text: Buffer.concat(chunks).toString() });
        },
        onError: reject,
      },
    );
  });
}

/** What an undici error means for a load report. */
function errorKind(err) {
  const code = err?.code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeouts';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connectTimeouts';
  return 'errors';
}

/**
 * A closed-loop load generator over `connections` keep-alive connections (one undici Client each,
 * no pipelining): each connection sends its next request as soon as the previous answer is read,
 * for `seconds`. Loopback only: `origin` must be an http://127.x address.
 *
 *   next(connection, i) -> { kind?, method, path, headers?, body? }
 *   check(kind, statusCode, bodyText) -> true when the answer is what was expected
 *   onSecond(elapsedSeconds) is called once a second (sampling RSS, say)
 *   rampMs: connections start spread over this long (0: all at once, a reconnect storm)
 *   warmPath: open every connection first (a GET of this path each), then start the clock
 *
 * Returns per kind: ok, failed (unexpected answers), timeouts, errors, req/s, latency percentiles.
 */
export async function loadConnections({
  origin,
  connections,
  seconds,
  next,
  check,
  timeoutMs = 10_000,
  onSecond,
  keepSamples = false,
  rampMs = 0,
  warmPath,
  warmupSeconds = 0,
}) {
  const { hostname } = new URL(origin);
  if (!/^127\.|^localhost$|^\[::1\]$/.test(hostname)) throw new Error(`loopback only, not ${hostname}`);
  const { Client } = await import('undici');
  const stats = new Map();
  const statsOf = (kind) => {
    let s = stats.get(kind);
    if (!s) {
      s = {
        ok: 0,
        failed: 0,
        timeouts: 0,
        connectTimeouts: 0,
        errors: 0,
        latencies: [],
        /** When each of `latencies` was sent, in seconds from the start (its timeline). */
        sentAt: [],
        firstError: null,
        errorCodes: [],
        failuresBySentSecond: {},
      };
      stats.set(kind, s);
    }
    return s;
  };
  const clients = Array.from(
    { length: connections },
    () =>
      new Client(origin, {
        pipelining: 1,
        connections: 1,
        keepAliveTimeout: 60_000,
        keepAliveMaxTimeout: 600_000,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connectTimeout: timeoutMs,
      }),
  );
  // warmPath: every connection is opened (one GET of warmPath each, 50 at a time) before the clock
  // starts, so the run measures kept-alive connections, not a connection storm.
  let warmSeconds = null;
  if (warmPath) {
    const t0 = performance.now();
    for (let i = 0; i < clients.length; i += 50) {
      await Promise.all(
        clients
          .slice(i, i + 50)
          .map((client) => send(client, { method: 'GET', path: warmPath }).catch(() => {})),
      );
    }
    warmSeconds = Number(((performance.now() - t0) / 1000).toFixed(1));
  }
  const started = performance.now();
  const end = started + seconds * 1000;
  let ticks = 0;
  const ticker = onSecond
    ? setInterval(() => onSecond(Math.round((performance.now() - started) / 1000), ++ticks), 1000)
    : undefined;
  await Promise.all(
    clients.map(async (client, c) => {
      // With a ramp, connection c starts (connects) c/connections of the way into it.
      if (rampMs > 0) await new Promise((r) => setTimeout(r, (c * rampMs) / connections));
      let i = 0;
      while (performance.now() < end) {
        const req = next(c, i++);
        const kind = req.kind ?? 'request';
        const s = statsOf(kind);
        const t0 = performance.now();
        try {
          const res = await send(client, req);
          if (check(kind, res.status, res.text)) s.ok++;
          else {
            s.failed++;
            s.firstError ??= `${res.status} ${res.text.slice(0, 200)}`;
          }
        } catch (err) {
          const kindOfError = errorKind(err);
          s[kindOfError]++;
          s.firstError ??= `${err.code ?? ''} ${err.message}`;
          // When the request was sent (second of the run), to see whether failures cluster.
          const second = Math.floor((t0 - started) / 1000);
          s.failuresBySentSecond[second] = (s.failuresBySentSecond[second] ?? 0) + 1;
          if (kindOfError === 'errors' && !s.errorCodes.includes(err.code)) s.errorCodes.push(err.code);
        }
        s.latencies.push(performance.now() - t0);
        s.sentAt.push((t0 - started) / 1000);
      }
    }),
  );
  if (ticker) clearInterval(ticker);
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  const report = {};
  /** Every kind's latencies by the second they were sent in. */
  const bySecond = [];
  /** Every request's latency, all kinds together (a customer's view of the whole mix). */
  const all = [];
  const allAfterWarmup = [];
  for (const [kind, s] of stats) {
    const { latencies, sentAt, ...counts } = s;
    const afterWarmup = warmupSeconds > 0 ? latencies.filter((_, i) => sentAt[i] >= warmupSeconds) : null;
    report[kind] = {
      ...counts,
      perSecond: Math.round(s.ok / elapsed),
      ...percentiles(latencies),
      ...(afterWarmup ? { afterWarmup: percentiles(afterWarmup, [50, 99]) } : {}),
      ...(keepSamples ? { samples: latencies } : {}),
    };
    latencies.forEach((ms, i) => {
      all.push(ms);
      if (warmupSeconds > 0 && sentAt[i] >= warmupSeconds) allAfterWarmup.push(ms);
      const second = Math.floor(sentAt[i]);
      bySecond[second] ??= [];
      bySecond[second].push(ms);
    });
  }
  // Second by second (all kinds): a cold process's first seconds apart from the steady state.
  const timeline = [...bySecond.entries()]
    .filter(([, ms]) => ms)
    .map(([second, ms]) => ({ second, requests: ms.length, ...percentiles(ms, [50, 99]) }));
  const allKinds = {
    ...percentiles(all, [50, 99]),
    ...(warmupSeconds > 0 ? { afterWarmup: percentiles(allAfterWarmup, [50, 99]) } : {}),
  };
  return { seconds: Number(elapsed.toFixed(1)), warmSeconds, byKind: report, allKinds, timeline };
}

/** Starts bench/baseline-server.mjs (a bare Fastify); resolves { url, child, stop }. */
export async function startBaseline(env = {}) {
  // BENCH_BASELINE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof-bare" profiles it, for comparison.
  const nodeArgs = (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(import.meta.dirname, 'baseline-server.mjs')],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const m = String(d).match(/Console: (\S+)/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`baseline exited ${code}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise((r) => {
        child.on('exit', r);
        child.kill('SIGTERM');
      }),
  };
}

/** Resident set size of a process in MB (Linux /proc), or null. */
export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * CPU time every PostgreSQL process on this machine has used so far, in ms (the server's backends
 * and its background writers), or null when there is none: the database's share of the work, beside
 * the service's own (cpuMs). Counts every database's work: run nothing else against it meanwhile.
 */
export function postgresCpuMs() {
  let ms = null;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let comm;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue; // gone meanwhile
    }
    if (comm === 'postgres') ms = (ms ?? 0) + (cpuMs(pid) ?? 0);
  }
  return ms;
}

/**
 * CPU time a process has used so far, in ms (Linux /proc: user + system, clock ticks of 10 ms), or
 * null. CPU per request is steadier than requests per second on a machine other work shares.
 */
export function cpuMs(pid, { children = false } = {}) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    let ms = (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15)
    // WORKERS=N: the workers' time too (the primary only hands connections over).
    if (children) for (const child of childrenOf(pid)) ms += cpuMs(child) ?? 0;
    return ms;
  } catch {
    return null;
  }
}

function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Writes a report to bench/results/<name>-<time>.json and prints it. */
export function writeReport(name, report) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  return file;
}

/** `--name value` from the command line, as a number, else `def`. */
export function numberArg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/** `--name value` from the command line, as a string, else `def`. */
export function stringArg(name, def) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
}

/** A fresh mobile number (runs against a reused PostgreSQL database must not collide). */
export const randomPhone = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** Server settings every load bench uses: a fixed captcha, no rate limit in the way, no pacing. */
export const BENCH_ENV = {
  ADMIN_PASSWORD: 'bench-admin-password-1',
  CAPTCHA_FIXED_CODE: 'bench',
  RATE_LIMIT_PER_MINUTE: '100000000',
  CALLBACK_ALLOW_PRIVATE: 'true',
  SEND_INTERVAL_MS: '0',
  SIM_REPLY_DELAY_MS: '0',
  SIM_CHATTER_SECONDS: '0',
};

/** Which database a bench run uses, for its report. */
/** The machine a report was measured on (its load average says how busy it was). */
export const machineFacts = () => ({
  cpus: os.cpus().length,
  node: process.version,
  loadAverage: os.loadavg().map((l) => l.toFixed(2)),
});

export const databaseOf = () => (process.env.DATABASE_URL ? 'postgresql' : 'sqlite');

/** Registers a customer company (SMS code read from the dev outbox); resolves its session token. */
export async function registerCustomer(server, phone = randomPhone()) {
  const captcha = { captchaId: 'x', captchaCode: 'bench' };
  await api(server.url, '/api/normal/registe/sendSms', { phone, ...captcha });
  const deadline = Date.now() + 5000;
  while (!server.smsCodes.has(phone) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const reg = await api(server.url, '/api/normal/registe', {
    companyName: '压测公司',
    companyAccount: phone,
    password: 'bench12345',
    checkPassword: 'bench12345',
    verifyCode: server.smsCodes.get(phone),
    readMsg: true,
  });
  return reg.token;
}

/**
 * A customer with an enterprise package and one sub-account of `slots` messaging accounts;
 * resolves { token, creds (x-app-key/x-app-secret headers), appSecret }.
 */
export async function apiCompany(server, slots) {
  const base = server.url;
  const token = await registerCustomer(server);
  const session = { authorization: token };
  const pkg = (await api(base, '/api/package/list', {}, session)).list.find((p) => p.tier === 'enterprise');
  const quantity = Math.max(1, Math.ceil(slots / pkg.slots));
  const order = await api(
    base,
    '/api/package/buy',
    { packageId: pkg.id, quantity, idempotencyKey: `bench-${Date.now()}` },
    session,
  );
  await api(base, '/api/order/paySandbox', { orderNo: order.orderNo }, session);
  const opened = await api(
    base,
    '/api/accountManager/openApiAccount',
    { name: '压测', availableNum: slots },
    session,
  );
  return {
    token,
    creds: { 'x-app-key': opened.account.appKey, 'x-app-secret': opened.appSecret },
    appSecret: opened.appSecret,
  };
}

/**
 * Logs one simulated messaging account in by QR code (scan and confirm on the simulator's phone,
 * from `phoneAddress` when given: the phone page allows 120 requests a minute per address).
 */
export async function loginSimAccount(base, creds, phoneAddress) {
  const phone = phoneAddress ? { localAddress: phoneAddress } : undefined;
  const qr = await api(base, '/api/msg/getQrCode', {}, creds);
  await api(base, '/api/sim/scan', { instanceId: qr.instanceId, action: 'scan' }, {}, phone);
  await api(base, '/api/sim/scan', { instanceId: qr.instanceId, action: 'confirm' }, {}, phone);
  const { account } = await api(base, '/api/msg/checkQrCode', { instanceId: qr.instanceId }, creds);
  return account;
}
