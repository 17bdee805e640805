import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackEventRow } from '../../db/schema.js';
import {
  CATCH_UP_AFTER_MS,
  CATCH_UP_DELIVERY_CONCURRENCY,
  DELIVERY_CONCURRENCY,
  deliveryLimitNow,
  IDLE_DELIVERY_CONCURRENCY,
  IDLE_LAG_MS,
} from './service.js';
import { createDeliveryWorker, type DeliveryWorker } from './worker.js';

const log = { error: () => {}, warn: () => {} } as unknown as FastifyBaseLogger;

function event(id: string, dueAt: number): CallbackEventRow {
  return {
    id,
    company_id: 'c',
    api_account_id: 'a',
    wxid: 'w',
    type: 'message',
    payload: '{}',
    url: 'http://receiver.test/',
    status: 'pending',
    attempts: 0,
    next_attempt_at: dueAt,
    locked_until: 0,
    last_status_code: null,
    last_error: null,
    created_at: dueAt,
    delivered_at: null,
  };
}

/**
 * A worker over an in-memory queue of due events; deliveries stay in flight until `finish` (so the
 * slots they hold are under the test's control). `limit` records what the worker told it.
 */
function harness(limit: (behindMs: number) => number) {
  const queue: CallbackEventRow[] = [];
  const inFlight: Array<{ event: CallbackEventRow; done: (settled?: boolean) => void }> = [];
  const behindSeen: number[] = [];
  /** While set, claims wait for it (a claim statement still on its way). */
  let claimGate: Promise<void> | null = null;
  /** Claims answered so far. */
  let claims = 0;
  const worker = createDeliveryWorker({
    claimDue: async (_now, n) => {
      await claimGate;
      claims += 1;
      return queue.splice(0, n);
    },
    nextDueAt: async () => null,
    log,
    // Settled for good (delivered) unless the test says it is due again.
    deliver: (e) =>
      new Promise<boolean>((done) => inFlight.push({ event: e, done: (settled = true) => done(settled) })),
    limit: (behindMs) => {
      behindSeen.push(behindMs);
      return limit(behindMs);
    },
    lockMs: 60_000,
    maxIdleMs: 60_000,
  });
  const settle = () => new Promise((r) => setTimeout(r, 5));
  let openClaims = () => {};
  running = { worker, inFlight, openClaims: () => openClaims() };
  return {
    queue,
    inFlight,
    behindSeen,
    worker,
    /**
     * Until the worker's `n`th claim has been answered and acted on (a fixed wait flaked on a busy
     * CI machine: the claim that follows a finished delivery runs from a timer of the worker's).
     */
    claimed: (n: number) => expect.poll(() => claims).toBeGreaterThanOrEqual(n),
    /** Holds the next claims until the returned function is called. */
    holdClaims() {
      let open = () => {};
      claimGate = new Promise<void>((r) => {
        open = r;
      });
      openClaims = () => {
        claimGate = null;
        open();
      };
      return openClaims;
    },
    /** Ends the oldest `n` deliveries in flight (`settled`: false when each is due again, a retry). */
    async finish(n: number, settled = true) {
      for (const d of inFlight.splice(0, n)) d.done(settled);
      await settle();
    },
    claims: () => claims,
  };
}

/** The test's worker, stopped after it with its deliveries ended. */
let running: {
  worker: DeliveryWorker;
  inFlight: Array<{ done: () => void }>;
  openClaims: () => void;
} | null = null;
afterEach(async () => {
  const r = running;
  running = null;
  if (!r) return;
  const stopped = r.worker.stop();
  r.openClaims();
  for (const d of r.inFlight.splice(0)) d.done();
  await stopped;
});

describe('callback delivery worker', () => {
  it('takes as many as its limit allows, and tells the limit how late the last claim was', async () => {
    const h = harness(() => 2);
    const now = Date.now();
    h.queue.push(event('old', now - 5_000), event('older', now - 4_000), event('new', now));
    h.worker.start();
    await h.claimed(1);
    expect(h.inFlight.map((d) => d.event.id)).toEqual(['old', 'older']);
    // The claim was full: something may wait behind it, ~5 s late.
    expect(h.behindSeen.at(-1)).toBeGreaterThanOrEqual(4_900);

    await h.finish(2);
    await h.claimed(2);
    expect(h.inFlight.map((d) => d.event.id)).toEqual(['new']);
    // That claim found less than it could take: the queue is empty, nothing is behind.
    expect(h.worker.reserve()).toBe(true);
    expect(h.behindSeen.at(-1)).toBe(0);
    h.worker.release();
  });

  it('while older events wait, a new one queues behind them instead of taking a free slot', async () => {
    const h = harness(() => 2);
    const now = Date.now();
    h.queue.push(event('a', now - 3_000), event('b', now - 2_000), event('c', now - 1_000));
    h.worker.start();
    await h.claimed(1);
    expect(h.inFlight.map((d) => d.event.id)).toEqual(['a', 'b']);
    // 'a' ends; the worker's next claim is on its way: the slot is free, but 'c' waits for it.
    const open = h.holdClaims();
    await h.finish(1);
    expect(h.worker.reserve()).toBe(false);
    open();
    await h.claimed(2);
    expect(h.inFlight.map((d) => d.event.id)).toEqual(['b', 'c']);

    // 'b' ends, and the next claim finds the queue empty: a new event may take the slot again.
    await h.finish(1);
    await h.claimed(3);
    expect(h.worker.reserve()).toBe(true);
    h.worker.release();
  });

  it('an event stored unclaimed because every slot was taken goes before the next new one', async () => {
    const h = harness(() => 1);
    h.worker.start();
    await h.claimed(1); // the queue is empty
    expect(h.worker.reserve()).toBe(true);
    h.worker.handOff(event('direct', Date.now()));
    // The one slot is taken: the next event is stored unclaimed.
    expect(h.worker.reserve()).toBe(false);
    h.queue.push(event('waiting', Date.now()));
    h.worker.wake();
    // The delivery ends and the worker's claim is on its way: a newer event must not take the slot
    // (else, with every slot always full, the worker never finds one free to claim with).
    const open = h.holdClaims();
    await h.finish(1);
    expect(h.worker.reserve()).toBe(false);
    open();
    await h.claimed(2);
    expect(h.inFlight.map((d) => d.event.id)).toEqual(['waiting']);
  });

  it('after a delivery, a claim only when one can find something: not for an event handed over and delivered', async () => {
    const h = harness(() => 2);
    h.worker.start();
    await h.claimed(1); // the queue is empty
    expect(h.worker.reserve()).toBe(true);
    h.worker.handOff(event('direct', Date.now()));
    await h.finish(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.claims()).toBe(1);
    // An attempt that left its event due again (a retry): the worker looks (and schedules it).
    expect(h.worker.reserve()).toBe(true);
    h.worker.handOff(event('retried', Date.now()));
    await h.finish(1, false);
    await h.claimed(2);
    // Both slots taken by events handed over, and another process's event waits unclaimed: the
    // pass finds no slot free, so the next slot freed looks, though that delivery was final.
    for (const id of ['d1', 'd2']) {
      expect(h.worker.reserve()).toBe(true);
      h.worker.handOff(event(id, Date.now()));
    }
    h.queue.push(event('other', Date.now()));
    h.worker.wake();
    await new Promise((r) => setTimeout(r, 30));
    expect(h.claims()).toBe(2);
    await h.finish(1);
    await h.claimed(3);
    expect(h.inFlight.map((d) => d.event.id)).toEqual(['d2', 'other']);
  });

  it('a new event takes a free slot when nothing is waiting', async () => {
    const h = harness(() => 1);
    h.worker.start();
    await h.claimed(1);
    expect(h.worker.reserve()).toBe(true);
    expect(h.worker.reserve()).toBe(false); // the one slot is taken
    h.worker.handOff(event('stored', Date.now()));
    expect(h.inFlight.map((d) => d.event.id)).toEqual(['stored']);
    await h.finish(1);
  });
});

describe('deliveries in flight allowed', () => {
  it('few under load, more on an idle loop, the most while behind', () => {
    expect(deliveryLimitNow(50, 0)).toBe(DELIVERY_CONCURRENCY);
    expect(deliveryLimitNow(IDLE_LAG_MS - 1, 0)).toBe(IDLE_DELIVERY_CONCURRENCY);
    expect(deliveryLimitNow(50, CATCH_UP_AFTER_MS - 1)).toBe(DELIVERY_CONCURRENCY);
    expect(deliveryLimitNow(50, CATCH_UP_AFTER_MS)).toBe(CATCH_UP_DELIVERY_CONCURRENCY);
    expect(deliveryLimitNow(1, CATCH_UP_AFTER_MS)).toBe(CATCH_UP_DELIVERY_CONCURRENCY);
    expect(DELIVERY_CONCURRENCY).toBeLessThan(IDLE_DELIVERY_CONCURRENCY);
    expect(IDLE_DELIVERY_CONCURRENCY).toBeLessThan(CATCH_UP_DELIVERY_CONCURRENCY);
  });
});
