import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** Pauses before replacing a worker that died: they grow while workers keep dying. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A worker that ran this long counts as healthy: the next restart pause starts over. */
const HEALTHY_AFTER_MS = 60_000;
/** Longest wait for the workers to finish at shutdown (each forces itself out after 10 s). */
const SHUTDOWN_MAX_MS = 15_000;

export interface SupervisorOptions {
  workers: number;
  log: Logger;
  /** Once every first worker listens, with the port they share. */
  onListening(port: number): void;
}

/**
 * WORKERS=N: this process (the primary) runs N server processes on one port and keeps N running.
 * node:cluster owns the listening socket here and hands each new connection to the next worker in
 * turn; every worker is a full peer over PostgreSQL (sessions, send queues, callbacks, live events
 * and rate limits are shared there), so any worker may take any request. The primary has done the
 * migrations and the seeding before forking, and holds no database connection afterwards.
 * - A worker that dies unexpectedly is replaced after a pause (1 s, doubling to 30 s while they keep
 *   dying; back to 1 s once one has run for a minute).
 * - SIGTERM/SIGINT: every worker finishes its open requests and stops (its own graceful shutdown);
 *   the primary exits once all have, 0 when all stopped cleanly.
 * - If the primary itself is killed, node:cluster ends its workers (their channel to it closes).
 */
export function superviseWorkers(o: SupervisorOptions): void {
  let stopping = false;
  let restartDelay = RESTART_FIRST_MS;
  let firstListening = 0;
  let announced = false;
  const startedAt = new Map<Worker, number>();
  let cleanExit = true;

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
  };

  cluster.on('listening', (_worker, address) => {
    if (announced) return;
    firstListening += 1;
    if (firstListening === o.workers) {
      announced = true;
      o.onListening(address.port);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const ranMs = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    if (stopping) {
      // A worker still starting has no handler yet: SIGTERM ends it at once, with nothing to finish.
      if (code !== 0 && signal !== 'SIGTERM') cleanExit = false;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(cleanExit ? 0 : 1);
      return;
    }
    if (ranMs >= HEALTHY_AFTER_MS) restartDelay = RESTART_FIRST_MS;
    o.log.error(
      { pid: worker.process.pid, code, signal, restartInMs: restartDelay },
      'server worker stopped unexpectedly: starting another',
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, restartDelay);
    restartDelay = Math.min(restartDelay * 2, RESTART_MAX_MS);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      o.log.info(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
      const force = setTimeout(() => process.exit(1), SHUTDOWN_MAX_MS);
      force.unref();
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
      if (workers.length === 0) process.exit(0);
      // Each worker's own SIGTERM handler finishes its open requests, then closes its app.
      for (const worker of workers) worker.process.kill('SIGTERM');
    });
  }

  for (let i = 0; i < o.workers; i++) fork();
}
