interface Waiting<T, R> {
  item: T;
  resolve(r: R): void;
  reject(err: unknown): void;
}

/**
 * Runs one batch and answers each of its items with its result; when the run throws, all with its
 * error, or (`split`) each item run again alone, to get its own result or error.
 */
async function runBatch<T, R>(run: (items: T[]) => Promise<R[]>, batch: Array<Waiting<T, R>>, split = false) {
  try {
    const results = await run(batch.map((b) => b.item));
    batch.forEach((b, i) => {
      b.resolve(results[i] as R);
    });
  } catch (err) {
    if (split && batch.length > 1) for (const b of batch) void runBatch(run, [b]);
    else for (const b of batch) b.reject(err);
  }
}

/**
 * Groups work that arrives while earlier work is on its way: the first item runs at once, and the
 * items added while a run is under way go together in the next run (at most `maxBatch` per run).
 * Used where each run is one database transaction, so a burst costs one commit instead of one per
 * item, and a lone item waits for nothing. A run that throws rejects the promises of all its items.
 */
export function createBatcher<T, R>(run: (items: T[]) => Promise<R[]>, maxBatch = 100) {
  let queue: Array<Waiting<T, R>> = [];
  let running = false;

  async function drain() {
    running = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      await runBatch(run, batch);
    }
    running = false;
  }

  return {
    add(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}

/**
 * Groups work that arrives within one turn of the event loop: the items added during a turn run
 * together at its end (setImmediate), or as soon as `maxBatch` wait. Unlike createBatcher, runs are
 * not serialised: a batch starts while earlier ones are on their way, so an item waits for no round
 * trip of others, only for the rest of its turn. Used on PostgreSQL, where a statement of many rows
 * costs about what one of one row costs (a round trip, a commit, a wake-up of the backend), and
 * under load one turn brings hundreds of requests.
 *
 * `sendEarly`, asked as a batch opens, may take the batch's flush and send it sooner than the turn's
 * end (it returns true when it did): `afterThisTask` or `flushAtSliceEnd` (lib/request-slices.ts).
 */
export function createTurnBatcher<T, R>(
  run: (items: T[]) => Promise<R[]>,
  maxBatch = 100,
  sendEarly?: (flush: () => void) => boolean,
) {
  let waiting: Array<Waiting<T, R>> = [];
  let scheduled = false;

  /** Batches flushed so far: an item added now goes in batch number `flushed`. */
  let flushed = 0;
  // A batch that fails is run again one item at a time, so an item that cannot be written fails
  // alone, with its own error, as it would have without the batch; `run` must change nothing when it
  // throws (one statement), or be safe to repeat for an item.
  function flush() {
    const batch = waiting;
    waiting = [];
    flushed += 1;
    if (batch.length > 0) void runBatch(run, batch, true);
  }

  return {
    /**
     * The batch an item added now goes in. While it stays the same, items added go in one statement
     * with those added before: their batch has not left yet.
     */
    batchNow: () => flushed,
    add(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (waiting.length >= maxBatch) flush();
        else if (!scheduled) {
          scheduled = true;
          const scheduledFlush = () => {
            scheduled = false;
            flush();
          };
          if (!sendEarly?.(scheduledFlush)) setImmediate(scheduledFlush);
        }
      });
    },
  };
}
