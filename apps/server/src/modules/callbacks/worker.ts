import type { FastifyBaseLogger } from 'fastify';
import type { CallbackEventRow } from '../../db/schema.js';

export interface WorkerOptions {
  /** Claims at most `limit` due events until `lockUntil` (repo.claimDue), oldest due first. */
  claimDue(now: number, limit: number, lockUntil: number): Promise<CallbackEventRow[]>;
  /** When the next pending, unclaimed event falls due (repo.nextDueAt; null: none). */
  nextDueAt(now: number): Promise<number | null>;
  log: FastifyBaseLogger;
  /**
   * Delivers one claimed event and settles it; never rejects. True when the event is settled for
   * good (delivered, or given up): nothing of it falls due again.
   */
  deliver(event: CallbackEventRow): Promise<boolean>;
  /**
   * Deliveries in flight at most, now (it may change with the load), given how far behind the
   * worker is: how long the oldest event of its last claim had waited past its due time, 0 once a
   * claim found nothing more waiting.
   */
  limit(behindMs: number): number;
  /** How long a claim holds an event: longer than any attempt can take. */
  lockMs: number;
  /** Longest sleep: events queued by other processes are noticed within this. */
  maxIdleMs: number;
}

/**
 * The outbox worker: claims due events and hands them to `deliver`, at most `limit()` at once.
 * It sleeps until the next event falls due, a local wake-up (a new event, a finished delivery) or
 * `maxIdleMs`, whichever comes first: no polling storm, and other processes' events are not missed.
 */
export function createDeliveryWorker(o: WorkerOptions) {
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let running: Promise<void> | null = null;
  let again = false;
  const inFlight = new Set<Promise<void>>();
  /** Slots taken for events being stored already claimed (`reserve`), not yet handed over. */
  let reserved = 0;
  /** How late the last claim's oldest event was (0: that claim emptied the queue). */
  let behindMs = 0;
  /**
   * Events may be waiting unclaimed: the last claim took all it could, or an event was stored
   * unclaimed since (`reserve` refused it a slot). New events then queue behind them instead of
   * taking the free slots first, until a claim finds the queue empty. Else, under a steady load,
   * the old ones would only get the slots left over and wait longer and longer (seen in the soak:
   * one event in many, its delay growing a second a second); and with every slot full, each slot a
   * delivery freed went to the next new event before the worker's pass could claim: the pass found
   * no slot free, never claimed, and the events stored unclaimed waited out the whole load (seen in
   * the SQLite soak: 16-73 % of the callbacks arrived during a 30 s run).
   */
  let backlog = false;
  /** The last pass found every slot taken and claimed nothing: the next slot freed must look. */
  let slotAwaited = false;
  const limit = () => o.limit(behindMs);

  function schedule(ms: number) {
    if (!started || stopped) return;
    const delay = Math.max(0, Math.min(ms, o.maxIdleMs));
    const at = Date.now() + delay;
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = null;
      timerAt = Number.POSITIVE_INFINITY;
      void tick();
    }, delay);
    timer.unref();
  }

  async function pass() {
    do {
      again = false;
      const free = limit() - inFlight.size - reserved;
      if (free <= 0) {
        slotAwaited = true; // a finishing delivery wakes the worker
        return;
      }
      const now = Date.now();
      const claimed = await o.claimDue(now, free, now + o.lockMs);
      for (const event of claimed) track(o.deliver(event));
      backlog = claimed.length === free;
      if (backlog) {
        again = true; // there may be more due
        behindMs = Math.max(0, now - dueAt(claimed[0] as CallbackEventRow));
      } else behindMs = 0;
    } while (again && !stopped);
    if (stopped) return;
    const now = Date.now();
    const next = await o.nextDueAt(now);
    schedule(next === null ? o.maxIdleMs : next - now);
  }

  async function tick(): Promise<void> {
    if (!started || stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass().catch((err) => {
      o.log.error({ err }, 'callback worker pass failed');
      schedule(1000);
    });
    try {
      await running;
    } finally {
      running = null;
    }
    if (again && !stopped) void tick();
  }

  /**
   * Runs a delivery in a slot. When it ends, a claim pass runs only if one can find something:
   * events wait unclaimed (`backlog`), the last pass found no slot free, or the event is due again
   * (a retry, a claim lost to a replay; anything else tracked counts as that). After a delivery of
   * an event handed over at its store, the usual case, there is nothing to claim: a pass each time
   * was half the PostgreSQL soak's claim statements, each finding nothing. Events of other
   * processes are noticed by the timer (`maxIdleMs`) as before.
   */
  function track(p: Promise<unknown>) {
    const done: Promise<void> = p
      .then(
        (settled) => settled === true,
        (err) => {
          o.log.error({ err }, 'callback delivery failed');
          return false;
        },
      )
      .then((settled) => {
        inFlight.delete(done);
        if (settled && !backlog && !slotAwaited) return;
        slotAwaited = false;
        schedule(0);
      });
    inFlight.add(done);
  }

  return {
    start() {
      if (started && !stopped) return;
      started = true;
      stopped = false;
      void tick();
    },
    /** New work may be due: look now (coalesced). */
    wake() {
      schedule(0);
    },
    /** Runs `p` as an in-flight delivery (counted against concurrency, awaited by stop). */
    track,
    /**
     * Takes a delivery slot for an event about to be stored already claimed by this process (so no
     * claim is needed: `handOff` once it is committed, `release` if it is not); false when none is free
     * or older events may be waiting for one (then the event is stored unclaimed, and the worker
     * claims it before any later event takes a slot).
     */
    reserve(): boolean {
      if (!started || stopped || backlog) return false;
      if (inFlight.size + reserved >= limit()) {
        backlog = true; // this event is stored unclaimed: it goes before the next new ones
        return false;
      }
      reserved += 1;
      return true;
    },
    /** The reserved slot's event is committed: delivered now (while stopping, after its claim ends). */
    handOff(event: CallbackEventRow) {
      reserved -= 1;
      if (stopped) return;
      track(o.deliver(event));
    },
    /** The reserved slot's event was not stored. */
    release() {
      reserved -= 1;
      schedule(0);
    },
    /** Stops claiming and waits for in-flight deliveries. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      timerAt = Number.POSITIVE_INFINITY;
      await running;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** When an event fell due: its next attempt's time (a first attempt's is its creation). */
function dueAt(event: CallbackEventRow): number {
  return event.next_attempt_at ?? event.created_at;
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
