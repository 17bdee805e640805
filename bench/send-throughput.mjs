#!/usr/bin/env node
// Messages per second through POST /api/msg/sendMsgText (sub-account credentials, simulator
// provider, no pacing), with every callback delivered to a local receiver, on this machine.
// Prints a ratio against a bare Fastify route measured in the same run (machines are noisy).
//   npm run build && node bench/send-throughput.mjs [--seconds 10] [--concurrency 32] [--accounts 20]
//   [--server path/to/other/dist/main.js]   (DATABASE_URL=postgres://…/<fresh db> for PostgreSQL)
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  api,
  apiCompany,
  cpuMs,
  databaseOf,
  load,
  loginSimAccount,
  post,
  postgresCpuMs,
  startServer,
  stringArg,
} from './lib.mjs';

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const SECONDS = arg('seconds', 10);
const CONCURRENCY = arg('concurrency', 32);
const ACCOUNTS = arg('accounts', 20);

// ---- callback receiver (verifies every signature)
let received = 0;
let badSignatures = 0;
let lastCallbackAt = 0;
let signingKey = '';
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    const expected = createHmac('sha256', signingKey)
      .update(`${req.headers['x-wx-timestamp']}.${body}`)
      .digest('hex');
    if (signingKey && expected !== req.headers['x-wx-signature']) badSignatures++;
    received++;
    lastCallbackAt = performance.now();
    res.end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/callback`;

// ---- baseline: a bare Fastify route
const baselineProc = spawn(process.execPath, [path.join(import.meta.dirname, 'baseline-server.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const baselineUrl = await new Promise((resolve) =>
  baselineProc.stdout.on('data', (d) => resolve(String(d).match(/Console: (\S+)/)[1])),
);
// CPU per answer beside the rate: the rate follows whatever else the machine runs (the bare route
// moved by half between runs minutes apart), the CPU an answer costs much less.
const bareCpuBefore = cpuMs(baselineProc.pid);
const baseline = await load(
  async () => (await post(`${baselineUrl}/echo`, { wxid: 'x', toWxid: 'y', content: 'hi' })).status === 200,
  {
    concurrency: CONCURRENCY,
    seconds: Math.min(SECONDS, 5),
  },
);
const bareCpuUs = cpuUsPer(baselineProc.pid, bareCpuBefore, baseline.ok);
baselineProc.kill('SIGTERM');

/** CPU µs per operation a process used since `before` (ms), or null off Linux. */
function cpuUsPer(pid, before, operations, opts = {}) {
  const after = cpuMs(pid, opts);
  return before === null || after === null ? null : Math.round(((after - before) * 1000) / operations);
}

// ---- the service
const main = stringArg('server', undefined);
const server = await startServer(
  {
    ADMIN_PASSWORD: 'bench-admin-password-1',
    CAPTCHA_FIXED_CODE: 'bench',
    RATE_LIMIT_PER_MINUTE: '100000000',
    CALLBACK_ALLOW_PRIVATE: 'true',
    SEND_INTERVAL_MS: '0',
    SIM_REPLY_DELAY_MS: '0',
    SIM_CHATTER_SECONDS: '0',
  },
  main ? { main } : {},
);
const base = server.url;
try {
  // A company with an enterprise package and one sub-account holding every account's slot.
  const { creds, appSecret } = await apiCompany(server, ACCOUNTS);
  signingKey = createHash('sha256').update(appSecret).digest('hex');
  await api(base, '/api/msg/resetCallbackUrl', { callbackUrl: receiverUrl }, creds);

  const targets = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = await loginSimAccount(base, creds);
    const friend = (await api(base, '/api/msg/getAddressList', { wxid: account.wxid }, creds)).list.find(
      (c) => c.kind === 'friend',
    );
    targets.push({ wxid: account.wxid, toWxid: friend.wxid });
  }
  await new Promise((r) => setTimeout(r, 500));
  const before = received;
  const serverCpuBefore = cpuMs(server.child.pid, { children: true });
  const benchCpuBefore = process.cpuUsage();
  const postgres = databaseOf() === 'postgresql';
  const databaseCpuBefore = postgres ? postgresCpuMs() : null;

  const started = performance.now();
  const result = await load(
    async (worker, i) => {
      const t = targets[(worker + i) % targets.length];
      const res = await post(
        `${base}/api/msg/sendMsgText`,
        { ...t, content: `压测消息 ${worker}-${i}` },
        creds,
      );
      return res.body?.code === '200';
    },
    { concurrency: CONCURRENCY, seconds: SECONDS },
  );
  const ended = performance.now();
  const deliveredByEnd = received - before;
  // Each send yields a message_status callback and a reply (a message callback).
  const expected = result.ok * 2;
  const deadline = Date.now() + 120_000;
  while (received - before < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const delivered = received - before;
  const deliverySeconds = (lastCallbackAt - started) / 1000;
  // The server's CPU for the sends and all their callbacks (its main thread, the callbacks' thread,
  // the garbage collector's). PostgreSQL's own processes are not in it.
  const serverCpuUs = cpuUsPer(server.child.pid, serverCpuBefore, result.ok, { children: true });
  const benchCpu = process.cpuUsage(benchCpuBefore);
  // PostgreSQL's processes over the same span (the sends and the delivery of their callbacks).
  const databaseCpuUs =
    postgres && databaseCpuBefore !== null
      ? Math.round((((postgresCpuMs() ?? databaseCpuBefore) - databaseCpuBefore) * 1000) / result.ok)
      : null;

  const report = {
    when: new Date().toISOString(),
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    settings: {
      seconds: SECONDS,
      concurrency: CONCURRENCY,
      accounts: ACCOUNTS,
      database: databaseOf(),
      server: main ?? 'this checkout',
    },
    baselineBareFastify: baseline,
    sendMsgText: result,
    callbacks: {
      expected,
      delivered,
      badSignatures,
      deliveredPerSecond: Math.round(delivered / deliverySeconds),
      allDeliveredAfterSeconds: Number(deliverySeconds.toFixed(1)),
      drainedAfterEndSeconds: Number(((lastCallbackAt - ended) / 1000).toFixed(1)),
      // The backlog the sends left, and how fast it went once nothing else ran.
      backlogAtEnd: expected - deliveredByEnd,
      drainPerSecond: Math.round(
        (delivered - deliveredByEnd) / Math.max(0.001, (lastCallbackAt - ended) / 1000),
      ),
    },
    ratioToBaseline: Number((result.perSecond / baseline.perSecond).toFixed(3)),
    // The same comparison by CPU: what an answer of the bare route costs its server over what a send
    // (with its two callbacks) costs this one; steadier than the rates on a shared machine. The load
    // generator with the receiver (this process) beside them, per send.
    cpu: {
      bareServerUsPerRequest: bareCpuUs,
      serverUsPerSend: serverCpuUs,
      loadAndReceiverUsPerSend: Math.round((benchCpu.user + benchCpu.system) / result.ok),
      // PostgreSQL: its processes' CPU a send (every database of the machine: run nothing else).
      databaseUsPerSend: databaseCpuUs,
      ratio: bareCpuUs && serverCpuUs ? Number((bareCpuUs / serverCpuUs).toFixed(3)) : null,
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `send-throughput-${Date.now()}.json`), JSON.stringify(report, null, 2));
} finally {
  await server.stop();
  receiver.close();
}
