import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { AttemptOutcome } from './repo.js';
import {
  type CallbackPost,
  type CallbackTransport,
  createInlineTransport,
  POST_CEILING_TIMEOUTS,
  type TransportOptions,
} from './transport.js';

/**
 * The thread's program: in the bundle, its own file beside main.js (build.mjs). From source (tests,
 * `npm run dev`) it is bundled the same way on first use, once per process, in memory, and handed
 * to the thread as a `data:` URL (no file to leave behind): a worker thread cannot load TypeScript
 * on every supported Node.js (a loader passed to a worker works on Node 22+ only), and this runs
 * what production runs.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
let programFromSource: URL | undefined;
function threadProgram(): URL {
  if (!FROM_SOURCE) return new URL('./callback-thread.js', import.meta.url);
  if (programFromSource) return programFromSource;
  // esbuild is a dev dependency, there wherever the sources run; `load`, not `require`, so the
  // production bundle does not try to bundle it.
  const load = createRequire(import.meta.url);
  const { buildSync } = load('esbuild') as typeof import('esbuild');
  const entry = fileURLToPath(new URL('./thread-main.ts', import.meta.url));
  const { outputFiles } = buildSync({
    entryPoints: [entry],
    write: false,
    bundle: true, // npm packages too: a data: URL has no node_modules beside it
    platform: 'node',
    format: 'esm',
    // The bundled CommonJS packages' require() of Node's own modules; a data: URL cannot anchor it.
    banner: {
      js: `import { createRequire as __cr } from 'node:module'; const require = __cr(${JSON.stringify(entry)});`,
    },
    logLevel: 'warning',
  });
  const code = Buffer.from(outputFiles[0]!.contents).toString('base64');
  programFromSource = new URL(`data:text/javascript;base64,${code}`);
  return programFromSource;
}

/**
 * A post the thread has not answered this long after its own timeout: the thread is stuck. Long
 * enough for a name lookup that hangs through the resolver's retries (an attempt's timer does not cut
 * a lookup short), short enough to end a stuck thread before its posts'
 * claims run out (60 s) and another delivery takes them.
 */
const STUCK_AFTER_MS = 30_000;
/**
 * A thread that has not said it is ready this long after it was started is ended (its posts fail
 * and are retried). Its posts' clocks start once it is ready: starting a thread (loading its
 * program) on a busy machine is not a post going unanswered.
 */
const STARTUP_MS = 10_000;

export interface ThreadTransportOptions extends Omit<TransportOptions, 'resolve'> {
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** The thread's program (tests point it elsewhere). */
  program?: URL | undefined;
  /**
   * How long past a post's ceiling (its timeout × POST_CEILING_TIMEOUTS) the thread may stay silent
   * before it is ended (default 30 s).
   */
  stuckAfterMs?: number | undefined;
  /** How long a thread may take to say it is ready before it is ended (default 10 s). */
  startupMs?: number | undefined;
}

/**
 * Callback posts on a worker thread of their own (transport.ts says why). The thread starts with the
 * first post, is ref'd only while posts are under way (an idle one keeps no process alive) and is
 * started again after it ends. Its ending answers what it had under way as failed attempts (retried
 * on the usual schedule: delivery is at least once); a thread that does not answer a post well
 * after the post's own timeout is ended. A thread that cannot start at all (its program missing from
 * a deployment, say) is not tried again: posts go inline from then on, and the log says so.
 * A resolver cannot be handed to a thread: the thread resolves with the system's, cached by TTL.
 */
export function createThreadTransport(o: ThreadTransportOptions): CallbackTransport {
  const { log } = o;
  const options: TransportOptions = { allowPrivate: o.allowPrivate, timeoutMs: o.timeoutMs };
  /** Worked out when the first thread starts (from source, that is when it is bundled). */
  let program: URL | undefined = o.program;
  const stuckAfterMs = o.stuckAfterMs ?? STUCK_AFTER_MS;
  const startupMs = o.startupMs ?? STARTUP_MS;
  let thread: Worker | null = null;
  /** When each thread still starting was started; gone once it is ready. */
  const starting = new Map<Worker, number>();
  /** The thread has said it is ready: its ending is a failure, not a bad start. */
  let started = false;
  let inline: CallbackTransport | null = null;
  /** Posts not answered yet, each with the thread it went to (none while still to be sent). */
  const pending = new Map<
    number,
    { post: CallbackPost; since: number; thread: Worker | null; answer(o: AttemptOutcome): void }
  >();
  let toSend: Array<[number, CallbackPost]> = [];
  let nextId = 0;
  let watchdog: NodeJS.Timeout | null = null;
  /** close() waiting for the posts under way. */
  const whenIdle: Array<() => void> = [];

  const failed = (error: string): AttemptOutcome => ({
    statusCode: null,
    error,
    durationMs: 0,
    at: Date.now(),
  });

  /** The posts that went to `t`. */
  const sentTo = (t: Worker) => [...pending].filter(([, p]) => p.thread === t);

  function postInline(id: number, post: CallbackPost) {
    void inline!.post(post).then((outcome) => answer(id, outcome));
  }

  function answer(id: number, outcome: AttemptOutcome) {
    const p = pending.get(id);
    if (!p) return; // already answered (the thread was ended meanwhile)
    pending.delete(id);
    p.answer(outcome);
    if (pending.size === 0) {
      thread?.unref();
      if (watchdog) clearInterval(watchdog);
      watchdog = null;
      for (const resolve of whenIdle.splice(0)) resolve();
    }
  }

  /** No thread can be had: posts go inline from now on. */
  function goInline(details: Record<string, unknown>) {
    log.error(
      { ...details, program: program?.href },
      'callback thread could not start: callbacks are posted inline',
    );
    inline = createInlineTransport(options);
  }

  function spawn(): Worker | null {
    let t: Worker;
    try {
      program ??= threadProgram();
      t = new Worker(program, { workerData: options, name: 'callbacks' });
    } catch (err) {
      goInline({ err });
      return null;
    }
    starting.set(t, Date.now());
    t.on('message', (outcomes: Array<[number, AttemptOutcome]>) => {
      // Its first message, empty, says it is ready: what it was given is with it from now.
      started = true;
      if (starting.delete(t)) for (const [, p] of sentTo(t)) p.since = Date.now();
      for (const [id, outcome] of outcomes) answer(id, outcome);
    });
    t.on('error', (err) => log.error({ err }, 'callback thread failed'));
    t.on('exit', (code) => {
      starting.delete(t);
      if (thread === t) thread = null;
      if (!started) {
        // It never ran: deliver inline from now on, starting with what it was given.
        goInline({ code });
        for (const [id, p] of sentTo(t)) postInline(id, p.post);
        return;
      }
      for (const [id] of sentTo(t)) answer(id, failed('回调投递线程意外结束，将按计划重试'));
    });
    return t;
  }

  function send() {
    const batch = toSend;
    toSend = [];
    if (!inline && !thread) thread = spawn();
    const t = thread;
    if (inline || !t) {
      for (const [id, post] of batch) postInline(id, post);
      return;
    }
    for (const [id] of batch) {
      const p = pending.get(id);
      if (p) p.thread = t;
    }
    t.ref();
    t.postMessage(batch);
  }

  function watch() {
    watchdog = setInterval(
      () => {
        const now = Date.now();
        const overdue = now - o.timeoutMs * POST_CEILING_TIMEOUTS - stuckAfterMs;
        for (const p of pending.values()) {
          const stuck = p.thread;
          if (!stuck) continue;
          const startedAt = starting.get(stuck);
          if (startedAt === undefined ? p.since >= overdue : startedAt >= now - startupMs) continue;
          log.error(
            { pending: pending.size },
            startedAt === undefined
              ? 'callback thread stopped answering: ending it'
              : 'callback thread did not start in time: ending it',
          );
          if (thread === stuck) thread = null;
          for (const [id] of sentTo(stuck)) answer(id, failed('回调投递线程无响应，将按计划重试'));
          void stuck.terminate();
          return;
        }
      },
      Math.min(1_000, stuckAfterMs, startupMs),
    );
    watchdog.unref();
  }

  return {
    post(post) {
      if (inline) return inline.post(post);
      return new Promise((resolve) => {
        const id = ++nextId;
        pending.set(id, { post, since: Date.now(), thread: null, answer: resolve });
        if (!watchdog) watch();
        // The posts of this turn go as one message.
        if (toSend.push([id, post]) === 1) queueMicrotask(send);
      });
    },
    async close() {
      if (pending.size > 0) await new Promise<void>((resolve) => whenIdle.push(resolve));
      if (watchdog) clearInterval(watchdog);
      watchdog = null;
      const t = thread;
      thread = null;
      await t?.terminate();
      await inline?.close();
    },
  };
}
