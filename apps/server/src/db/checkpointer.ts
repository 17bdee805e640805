import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { sqliteDriverPath } from './driver.js';

/** How often the background thread moves the WAL's new pages into the database file. */
export const CHECKPOINT_EVERY_MS = 100;
/**
 * The main connection's own automatic checkpoint while the thread runs: only a backstop, for when
 * the thread falls this many pages (4 KB each) behind. SQLite's default, used without the thread.
 */
const BACKSTOP_PAGES = 10_000;
const DEFAULT_PAGES = 1_000;

/**
 * The thread's code: its own connection to the file, a PASSIVE checkpoint every `everyMs` (it
 * never waits for or blocks a writer; SQLite restarts the WAL once all of it is copied). It is
 * evaluated CommonJS, so it needs no file of its own in the bundle, in tsx or in tests.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String(err)); }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export interface Checkpointer {
  /** Stops the thread (before the main connection closes, which checkpoints what is left). */
  stop(): Promise<void>;
}

/**
 * Checkpoints a WAL-mode SQLite file on a thread of its own. Inline, every 1,000 pages a commit
 * stopped to copy them into the database file and sync it: about half of what a commit cost in
 * the send benchmark, and the long stalls in its latency. If the thread stops unexpectedly, the
 * main connection checkpoints by itself again (SQLite's default).
 */
export function startCheckpointer(
  sqlite: BetterSqlite3.Database,
  file: string,
  onProblem: (message: string) => void,
): Checkpointer {
  const driver = sqliteDriverPath();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, everyMs: CHECKPOINT_EVERY_MS },
  });
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    worker.on('exit', (code) => {
      if (!stopping) {
        onProblem(`SQLite checkpoint thread exited (code ${code}); checkpointing inline`);
        if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
      }
      resolve();
    });
  });
  worker.on('message', (message) => onProblem(`SQLite checkpoint failed: ${message}`));
  worker.on('error', (err) => onProblem(`SQLite checkpoint thread failed: ${err.message}`));
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
