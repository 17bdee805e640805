import type { CallbackEnvelope, CallbackEventType } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, PostgresAdapter } from 'kysely';
import type { Writes } from '../../db/group-commit.js';
import type { ShapedStatement } from '../../db/prepared.js';
import type { ApiAccountRow, CallbackEventRow, DB } from '../../db/schema.js';
import { createBatcher } from '../../lib/batcher.js';
import { newId, newTimeOrderedId } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { ApiCaller } from '../../lib/http.js';
import type { LoopLag } from '../../lib/loop-lag.js';
import { assertCallbackUrlAllowed, type Resolver } from '../../lib/url-guard.js';
import type { SubAccountDirectory } from '../api-accounts/service.js';
import type { EventBus } from '../events/bus.js';
import * as repo from './repo.js';
import { createThreadTransport } from './thread-transport.js';
import { createInlineTransport, POST_CEILING_TIMEOUTS } from './transport.js';
import type { AddressedEvent, CallbackEventInput, CallbackSink, StoredEvent } from './types.js';
import { createDeliveryWorker } from './worker.js';

/**
 * Waits after failed attempts 1..7; the 8th failure in a row marks the event failed. About an hour
 * from the first attempt to the last (the contract promises "最多 8 次，约 1 小时").
 */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 60_000, 120_000, 300_000, 900_000, 2_400_000];
export const CALLBACK_TIMEOUT_MS = 5_000;
/**
 * Deliveries in flight per process, all receivers together, while the worker keeps up. Each send
 * makes two events, and a delivery waits on this process's own busy event loop as much as on the
 * receiver. Measured (bench/README.md, session 10): in the send benchmark 32 falls behind the sends (drained 6 s after
 * a 15 s run), 128 keeps up (under 1 s, ~25 % fewer sends); but in the 1,000-connection soak 64
 * and 128 made the event loop lag past the shedding threshold (5 % and 40 % of requests answered
 * 503, against 0–1 % at 32). An adaptive number (growing by one per delivery while the event
 * loop lagged under 100 ms, up to 128, halving when it did not) drained the send benchmark in
 * 0.9 s but still shed 2–4× more of the soak than 32. Customers' requests come first: 32.
 * With the posts on a thread of their own (session 19) 128 no longer cost the soak, but the send
 * benchmark's sends fell 25 % for a drain that 32 already brings under a second: still 32.
 */
export const DELIVERY_CONCURRENCY = 32;
/**
 * Deliveries in flight while the event loop idles (its smoothed lag under IDLE_LAG_MS): no request
 * is waiting, so a backlog the callbacks built up under load drains at the receivers' pace, about
 * twice as fast (bench/README.md, session 11). Under any load the loop lags more than this (20–40
 * ms in the send benchmark, 0.5–2 s in the soak) and the limit above holds.
 */
export const IDLE_DELIVERY_CONCURRENCY = 128;
export const IDLE_LAG_MS = 10;
/**
 * Deliveries in flight while the worker is behind: the oldest event of its last claim waited
 * CATCH_UP_AFTER_MS or more past its due time. Under a saturated loop (the 1,000-connection soak)
 * a delivery's round trip waits on the busy event loop (on PostgreSQL, for a pooled connection too)
 * as long as a request does, 50-150 ms, so the slots needed are the event rate times that (Little's
 * law): 32 carried ~700 a second against the ~4,000 the sends made, 15-34 % of the callbacks arrived
 * during the run, 31 s late at the median in a 60 s run and later the longer the load lasted (an
 * incoming message reaches the customer only by callback). 512 kept up on SQLite but not on PostgreSQL (75 %, delays growing);
 * 1,024 kept up on both (bench/README.md, session 25). Slots are cheap: a receiver still sees at most
 * RECEIVER_CONNECTIONS requests at once (transport.ts); the rest wait on this process. Catching up
 * takes requests some of their share, by design: an outbox that falls behind without bound is a
 * failure that only shows later.
 */
export const CATCH_UP_DELIVERY_CONCURRENCY = 1024;
/** Behind by this much, the worker catches up (1 s let callbacks fall 2-4 s behind in the soak). */
export const CATCH_UP_AFTER_MS = 250;

/** Deliveries in flight allowed now, by how busy the event loop is and how far behind the worker is. */
export function deliveryLimitNow(lagMs: number, behindMs: number): number {
  if (behindMs >= CATCH_UP_AFTER_MS) return CATCH_UP_DELIVERY_CONCURRENCY;
  return lagMs < IDLE_LAG_MS ? IDLE_DELIVERY_CONCURRENCY : DELIVERY_CONCURRENCY;
}

/** Deliveries in flight allowed now: fixed when configured, else `deliveryLimitNow`. */
function deliveryLimit({
  concurrency,
  loopLag,
}: Pick<CallbackServiceDeps, 'concurrency' | 'loopLag'>): (behindMs: number) => number {
  if (concurrency !== undefined) return () => concurrency;
  return (behindMs) => deliveryLimitNow(loopLag ? loopLag.ms() : IDLE_LAG_MS, behindMs);
}

export interface CallbackServiceDeps {
  db: Kysely<DB>;
  /** Where events and attempts are written (grouped commits on SQLite). */
  writes: Writes;
  /** Sub-accounts: whose secret signs, where events go (their URL, else the company default). */
  subAccounts: Pick<SubAccountDirectory, 'subAccount' | 'getCompanyConfig' | 'setCallbackUrl'>;
  log: FastifyBaseLogger;
  bus: EventBus;
  /** Operator config: callback URLs may reach private / loopback addresses. */
  allowPrivate: boolean;
  retryDelaysMs?: number[] | undefined;
  /** Name resolution for both the URL check and the connection (default: the system's; tests fake it). */
  resolve?: Resolver | undefined;
  /** Per attempt (default 5 s). */
  timeoutMs?: number | undefined;
  /** Deliveries in flight per process, fixed (default: by the load and the backlog, `deliveryLimitNow`). */
  concurrency?: number | undefined;
  /** This process's event loop lag: while it idles, more deliveries are in flight. */
  loopLag?: LoopLag | undefined;
  /** Longest idle sleep of the worker (default 2 s): bounds how late another process's event is seen. */
  maxIdleMs?: number | undefined;
  /**
   * Posts callbacks from a worker thread of their own (thread-transport.ts; the server's default,
   * CALLBACK_THREAD), else on this thread. Not with `resolve`: the thread uses the system's resolver.
   */
  thread?: boolean | undefined;
}

type Outcome = repo.AttemptOutcome;
const isOk = (o: Outcome) => o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;

export interface Delivery {
  eventId: string;
  type: CallbackEventType;
  account: string;
  subAccountId: string;
  url: string;
  status: CallbackEventRow['status'];
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

export function toDelivery(row: CallbackEventRow): Delivery {
  return {
    eventId: row.id,
    type: row.type as CallbackEventType,
    account: row.wxid,
    subAccountId: row.api_account_id,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

export function createCallbackService(deps: CallbackServiceDeps) {
  const { db, writes, log, bus, allowPrivate, subAccounts } = deps;
  const delays = deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxAttempts = delays.length + 1;
  const timeoutMs = deps.timeoutMs ?? CALLBACK_TIMEOUT_MS;
  const { resolve } = deps;
  // Deliveries and the other posts (duplicates, the URL test) go through it; tests that fake the
  // resolver post inline (a function cannot be handed to a thread).
  const transport =
    deps.thread && !resolve
      ? createThreadTransport({ allowPrivate, timeoutMs, log })
      : createInlineTransport({ allowPrivate, timeoutMs, resolve });
  const post = (url: string, eventId: string, payload: string, secretHash: string) =>
    transport.post({ url, eventId, payload, secretHash });

  const publish = (row: { company_id: string; id: string }, status: CallbackEventRow['status']) =>
    bus.publish({ kind: 'callback', companyId: row.company_id, eventId: row.id, status });

  type Settled = CallbackEventRow['status'] | null;
  interface Attempted {
    event: CallbackEventRow;
    accountKnown: boolean;
    outcome: Outcome;
  }

  /** Writes one attempt's outcome: delivered, retry later, or failed; null when the claim was lost. */
  async function settleAttempt(
    trx: Kysely<DB>,
    { event, accountKnown, outcome }: Attempted,
  ): Promise<Settled> {
    const token = event.locked_until;
    const now = Date.now();
    if (isOk(outcome)) {
      // The common case in one update: counted, logged and settled.
      if ((await repo.recordDelivered(trx, event.id, token, outcome, now)) !== null) return 'delivered';
      await repo.recordAttempt(trx, event.id, outcome);
      return null;
    }
    await repo.recordAttempt(trx, event.id, outcome);
    // Failures in a row; modulo the budget, so a replay of a failed event gets a fresh schedule.
    const step = (await repo.trailingFailures(trx, event.id)) % maxAttempts;
    const giveUp = step === 0 || !accountKnown;
    const won = await repo.settle(trx, event.id, token, {
      status: giveUp ? 'failed' : 'pending',
      next_attempt_at: giveUp ? null : now + (delays[step - 1] ?? 0),
    });
    return won ? (giveUp ? 'failed' : 'pending') : null;
  }

  /**
   * Attempts that end while others are being written are settled together, in one transaction: one
   * commit for a burst rather than one per event (on SQLite the transaction also shares its commit
   * with the other writes of the same turn: db/group-commit.ts). The events are claimed by this
   * process, so no other writer touches them.
   */
  const deliveredInOneStatement = db.getExecutor().adapter instanceof PostgresAdapter;
  /** Settles attempts in one transaction, one by one (on SQLite, within the turn's commit). */
  const settleInTransaction = (attempts: Attempted[]) =>
    writes.transact(async (trx) => {
      const settled: Settled[] = [];
      for (const a of attempts) settled.push(await settleAttempt(trx, a));
      return settled;
    });
  const settler = createBatcher(async (attempts: Attempted[]): Promise<Settled[]> => {
    if (!deliveredInOneStatement) return settleInTransaction(attempts);
    // PostgreSQL: the delivered attempts of a burst in one statement (repo.recordDeliveredMany),
    // atomic alone, so no transaction (BEGIN and COMMIT would be two more round trips): one round
    // trip and one connection for the burst, however large (one by one, a drain went at the pace
    // of a round trip per event). The rest (failures, claims lost meanwhile) as before, together.
    const delivered = attempts.filter((a) => isOk(a.outcome));
    const won = delivered.length
      ? await repo.recordDeliveredMany(
          db,
          delivered.map((a) => ({ eventId: a.event.id, token: a.event.locked_until, outcome: a.outcome })),
          Date.now(),
        )
      : new Map<string, number>();
    const rest = attempts.filter((a) => !won.has(a.event.id));
    const settledRest = rest.length ? await settleInTransaction(rest) : [];
    let next = 0;
    return attempts.map((a) => (won.has(a.event.id) ? 'delivered' : settledRest[next++]!));
  });

  /** Attempts a claimed event once and settles it; true when it is settled for good. */
  async function deliverClaimed(event: CallbackEventRow): Promise<boolean> {
    const account = await subAccounts.subAccount(event.company_id, event.api_account_id);
    const outcome = account
      ? await post(event.url, event.id, event.payload, account.secret_hash)
      : { statusCode: null, error: '子账号不存在', durationMs: 0, at: Date.now() };
    const status = await settler.add({ event, accountKnown: Boolean(account), outcome });
    if (status) publish(event, status);
    if (status === 'failed') log.warn({ eventId: event.id, error: outcome.error }, 'callback given up');
    return status === 'delivered' || status === 'failed';
  }

  // Longer than a post can take, waiting in line for a connection included (transport.ts).
  const lockMs = Math.max(60_000, timeoutMs * POST_CEILING_TIMEOUTS * 2);
  const worker = createDeliveryWorker({
    claimDue: (now, limit, lockUntil) => repo.claimDue(db, now, limit, lockUntil),
    nextDueAt: (now) => repo.nextDueAt(db, now),
    log,
    deliver: deliverClaimed,
    limit: deliveryLimit(deps),
    lockMs,
    maxIdleMs: deps.maxIdleMs ?? 2_000,
  });

  /** The sub-account's own URL, else the company default; null when neither is set. */
  async function urlFor(companyId: string, account: ApiAccountRow): Promise<string | null> {
    if (account.callback_url) return account.callback_url;
    return (await subAccounts.getCompanyConfig(companyId)).defaultCallbackUrl;
  }

  /** The sub-account a call acts on: the caller's own, or (console) the one named, of the company. */
  async function target(caller: ApiCaller, subAccountId: string | undefined): Promise<ApiAccountRow> {
    let id: string;
    if (caller.subAccountId) {
      if (subAccountId && subAccountId !== caller.subAccountId)
        throw new AppError('NOT_FOUND', '子账号不存在');
      id = caller.subAccountId;
    } else {
      if (!subAccountId) throw new AppError('BAD_REQUEST', '请提供子账号编号 subAccountId');
      id = subAccountId;
    }
    const row = await subAccounts.subAccount(caller.companyId, id);
    if (!row) throw new AppError('NOT_FOUND', '子账号不存在');
    if (row.status !== 'active') throw new AppError('CONFLICT', '该子账号已回收');
    return row;
  }

  const scopeOf = (caller: ApiCaller): repo.Scope => ({
    companyId: caller.companyId,
    subAccountId: caller.subAccountId,
  });

  async function own(caller: ApiCaller, eventId: string): Promise<CallbackEventRow> {
    const row = await repo.findScoped(db, scopeOf(caller), eventId);
    if (!row) throw new AppError('NOT_FOUND', '事件不存在');
    return row;
  }

  function envelope(
    eventId: string,
    type: CallbackEventType,
    wxid: string,
    subAccountId: string,
    data: Record<string, unknown>,
    now: number,
  ): string {
    const body: CallbackEnvelope = {
      eventId,
      type,
      account: wxid,
      subAccountId,
      timestamp: Math.floor(now / 1000),
      data,
    };
    return JSON.stringify(body);
  }

  /** An event's row; with a free delivery slot, already claimed by this process (`direct`). */
  function newEventRow(input: CallbackEventInput, url: string): { row: CallbackEventRow; direct: boolean } {
    const id = newTimeOrderedId();
    const now = Date.now();
    const direct = worker.reserve();
    const row: CallbackEventRow = {
      id,
      company_id: input.companyId,
      api_account_id: input.subAccountId,
      wxid: input.wxid,
      type: input.type,
      payload: envelope(id, input.type, input.wxid, input.subAccountId, input.data, now),
      url,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: direct ? now + lockMs : 0,
      last_status_code: null,
      last_error: null,
      created_at: now,
      delivered_at: null,
    };
    return { row, direct };
  }

  /** After an event's write ended: committed, it is delivered (now, or by the worker); else its slot is freed. */
  function eventEnded(row: CallbackEventRow, direct: boolean, committed: boolean) {
    if (!direct) {
      if (committed) worker.wake();
    } else if (committed) worker.handOff(row);
    else worker.release();
  }

  /**
   * Stores an event. With a free delivery slot it is stored already claimed by this process and
   * delivered as soon as it is committed (no claim statement, no wait for the worker's next look);
   * else the worker claims it.
   */
  async function store(input: CallbackEventInput, url: string, within?: Kysely<DB>): Promise<StoredEvent> {
    const { row, direct } = newEventRow(input, url);
    try {
      if (within) await repo.insertEvent(within, row);
      else await writes.write((w) => repo.insertEvent(w, row));
    } catch (err) {
      if (direct) worker.release();
      throw err;
    }
    publish(row, 'pending');
    let ended = false;
    const end = (committed: boolean) => {
      if (ended) return;
      ended = true;
      eventEnded(row, direct, committed);
    };
    if (!within) end(true); // else once the caller's transaction ended
    return { id: row.id, ended: end };
  }

  /** PostgreSQL: `change` and the events about its rows in one statement (CallbackSink.storeAbout). */
  async function storeAbout(
    change: ShapedStatement<{ id: string }>,
    events: ReadonlyArray<{ about: string; event: AddressedEvent }>,
  ): Promise<Set<string>> {
    const rows = events.map(({ about, event }) => ({ about, ...newEventRow(event, event.url) }));
    let changed: Set<string>;
    try {
      changed = await repo.insertEventsAbout(db, change, rows);
    } catch (err) {
      for (const { direct } of rows) if (direct) worker.release();
      throw err;
    }
    for (const { about, row, direct } of rows) {
      const stored = changed.has(about);
      if (stored) publish(row, 'pending');
      eventEnded(row, direct, stored);
    }
    return changed;
  }

  const testData = () => ({ message: '这是一条测试事件，收到即表示回调配置正确' });

  async function address(input: CallbackEventInput) {
    const account = await subAccounts.subAccount(input.companyId, input.subAccountId);
    if (!account) {
      log.warn({ subAccountId: input.subAccountId }, 'callback for an unknown sub-account dropped');
      return null;
    }
    const url = await urlFor(input.companyId, account);
    return url ? { ...input, url } : null;
  }

  const sink: CallbackSink = {
    async emit(input) {
      const addressed = await address(input);
      return addressed ? (await store(addressed, addressed.url)).id : null;
    },
    address,
    store: (event, within) => store(event, event.url, within),
    storeAbout,
  };

  return {
    ...sink,

    /** Starts delivering (picks up pending events left by earlier runs). */
    start: () => worker.start(),
    /** Stops claiming; waits for deliveries in flight, then frees the transport (its thread). */
    async stop() {
      await worker.stop();
      await transport.close();
    },

    async list(
      caller: ApiCaller,
      input: {
        page: number;
        pageSize: number;
        status?: CallbackEventRow['status'] | undefined;
        wxid?: string | undefined;
        subAccountId?: string | undefined;
      },
    ) {
      const { rows, total } = await repo.list(db, scopeOf(caller), input, input.page, input.pageSize);
      return { list: rows.map(toDelivery), total, page: input.page, pageSize: input.pageSize };
    },

    async attempts(caller: ApiCaller, eventId: string) {
      const row = await own(caller, eventId);
      const attempts = await repo.attemptsOf(db, row.id);
      return {
        event: toDelivery(row),
        payload: row.payload,
        attempts: attempts.map((a) => ({
          attempt: a.attempt,
          statusCode: a.status_code,
          error: a.error,
          durationMs: a.duration_ms,
          at: a.created_at,
        })),
      };
    },

    /** Delivers the same eventId and payload again, to the sub-account's current URL. */
    async replay(caller: ApiCaller, eventId: string) {
      const row = await own(caller, eventId);
      const account = await subAccounts.subAccount(row.company_id, row.api_account_id);
      const url = account ? await urlFor(row.company_id, account) : null;
      if (!url)
        throw new AppError('BAD_REQUEST', '该子账号未设置回调地址（公司也没有默认回调地址），无法重新投递');
      await repo.requeue(db, row.id, url, Date.now());
      publish(row, 'pending');
      worker.wake();
      return toDelivery((await repo.findEvent(db, row.id))!);
    },

    /** Queues a `test` event to the sub-account's current URL. */
    async sendTest(caller: ApiCaller, subAccountId: string | undefined) {
      const account = await target(caller, subAccountId);
      const url = await urlFor(caller.companyId, account);
      if (!url) throw new AppError('BAD_REQUEST', '该子账号未设置回调地址（公司也没有默认回调地址）');
      const { id } = await store(
        { companyId: caller.companyId, subAccountId: account.id, wxid: '', type: 'test', data: testData() },
        url,
      );
      return toDelivery((await repo.findEvent(db, id))!);
    },

    /**
     * One more delivery of an event, same eventId and payload, right away (for customers testing
     * their dedupe). Logged as an attempt; the event's status and schedule are left alone.
     */
    async duplicate(caller: ApiCaller, eventId: string) {
      const row = await own(caller, eventId);
      const account = await subAccounts.subAccount(row.company_id, row.api_account_id);
      if (!account) throw new AppError('NOT_FOUND', '子账号不存在');
      worker.track(
        (async () => {
          const outcome = await post(row.url, row.id, row.payload, account.secret_hash);
          await repo.recordAttempt(db, row.id, outcome);
          const latest = await repo.findEvent(db, row.id);
          if (latest) publish(latest, latest.status);
        })(),
      );
      return { ok: true as const };
    },

    /**
     * Sets a sub-account's callback URL: SSRF rules, then a signed `test` delivery that must answer
     * 2xx within the timeout; only then is it saved (and pending events follow it).
     */
    async resetCallbackUrl(caller: ApiCaller, subAccountId: string | undefined, callbackUrl: string) {
      const account = await target(caller, subAccountId);
      await assertCallbackUrlAllowed(callbackUrl, { allowPrivate, resolve });
      const eventId = newId();
      const payload = envelope(eventId, 'test', '', account.id, testData(), Date.now());
      const outcome = await post(callbackUrl, eventId, payload, account.secret_hash);
      if (!isOk(outcome) || outcome.statusCode === null) {
        const why = outcome.statusCode !== null ? `返回 HTTP ${outcome.statusCode}` : outcome.error;
        throw new AppError(
          'BAD_REQUEST',
          `回调地址测试失败：${why}。地址未保存，请确认它能在 ${timeoutMs / 1000} 秒内对 POST 请求返回 2xx`,
        );
      }
      await subAccounts.setCallbackUrl(account.company_id, account.id, callbackUrl);
      await repo.repointPending(db, account.id, callbackUrl);
      return {
        callbackUrl,
        test: { statusCode: outcome.statusCode, durationMs: Math.round(outcome.durationMs) },
      };
    },
  };
}

export type CallbackService = ReturnType<typeof createCallbackService>;
