#!/usr/bin/env node
import {
  BENCH_ENV,
  cpuMs,
  databaseOf,
  loadConnections,
  machineFacts,
  numberArg,
  percentiles,
  post,
  registerCustomer,
  startBaseline,
  startServer,
  stringArg,
  writeReport,
} from './lib.mjs';

const SECONDS = numberArg('seconds', 3);
const ROUNDS = numberArg('rounds', 6);
const CONNECTIONS = numberArg('connections', 50);
const BEFORE = stringArg('before', undefined);
// --twin: this build a second time, as one more target in the same rounds. Two copies of one build
// differ only by noise (which slot of a round they ran in, what else the machine did): their ratio
// is the floor an A/B (--before) has to clear. (Seen here: 0.88-1.18 per round, medians 0.95-1.09.)
const TWIN = process.argv.includes('--twin');
// --workers 1,2: the service once per count (WORKERS=N, PostgreSQL), all in the same rounds.
const WORKERS = stringArg('workers', '1').split(',').map(Number);
const WARMUP_SECONDS = 2;
const PATH = '/api/refreshLoginInfo';

/** A server under test, with a registered customer, and the exact answer it gives. */
async function serviceTarget(main, env = {}) {
  const server = await startServer({ ...BENCH_ENV, ...env }, main ? { main } : {});
  const token = await registerCustomer(server);
  const answer = await post(`${server.url}${PATH}`, {}, { authorization: token });
  if (answer.body?.code !== '200') throw new Error(`refreshLoginInfo: ${JSON.stringify(answer.body)}`);
  return { server, origin: server.url, path: PATH, token, answer: answer.body };
}

const started = [];
try {
  if (WORKERS.some((n) => n > 1) && !process.env.DATABASE_URL)
    throw new Error('--workers above 1 needs DATABASE_URL (PostgreSQL)');
  const service = await serviceTarget(undefined, { WORKERS: String(WORKERS[0]) });
  started.push(service.server);
  // More worker counts: peers on the same database (these reads change nothing).
  const more = [];
  for (const n of WORKERS.slice(1)) {
    const target = await serviceTarget(undefined, { WORKERS: String(n) });
    started.push(target.server);
    more.push([`workers${n}`, target]);
  }
  // Another build gets a database of its own (its migrations may differ).
  if (BEFORE && process.env.DATABASE_URL && !process.env.BEFORE_DATABASE_URL)
    throw new Error('--before on PostgreSQL: set BEFORE_DATABASE_URL to another database');
  const before = BEFORE
    ? await serviceTarget(
        BEFORE,
        process.env.BEFORE_DATABASE_URL ? { DATABASE_URL: process.env.BEFORE_DATABASE_URL } : {},
      )
    : undefined;
  if (before) started.push(before.server);
  const twin = TWIN ? await serviceTarget(undefined, { WORKERS: String(WORKERS[0]) }) : undefined;
  if (twin) started.push(twin.server);
  // The bare route answers exactly what the service answers (same user, same bytes).
  const bareJson = JSON.stringify(service.answer);
  const baseline = await startBaseline({ BASELINE_READ_JSON: bareJson });
  started.push(baseline);

  const targets = {
    bareFastify: {
      origin: baseline.url,
      path: '/read',
      token: service.token,
      expected: bareJson,
      pid: baseline.child.pid,
    },
    ...(before
      ? { before: { ...before, expected: JSON.stringify(before.answer), pid: before.server.child.pid } }
      : {}),
    service: { ...service, expected: bareJson, pid: service.server.child.pid },
    ...(twin ? { twin: { ...twin, expected: JSON.stringify(twin.answer), pid: twin.server.child.pid } } : {}),
    ...Object.fromEntries(
      more.map(([name, t]) => [name, { ...t, expected: JSON.stringify(t.answer), pid: t.server.child.pid }]),
    ),
  };
  const run = (target, seconds) =>
    loadConnections({
      origin: target.origin,
      connections: CONNECTIONS,
      seconds,
      keepSamples: true,
      next: () => ({
        method: 'POST',
        path: target.path,
        headers: { 'content-type': 'application/json', authorization: target.token },
        body: '{}',
      }),
      check: (_kind, status, text) => status === 200 && text === target.expected,
    });

  const warmup = {};
  for (const [name, target] of Object.entries(targets))
    warmup[name] = (await run(target, WARMUP_SECONDS)).byKind.request.ok;
  const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, target] of Object.entries(targets)) {
      const cpuBefore = cpuMs(target.pid, { children: true });
      const result = (await run(target, SECONDS)).byKind.request;
      const cpuAfter = cpuMs(target.pid, { children: true });
      rounds[name].push({ ...result, cpuMs: cpuBefore === null ? null : cpuAfter - cpuBefore });
    }
  }
  const summary = (list) => {
    const ok = list.reduce((n, r) => n + r.ok, 0);
    return {
      ok,
      failed: list.reduce((n, r) => n + r.failed + r.timeouts + r.connectTimeouts + r.errors, 0),
      perSecond: Math.round(ok / (list.length * SECONDS)),
      perSecondByRound: list.map((r) => r.perSecond),
      // The server process's CPU time per answered request (user + system).
      serverCpuUsPerRequest: Math.round((list.reduce((n, r) => n + (r.cpuMs ?? 0), 0) * 1000) / ok),
      ...percentiles(list.flatMap((r) => r.samples)),
      firstError: list.find((r) => r.firstError)?.firstError ?? null,
    };
  };
  const results = Object.fromEntries(
    Object.entries(rounds).map(([name, list]) => [name, { ...summary(list), warmupOk: warmup[name] }]),
  );
  const ratio = (name) => Number((results[name].perSecond / results.bareFastify.perSecond).toFixed(3));
  // Each round's ratio compares two measurements seconds apart; their median shrugs off a round
  // that another program on the machine disturbed.
  const medianRoundRatio = (name) => {
    const r = rounds[name].map((x, i) => x.perSecond / rounds.bareFastify[i].perSecond).sort((a, b) => a - b);
    return Number(((r[(r.length - 1) >> 1] + r[r.length >> 1]) / 2).toFixed(3));
  };
  const cpuRatio = (name) =>
    Number((results.bareFastify.serverCpuUsPerRequest / results[name].serverCpuUsPerRequest).toFixed(3));
  writeReport('api-read', {
    when: new Date().toISOString(),
    machine: machineFacts(),
    settings: {
      seconds: SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      database: databaseOf(),
      workers: WORKERS,
      twin: TWIN,
    },
    call: `POST ${PATH} (console session)`,
    ...results,
    ratioToBaseline: ratio('service'),
    medianRoundRatio: medianRoundRatio('service'),
    // Bare route's CPU per request ÷ the service's: the ratio if CPU were the only limit.
    cpuRatio: cpuRatio('service'),
    ...Object.fromEntries(
      more
        .map(([name]) => [`${name}RatioToBaseline`, ratio(name)])
        .concat(more.map(([name]) => [`${name}MedianRoundRatio`, medianRoundRatio(name)])),
    ),
    ...(before
      ? {
          beforeRatioToBaseline: ratio('before'),
          beforeMedianRoundRatio: medianRoundRatio('before'),
          beforeCpuRatio: cpuRatio('before'),
          beforeBuild: BEFORE,
        }
      : {}),
    ...(twin
      ? {
          twinMedianRoundRatio: medianRoundRatio('twin'),
          // The same build against itself, round by round: how far apart noise alone puts two targets.
          twinToServiceByRound: rounds.twin.map((x, i) =>
            Number((x.perSecond / rounds.service[i].perSecond).toFixed(3)),
          ),
        }
      : {}),
    goal: { ratio: 0.6, p99Ms: 25 },
  });
} finally {
  for (const s of started.reverse()) await s.stop();
}
