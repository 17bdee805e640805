import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRequestSlices, flushAtSliceEnd, requestsInLine } from './request-slices.js';

const reply = {} as FastifyReply;
const request = (answeredUnderLoad = false) =>
  ({ routeOptions: { config: { answeredUnderLoad } } }) as unknown as FastifyRequest;

/** Work a request does in its own task: the CPU it holds the loop for. */
function busyFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* busy */
  }
}

async function until(check: () => boolean, timeoutMs = 5_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('createRequestSlices', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('starts requests for sliceMs of a poll phase, the rest wait in line and are served a slice at a time between polls, in order', async () => {
    const slices = createRequestSlices({ sliceMs: 5 });
    const ran: number[] = [];
    let ranWhenTheTimerFired = -1;
    // A poll phase that brings 12 requests of 2 ms each (each runs in its own task, as a socket's
    // bytes do); a timer set meanwhile stands for an answer that arrives while they run.
    setTimeout(() => {
      ranWhenTheTimerFired = ran.length;
    }, 0);
    for (let id = 0; id < 12; id++) {
      slices.onRequest(request(), reply, () => {
        ran.push(id);
        busyFor(2);
      });
    }
    // 0, 2 and 4 ms into the poll phase: started; from 6 ms on: in line.
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(ran.length).toBeLessThanOrEqual(3);
    expect(requestsInLine()).toBe(12 - ran.length);
    busyFor(10);
    expect(slices.oldestWaitMs()).toBeGreaterThanOrEqual(10); // what load shedding reads

    await until(() => ran.length === 12);
    expect(ran).toEqual([...Array(12).keys()]); // first come, first served
    // The timer ran after the poll phase's requests and one slice (at most 3 + 3: a slice stops
    // starting requests once their synchronous work took it), not after all 12.
    expect(ranWhenTheTimerFired).toBeGreaterThanOrEqual(1);
    expect(ranWhenTheTimerFired).toBeLessThanOrEqual(6);
    expect(requestsInLine()).toBe(0);
    expect(slices.oldestWaitMs()).toBe(0);
  });

  it('a slice serves as many as the slices before cost a request, its promises included', async () => {
    const slices = createRequestSlices({ sliceMs: 5 });
    // A marker that runs once each check phase: between two marks, one slice.
    const log: Array<number | 'mark'> = [];
    let marking = true;
    const mark = () => {
      if (!marking) return;
      log.push('mark');
      setImmediate(mark);
    };
    slices.onRequest(request(), reply, () => busyFor(6)); // the poll phase's budget is spent
    for (let id = 0; id < 40; id++) {
      slices.onRequest(request(), reply, () => {
        // The request's work happens a few promises later, as a handler's does after its hooks.
        void Promise.resolve()
          .then(() => Promise.resolve())
          .then(() => {
            log.push(id);
            busyFor(2);
          });
      });
    }
    setImmediate(mark);
    expect(log).toEqual([]);
    await until(() => log.filter((e) => e !== 'mark').length === 40);
    marking = false;

    const served = log.filter((e) => e !== 'mark');
    expect(served).toEqual([...Array(40).keys()]); // first come, first served
    const sizes = log
      .join()
      .split('mark')
      .map((group) => group.split(',').filter(Boolean).length)
      .filter((n) => n > 0);
    // The first slice goes by the first guess (0.5 ms a request: 10). Each slice then measures 2 ms
    // a request or more (more when the machine pauses the test), so the learned cost is at least
    // 0.95, 1.27, 1.49, 1.64 … ms after 1, 2, 3, 4 … slices: at most 5, 4, 3, 3 … a slice.
    const most = [10, 5, 4];
    sizes.forEach((n, i) => {
      expect(n).toBeLessThanOrEqual(most[i] ?? 3);
    });
  });

  it('a slice that starts late still serves one request, and the line keeps moving', async () => {
    // A clock that jumps 10 ms at every reading: each slice finds its 5 ms gone before it starts
    // (a process paused between two readings). A slice that served nothing measured 0 requests, its
    // cost a request became NaN, and the line stopped for good (seen once in a soak).
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 10));
    const slices = createRequestSlices({ sliceMs: 5 });
    const ran: number[] = [];
    for (let id = 0; id < 6; id++) slices.onRequest(request(), reply, () => ran.push(id));
    expect(ran).toEqual([0]); // the rest came 10 ms or more into the poll phase
    await until(() => ran.length === 6);
    expect(ran).toEqual([...Array(6).keys()]);
    // Then, with an honest clock again, a slice still serves more than one.
    vi.restoreAllMocks();
    const later: number[] = [];
    slices.onRequest(request(), reply, () => busyFor(6));
    for (let id = 0; id < 5; id++) slices.onRequest(request(), reply, () => later.push(id));
    await until(() => later.length === 5);
    expect(later).toEqual([...Array(5).keys()]);
  });

  it('a route that never waits is started even while others wait in line', async () => {
    const slices = createRequestSlices({
      sliceMs: 5,
      skip: (req) => Boolean(req.routeOptions.config.answeredUnderLoad),
    });
    const ran: string[] = [];
    slices.onRequest(request(), reply, () => {
      ran.push('first');
      busyFor(6);
    });
    slices.onRequest(request(), reply, () => ran.push('waits'));
    slices.onRequest(request(true), reply, () => ran.push('health'));
    expect(ran).toEqual(['first', 'health']);
    await until(() => ran.length === 3);
    expect(ran).toEqual(['first', 'health', 'waits']);
  });

  it('flushAtSliceEnd: inside a slice, runs once its requests have run; outside one, refuses', async () => {
    expect(flushAtSliceEnd(() => {})).toBe(false);
    // A long slice: its three requests are started together even on a machine that pauses.
    const slices = createRequestSlices({ sliceMs: 200 });
    const log: string[] = [];
    slices.onRequest(request(), reply, () => busyFor(201));
    for (const id of ['a', 'b', 'c']) {
      slices.onRequest(request(), reply, () => {
        log.push(id);
        if (id === 'a') expect(flushAtSliceEnd(() => log.push('flush'))).toBe(true);
        void Promise.resolve().then(() => log.push(`${id} then`));
      });
    }
    await until(() => log.includes('flush'));
    expect(log).toEqual(['a', 'b', 'c', 'a then', 'b then', 'c then', 'flush']);
  });

  it('sliceMs 0: nothing waits', () => {
    const slices = createRequestSlices({ sliceMs: 0 });
    let ran = 0;
    for (let i = 0; i < 5; i++)
      slices.onRequest(request(), reply, () => {
        ran += 1;
        busyFor(2);
      });
    expect(ran).toBe(5);
    expect(requestsInLine()).toBe(0);
  });
});
