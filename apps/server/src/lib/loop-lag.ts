/** How often the event loop's lag is measured. */
const TICK_MS = 50;
/** Weight of the newest measurement in the smoothed lag (the rest is the history). */
const SMOOTHING = 0.3;

/** How far behind this process's event loop runs (one watcher per process: app.ts). */
export interface LoopLag {
  /**
   * How late a 50 ms timer fires, smoothed (the newest measurement weighs 0.3): one long turn
   * moves it a little, a loop that stays behind moves it all the way.
   */
  ms(): number;
  stop(): void;
}

export function watchLoopLag(): LoopLag {
  let lag = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lag = lag * (1 - SMOOTHING) + Math.max(0, now - last - TICK_MS) * SMOOTHING;
    last = now;
  }, TICK_MS);
  timer.unref();
  return { ms: () => lag, stop: () => clearInterval(timer) };
}
