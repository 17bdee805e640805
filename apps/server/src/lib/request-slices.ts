import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * Requests served in slices while the event loop has more to do than a turn should hold.
 *
 * Node reads every socket that is ready in one poll phase and runs what each brings before it polls
 * again. Under 1,000 kept-alive connections a poll brings hundreds of requests, a turn runs ~30 ms,
 * and an answer that comes meanwhile (the database's, the network's) waits for the next poll: a
 * PostgreSQL send, which waits for three answers in turn (its stored claim, the network, its
 * settle), took ~4 turns where a read took one (bench/README.md, sessions 38 and 39).
 *
 * Here a poll phase starts new requests for `sliceMs` at most; those that come after wait in line
 * (first come, first served) and are served between polls (setImmediate: the check phase, right
 * after a poll), about `sliceMs` at a time. The loop polls sooner, and work already under way (an
 * answer in by then) goes on before new work does. The line's wait counts as the loop being behind
 * for load shedding (`oldestWaitMs`). A loop with less to do than a slice defers nothing.
 *
 * A trade, so off unless REQUEST_SLICE_MS asks (bench/README.md, session 39): on PostgreSQL under
 * 1,000 connections the sends' p99 fell by a third in every pair, but the reads, which now wait in
 * line rather than in the kernel, took +20–60 % on theirs, and 3–16 % fewer requests were answered
 * (32 sends at a time: −9 to −14 %). On SQLite, where no request waits for a database's answer,
 * only the cost remains (−19 % requests: the line's requests outlive the young generation).
 */

/**
 * Runs `fn` once the task running now has run to its end, its promises included (process.nextTick
 * queued from a microtask runs once the microtasks have), before the loop goes on: for items made
 * together by one callback (the rows of a statement's answer) while the loop's turns are long, they
 * leave while the loop still serves the rest of its turn, and their answer is in for the next turn's
 * poll. Sent at the turn's end, the answer came a few milliseconds after that poll and waited a
 * whole turn more (~30 ms under 1,000 connections; bench/README.md, session 38). In short turns that
 * turn costs little, and the turn's end gathers more.
 */
export function afterThisTask(fn: () => void): true {
  queueMicrotask(() => process.nextTick(fn));
  return true;
}

/** Whether the task running now serves a slice of the line (any app of this process). */
let servingSlice = false;
/** What waits for the slice under way to end (batches its requests made: flushAtSliceEnd). */
let atSliceEnd: Array<() => void> = [];
/** Requests waiting in line in this process (every app's line). */
let inLine = 0;

/**
 * Inside a slice, `flush` runs once the slice's requests have run (a batch of their writes then
 * leaves together and its answer is in for the next poll); returns false, and does nothing, outside
 * one.
 */
export function flushAtSliceEnd(flush: () => void): boolean {
  if (!servingSlice) return false;
  atSliceEnd.push(flush);
  return true;
}

/** Requests waiting in line in this process: the loop has more than a slice to do. */
export function requestsInLine(): number {
  return inLine;
}

/** A request's cost before any slice measured one: a send's, about (a read costs a tenth of it). */
const INITIAL_COST_MS = 0.5;
/** The lowest cost a request is taken to have (a clock that did not move measures 0). */
const MIN_COST_MS = 0.001;
/** Weight of the newest slice in the cost a request (the rest is the history). */
const COST_SMOOTHING = 0.3;

interface Waiting {
  go: HookHandlerDoneFunction;
  since: number;
}

export interface RequestSlices {
  /** The onRequest hook: a request goes on now, or waits in line. */
  onRequest(req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  /** How long the request first in line has waited, in ms (0: nobody waits). */
  oldestWaitMs(): number;
}

/**
 * @param sliceMs how long a poll phase starts new requests, and a slice serves the line (0: off).
 * @param skip routes that never wait (liveness).
 */
export function createRequestSlices({
  sliceMs,
  skip,
}: {
  sliceMs: number;
  skip?: (req: FastifyRequest) => boolean;
}): RequestSlices {
  const line: Array<Waiting | undefined> = [];
  let head = 0;
  /** When the poll phase under way started its first request; -1: none since the last check phase. */
  let pollStartedAt = -1;
  let sliceScheduled = false;
  /** What a request of a slice costs, in ms, smoothed over the slices before (its promises included). */
  let costMs = INITIAL_COST_MS;

  const waiting = () => line.length - head;
  function take(): Waiting {
    const next = line[head]!;
    line[head++] = undefined;
    inLine -= 1;
    if (head === line.length) {
      line.length = 0;
      head = 0;
    } else if (head >= 1024 && head * 2 >= line.length) {
      line.splice(0, head);
      head = 0;
    }
    return next;
  }

  /** At the check phase: marks the poll phase's end, and serves the line. */
  function scheduleSlice() {
    if (sliceScheduled) return;
    sliceScheduled = true;
    setImmediate(serveSlice);
  }

  function serveSlice() {
    sliceScheduled = false;
    pollStartedAt = -1;
    if (waiting() === 0) return;
    const started = performance.now();
    servingSlice = true;
    // Started together, as a poll phase starts its requests: as many as the slices before cost a
    // request (most of a request's work runs in its promises, after this loop), fewer if their
    // synchronous part alone takes the slice. Served one by one, each after the one before had run
    // with its promises, the same soak answered fewer requests and sends no sooner (session 39).
    const planned = Math.min(waiting(), Math.max(1, Math.round(sliceMs / costMs)));
    let served = 0;
    try {
      // At least one: a slice that starts late (the process paused between two readings of the
      // clock) still moves the line, and its cost a request stays a number.
      do {
        served += 1;
        take().go();
      } while (served < planned && performance.now() - started < sliceMs);
    } finally {
      afterThisTask(() => {
        servingSlice = false;
        const msEach = (performance.now() - started) / served;
        costMs = Math.max(MIN_COST_MS, costMs + (msEach - costMs) * COST_SMOOTHING);
        const flushes = atSliceEnd;
        atSliceEnd = [];
        for (const flush of flushes) flush();
      });
      if (waiting() > 0) scheduleSlice(); // after the next poll
    }
  }

  return {
    onRequest(req, _reply, done) {
      if (sliceMs <= 0 || skip?.(req)) return done();
      const now = performance.now();
      if (waiting() === 0) {
        if (pollStartedAt < 0) {
          pollStartedAt = now;
          scheduleSlice(); // the check phase ends the poll phase's budget
        }
        if (now - pollStartedAt < sliceMs) return done();
      }
      line.push({ go: done, since: now });
      inLine += 1;
      scheduleSlice();
    },
    oldestWaitMs: () => (waiting() === 0 ? 0 : performance.now() - line[head]!.since),
  };
}
