// Shared bench helpers: start the built server as a child process, call the API, measure load.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Starts `node apps/server/dist/main.js` on a free port with a fresh data dir; resolves when it listens. */
export async function startServer(env = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wxc-bench-'));
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const smsCodes = new Map();
  child.stdout.on('data', (d) => {
    out += d;
    for (const m of String(d).matchAll(/\[dev-sms\] to=(\d+) scene=\w+ code=(\d+)/g))
      smsCodes.set(m[1], m[2]);
  });
  child.stderr.on('data', (d) => process.stderr.write(d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
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
        child.on('exit', r);
        child.kill('SIGTERM');
      }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** POST JSON with keep-alive; resolves { status, body }. */
export function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
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
export async function api(base, path, body, headers) {
  const res = await post(`${base}${path}`, body, headers);
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
