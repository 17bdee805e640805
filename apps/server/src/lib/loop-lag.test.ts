import { afterEach, describe, expect, it } from 'vitest';
import { type LoopLag, watchLoopLag } from './loop-lag.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* the loop is blocked */
  }
};

let watchers: LoopLag[] = [];
afterEach(async () => {
  await Promise.all(watchers.map((w) => w.stop()));
  watchers = [];
});
const watch = () => {
  const w = watchLoopLag();
  watchers.push(w);
  return w;
};

describe('watchLoopLag', () => {
  it('reads near 0 while the loop idles, and rises when a turn blocks it', async () => {
    const lag = watch();
    await sleep(300);
    expect(lag.ms()).toBeLessThan(50);
    busyFor(600);
    // The beat that waited through the blocked turn is answered now; the next ones are on time.
    await sleep(20);
    expect(lag.ms()).toBeGreaterThan(100);
    await sleep(1500);
    expect(lag.ms()).toBeLessThan(100);
  });

  it('watchers share one clock; one stopping leaves the other measuring, and a new one starts it again', async () => {
    const a = watch();
    const b = watch();
    await a.stop();
    // The heartbeat's thread beats before the loop blocks (a loaded machine starts a thread slowly).
    await sleep(300);
    busyFor(600);
    await sleep(20);
    expect(b.ms()).toBeGreaterThan(100);
    expect(a.ms()).toBe(0);
    await b.stop();
    const c = watch();
    await sleep(300);
    busyFor(600);
    await sleep(20);
    expect(c.ms()).toBeGreaterThan(100);
  });
});
