import { Worker } from 'node:worker_threads';

/** How often the event loop's lag is measured. */
const TICK_MS = 50;
/** Weight of the newest measurement in the smoothed lag (the rest is the history). */
const SMOOTHING = 0.3;

/** How far behind this process's event loop runs (load shedding, the callbacks' delivery pace). */
export interface LoopLag {
  /**
   * How far behind the loop runs, smoothed (the newest measurement weighs 0.3): one long turn moves
   * it a little, a loop that stays behind moves it all the way. See the clocks below.
   */
  ms(): number;
  stop(): Promise<void>;
}

/**
 * Two clocks, and the lag is the lower of their readings:
 * - a 50 ms timer, how late it fires. Under many connections it alone misreads: with 1,024 or more
 *   sockets ready at once, libuv polls again (up to 48 times) before it runs timers
 *   (src/unix/linux.c, `uv__io_poll`), so in the 1,000-connection soak the timer fired 6 s late
 *   while every request was answered within 250 ms, and the shedder turned thousands of them away;
 * - a heartbeat from a worker thread: it posts the time, the main thread answers, the next beat goes
 *   50 ms after the answer. A message reaches the main thread as an I/O event, in the poll phase, as
 *   a request's bytes do, so its lateness is how long a ready socket waits. Alone it reads higher
 *   than the timer while many I/O events are served quickly (15–25 ms draining callbacks, where the
 *   timer reads under 5), which would keep the delivery pace of a loaded loop on an idle one.
 * A loop that is really behind (long turns of work) delays both.
 */
const HEARTBEAT_SOURCE = `
const { parentPort } = require('node:worker_threads');
const beat = () => parentPort.postMessage(performance.timeOrigin + performance.now());
parentPort.on('message', () => setTimeout(beat, ${TICK_MS}));
beat();
`;

interface Listener {
  beat(lateMs: number): void;
  /** The heartbeat thread ended unasked: its reading is no longer taken into account. */
  lost(): void;
}

/** One heartbeat per process, shared by its watchers (tests build many apps in one process). */
let heartbeat: { worker: Worker; listeners: Set<Listener> } | null = null;

function subscribe(listener: Listener): () => Promise<void> {
  if (!heartbeat) {
    const worker = new Worker(HEARTBEAT_SOURCE, { eval: true });
    worker.unref();
    const beat = { worker, listeners: new Set<Listener>() };
    worker.on('message', (sentAt: number) => {
      const late = Math.max(0, performance.timeOrigin + performance.now() - sentAt);
      for (const l of beat.listeners) l.beat(late);
      worker.postMessage(0);
    });
    worker.on('error', () => {}); // followed by 'exit'
    worker.on('exit', () => {
      if (heartbeat !== beat) return; // terminated by the last watcher's stop
      heartbeat = null;
      for (const l of beat.listeners) l.lost();
    });
    heartbeat = beat;
  }
  const beat = heartbeat;
  beat.listeners.add(listener);
  return async () => {
    beat.listeners.delete(listener);
    if (beat.listeners.size > 0 || heartbeat !== beat) return;
    heartbeat = null;
    await beat.worker.terminate();
  };
}

const smooth = (lag: number, late: number) => lag * (1 - SMOOTHING) + late * SMOOTHING;

export function watchLoopLag(): LoopLag {
  let timerLag = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    timerLag = smooth(timerLag, Math.max(0, now - last - TICK_MS));
    last = now;
  }, TICK_MS);
  timer.unref();
  let heartbeatLag = 0;
  let unsubscribe: (() => Promise<void>) | null = subscribe({
    beat(late) {
      heartbeatLag = smooth(heartbeatLag, late);
    },
    lost() {
      heartbeatLag = Number.POSITIVE_INFINITY; // the timer's reading alone, as before the heartbeat
    },
  });
  return {
    ms: () => Math.min(timerLag, heartbeatLag),
    async stop() {
      clearInterval(timer);
      const stop = unsubscribe;
      unsubscribe = null;
      await stop?.();
    },
  };
}
