#!/usr/bin/env node
// User-space instructions per authenticated read (valgrind's callgrind), the service against the bare
// route: a count that repeats within ~1.5 % run to run, where req/s moves by 10 % (api-read --twin).
// For A/B of small per-request costs. Slow (the server runs ~50x slower): one run takes ~2 minutes.
// Run one at a time: two at once on two cores moved the count by 10 % (JIT and GC work shift).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BENCH_ENV,
  machineFacts,
  numberArg,
  post,
  registerCustomer,
  startServer,
  stringArg,
  writeReport,
} from './lib.mjs';

const READS = numberArg('reads', 500);
const WARMUP = numberArg('warmup', 1000);
// Another build of the service to count (an A/B: its dist/main.js), instead of this checkout's.
const MAIN = stringArg('main', '');
// The bare route's count barely moves (186k on two machines): skip it when comparing builds.
const SERVICE_ONLY = process.argv.includes('--service-only');
// What a browser sends with every call: the answer's compression is negotiated on each one.
const HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const PATH = '/api/refreshLoginInfo';
const VALGRIND = ['valgrind', '--tool=callgrind', '--smc-check=all-non-file', '--dump-instr=no'];

/** Starts `main` under callgrind; its reads counted from `callgrind_control -z` to `-d`. */
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

async function measure({ server, outDir }, url, headers) {
  const read = async () => {
    const res = await post(url, {}, headers);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return res.body;
  };
  for (let i = 0; i < WARMUP; i++) await read(); // V8 compiles the hot path first
  const pid = String(server.child.pid); // valgrind runs the tool in the process it starts
  execFileSync('callgrind_control', ['-z', pid], { stdio: 'ignore' });
  for (let i = 0; i < READS; i++) await read();
  execFileSync('callgrind_control', ['-d', 'counted', pid], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1000));
  let instructions = 0;
  for (const f of readdirSync(outDir)) {
    const text = readFileSync(path.join(outDir, f), 'utf8');
    if (!/^desc: Trigger: .*counted/m.test(text)) continue;
    instructions += Number(text.match(/^(?:summary|totals):\s+(\d+)/m)?.[1] ?? 0);
  }
  if (instructions === 0) throw new Error(`no counted dump in ${outDir}`);
  return { instructions, perRead: Math.round(instructions / READS) };
}

const started = [];
try {
  const service = await counted('service', {}, MAIN || undefined);
  started.push(service.server);
  const token = await registerCustomer(service.server);
  const answer = (await post(`${service.server.url}${PATH}`, {}, { authorization: token })).body;
  const serviceCount = await measure(service, `${service.server.url}${PATH}`, {
    ...HEADERS,
    authorization: token,
  });
  await service.server.stop();
  started.pop();
  // The bare route answers the same bytes, counted the same way (after the service: one at a time).
  let bareCount;
  if (!SERVICE_ONLY) {
    const bare = await counted(
      'bare',
      { BASELINE_READ_JSON: JSON.stringify(answer) },
      path.join(import.meta.dirname, 'baseline-server.mjs'),
    );
    started.push(bare.server);
    bareCount = await measure(bare, `${bare.server.url}/read`, HEADERS);
  }
  writeReport('instructions', {
    when: new Date().toISOString(),
    machine: machineFacts(),
    settings: {
      reads: READS,
      warmup: WARMUP,
      main: MAIN || 'apps/server/dist/main.js',
      serviceOnly: SERVICE_ONLY,
    },
    call: `POST ${PATH} (console session, a browser's accept-encoding), one connection, one read at a time`,
    service: serviceCount,
    ...(bareCount
      ? { bareFastify: bareCount, ratio: Number((bareCount.perRead / serviceCount.perRead).toFixed(3)) }
      : {}),
  });
} finally {
  for (const s of started.reverse()) await s.stop();
}
