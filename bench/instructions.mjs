#!/usr/bin/env node
// User-space instructions per call (valgrind's callgrind), one call at a time, where req/s moves by
// 10 % (api-read --twin). For A/B of small per-call costs. Slow (the server runs ~50x slower): a run
// takes minutes. A send's main-thread count repeated within 0.14 % in three runs on one machine and
// moved by 5 % on another; a read's moved by up to 5 % (JIT tiers, the main thread's share of GC):
// compare in alternating pairs, reads with --calls 2000 --warmup 2000.
// Run one at a time: two at once on two cores moved the count by 10 % (JIT and GC work shift).
//   --call read (default): an authenticated read (refreshLoginInfo), then the bare route answering
//     the same bytes;
//   --call send: sendMsgText with sub-account credentials through the simulator, each send counted
//     with its two callbacks (its status, the contact's reply) delivered to a local receiver.
// Beside the process's total, the report splits it by thread: the main thread, the worker threads
// (the callbacks' thread, the SQLite checkpointer, the loop-lag heartbeat) and the rest (mostly
// V8's concurrent garbage collection, which a major GC in the counted window can move by 30 %).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  api,
  apiCompany,
  BENCH_ENV,
  loginSimAccount,
  machineFacts,
  numberArg,
  post,
  registerCustomer,
  startServer,
  stringArg,
  writeReport,
} from './lib.mjs';

const CALL = stringArg('call', 'read');
if (CALL !== 'read' && CALL !== 'send') throw new Error('--call: read or send');
// --reads is the older name of --calls.
const CALLS = numberArg('calls', numberArg('reads', CALL === 'send' ? 300 : 500));
const WARMUP = numberArg('warmup', CALL === 'send' ? 500 : 1000);
// Another build of the service to count (an A/B: its dist/main.js), instead of this checkout's.
const MAIN = stringArg('main', '');
// The bare route's count barely moves (186k on two machines): skip it when comparing builds.
const SERVICE_ONLY = process.argv.includes('--service-only');
// What a browser sends with every call: the answer's compression is negotiated on each one.
const HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const PATH = '/api/refreshLoginInfo';
const VALGRIND = ['valgrind', '--tool=callgrind', '--smc-check=all-non-file', '--dump-instr=no'];

/** Starts `main` under callgrind; its calls counted from `callgrind_control -z` to `-d`. */
async function counted(name, env, main) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), `wxc-callgrind-${name}-`));
  const server = await startServer(
    // A process this slow is always "behind": the load shedder must not answer 503.
    { ...BENCH_ENV, OVERLOAD_EVENT_LOOP_DELAY_MS: '0', ...env },
    {
      ...(main ? { main } : {}),
      wrapper: [...VALGRIND, `--callgrind-out-file=${outDir}/cg.%p`],
      startTimeoutMs: 300_000,
    },
  );
  return { server, outDir };
}

/** Inclusive instructions of each of `fns` in a callgrind dump (0 for one not in it), one pass. */
function inclusive(file, fns) {
  const lines = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).split('\n');
  return fns.map((fn) => {
    const line = lines.find((l) => l.includes(`:${fn}`));
    return line ? Number(line.trim().split(' ')[0].replaceAll(',', '')) : 0;
  });
}

/**
 * Counts `calls` runs of `call` (after `WARMUP` uncounted ones: V8 compiles the hot path first),
 * from `callgrind_control -z` to `-d`: per call, the whole process and its threads.
 */
async function measure({ server, outDir }, call) {
  for (let i = 0; i < WARMUP; i++) await call();
  const pid = String(server.child.pid); // valgrind runs the tool in the process it starts
  execFileSync('callgrind_control', ['-z', pid], { stdio: 'ignore' });
  for (let i = 0; i < CALLS; i++) await call();
  execFileSync('callgrind_control', ['-d', 'counted', pid], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1000));
  let instructions = 0;
  let mainThread = 0;
  let workerThreads = 0;
  for (const f of readdirSync(outDir)) {
    const file = path.join(outDir, f);
    const text = readFileSync(file, 'utf8');
    if (!/^desc: Trigger: .*counted/m.test(text)) continue;
    instructions += Number(text.match(/^(?:summary|totals):\s+(\d+)/m)?.[1] ?? 0);
    const [main, workers] = inclusive(file, ['node::NodeMainInstance::Run()', 'node::worker::Worker::Run()']);
    mainThread += main;
    workerThreads += workers;
  }
  if (instructions === 0) throw new Error(`no counted dump in ${outDir}`);
  const per = (n) => Math.round(n / CALLS);
  return {
    instructions,
    perCall: per(instructions),
    byThread: {
      main: per(mainThread),
      workers: per(workerThreads),
      rest: per(instructions - mainThread - workerThreads),
    },
  };
}

/** An authenticated read with a console session, as a browser makes it. */
function reader(url, headers) {
  return async () => {
    const res = await post(url, {}, headers);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return res.body;
  };
}

/** Callbacks arrive here; `until(n)` resolves once n have in all. */
async function callbackReceiver() {
  let received = 0;
  let waiting = null;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.end('ok');
      if (waiting && received >= waiting.n) {
        const { resolve } = waiting;
        waiting = null;
        resolve();
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/callback`,
    get received() {
      return received;
    },
    until(n) {
      if (received >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`callbacks: ${received} of ${n} after 60 s`)),
          60_000,
        );
        waiting = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/** A send through the simulator, and its two callbacks (status and reply) delivered. */
async function sender(server, receiver) {
  const base = server.url;
  const { creds } = await apiCompany(server, 1);
  // The URL is saved once a test post reaches it. Under callgrind the callbacks' thread can take
  // longer than the post's 5 s to start (seen on a slow machine): asked again while it warms up.
  for (let attempt = 1; ; attempt++) {
    try {
      await api(base, '/api/msg/resetCallbackUrl', { callbackUrl: receiver.url }, creds);
      break;
    } catch (err) {
      if (attempt === 5 || !String(err.message).includes('回调投递线程')) throw err;
    }
  }
  const account = await loginSimAccount(base, creds);
  const friend = (await api(base, '/api/msg/getAddressList', { wxid: account.wxid }, creds)).list.find(
    (c) => c.kind === 'friend',
  );
  // Callbacks of the login itself arrive first: counted from when they have.
  await new Promise((r) => setTimeout(r, 2000));
  let expected = receiver.received;
  let n = 0;
  return async () => {
    n += 1;
    const res = await post(
      `${base}/api/msg/sendMsgText`,
      { wxid: account.wxid, toWxid: friend.wxid, content: `计数消息 ${n}` },
      creds,
    );
    if (res.body?.code !== '200') throw new Error(`sendMsgText: ${JSON.stringify(res.body)}`);
    expected += 2;
    await receiver.until(expected);
  };
}

const started = [];
const receiver = CALL === 'send' ? await callbackReceiver() : null;
try {
  const service = await counted('service', {}, MAIN || undefined);
  started.push(service.server);
  let serviceCount;
  let answer;
  if (receiver) {
    serviceCount = await measure(service, await sender(service.server, receiver));
  } else {
    const token = await registerCustomer(service.server);
    answer = (await post(`${service.server.url}${PATH}`, {}, { authorization: token })).body;
    serviceCount = await measure(
      service,
      reader(`${service.server.url}${PATH}`, { ...HEADERS, authorization: token }),
    );
  }
  await service.server.stop();
  started.pop();
  // The bare route answers the same bytes, counted the same way (after the service: one at a time).
  let bareCount;
  if (!SERVICE_ONLY && !receiver) {
    const bare = await counted(
      'bare',
      { BASELINE_READ_JSON: JSON.stringify(answer) },
      path.join(import.meta.dirname, 'baseline-server.mjs'),
    );
    started.push(bare.server);
    bareCount = await measure(bare, reader(`${bare.server.url}/read`, HEADERS));
  }
  writeReport('instructions', {
    when: new Date().toISOString(),
    machine: machineFacts(),
    settings: {
      call: CALL,
      calls: CALLS,
      warmup: WARMUP,
      main: MAIN || 'apps/server/dist/main.js',
      serviceOnly: SERVICE_ONLY,
    },
    call: receiver
      ? 'POST /api/msg/sendMsgText (sub-account credentials, simulator, no pacing), one at a time, each with its two callbacks delivered'
      : `POST ${PATH} (console session, a browser's accept-encoding), one connection, one read at a time`,
    service: serviceCount,
    ...(bareCount
      ? { bareFastify: bareCount, ratio: Number((bareCount.perCall / serviceCount.perCall).toFixed(3)) }
      : {}),
  });
} finally {
  for (const s of started.reverse()) await s.stop();
  await receiver?.close();
}
