import { randomUUID } from 'node:crypto';
import { createTurnBatcher } from '../../lib/batcher.js';
import { AppError } from '../../lib/errors.js';
import type { ApiCaller } from '../../lib/http.js';
import type { LoopLag } from '../../lib/loop-lag.js';
import { afterThisTask, requestsInLine } from '../../lib/request-slices.js';
import type { GatewayContext } from './context.js';
import { type OutgoingInput, toRaw, type WxAccountViewRow } from './mappers.js';
import type { IncomingMessage } from './provider.js';
import * as repo from './repo.js';

/**
 * A claim's lease: a message claimed this long ago and never settled (its process died mid-send) is
 * taken back. The provider's send is cut off well before, so a live holder never loses its claim.
 */
const SEND_LEASE_MS = 5 * 60_000;
/** A provider's send is failed after this long unless configured otherwise (SEND_TIMEOUT_MS). */
const SEND_TIMEOUT_MS = 60_000;
/** A paced send slot is held this much past the send's timeout, then free again (a crashed holder). */
const SLOT_MARGIN_MS = 5_000;
/**
 * A message stored already claimed is sent on its lease when that outlasts a whole send by this
 * much; else the lease is renewed first (it waited long behind sends that hung until their timeout).
 */
const LEASE_MARGIN_MS = 30_000;
/** A send call waits at most this long for its message's outcome, then answers `queued`. */
const SEND_ANSWER_WAIT_MS = 1_000;
/** Why a message of an account that went offline is not sent (logins.ts says the same at logout). */
export const OFFLINE_SEND_ERROR = '账号已下线，消息未发送';

/**
 * Messages stored claimed by their send calls are sent in order and settled together, this many at
 * most (one statement and one commit for them all), or those sent within SETTLE_WITHIN_MS.
 */
const SETTLE_BATCH = 32;
const SETTLE_WITHIN_MS = 20;
/**
 * From this loop lag on, turns are long (the 1,000-connection soak reads 10–26 ms, 32 sends at a time
 * 0.5–4): PostgreSQL settles are sent as the claimed inserts' answer that made them is served
 * (`afterThisTask`), not at the turn's end. So are they while requests wait in line for a slice
 * (lib/request-slices.ts), whose turns are short but the check phase serves the line first.
 */
const LONG_TURNS_LAG_MS = 5;

type QueuedMessage = NonNullable<Awaited<ReturnType<typeof repo.claimOldestQueued>>>;
/** A send's outcome, to settle under its claim (repo.Settlement, with the message itself). */
type SendOutcome = Omit<repo.Settlement, 'id'> & { message: QueuedMessage };

export interface SendQueueDeps {
  /** Pacing: at least this long between two sends of one account (0: no pacing). */
  sendIntervalMs: number;
  /** A provider's send is failed after this long (default SEND_TIMEOUT_MS; at most 2 min, inside the lease). */
  sendTimeoutMs?: number | undefined;
  /** A claim's lease (default SEND_LEASE_MS; tests shorten it). */
  leaseMs?: number | undefined;
  /** How far behind the event loop runs (lib/loop-lag.ts): long turns send settles sooner. */
  loopLag?: Pick<LoopLag, 'ms'> | undefined;
}

/**
 * The paced send queue, the gateway's only state in memory: a timer per account whose queue waits
 * for its next send slot (and a sweep, run by the gateway, for other processes' queues).
 *
 * Protocol, across processes, every step one conditional update (repo.ts, "the send queue"):
 * - a send stores the message `queued` and drains the account's queue at once (one drain per
 *   account in a process: `kick`; the send call waits for its own message's outcome); unpaced, it
 *   stores the message already claimed instead (`sending`, its token and lease, unless older ones
 *   wait: repo.insertClaimedUnlessQueuedWith, which also checks the account is still online under
 *   the login it was read with, and the package in force) and the account's drain here sends it in
 *   turn, renewing the lease first if the wait brought it near its end (`stillClaimed`);
 * - draining claims, when paced, the account's send slot (`wx_accounts.next_send_at`), then the
 *   oldest queued message (`queued -> sending`, one statement: `repo.claimOldestQueued`);
 * - the provider's outcome settles it (`sending -> sent | failed`) in one transaction with its
 *   callback event: `settleAndAnnounce` below;
 * - a claim carries a token and a lease (SEND_LEASE_MS): only the token's holder settles the
 *   message, and only an expired lease is taken back (`reclaimExpired`: to the queue while the
 *   account is online, else failed). How long a message waited before its claim does not matter.
 * - `failQueued` (an account gone offline) and the sweep's `failStranded` fail what an offline
 *   account still has queued, with the reason and a callback: nothing is sent late, days later,
 *   when the account logs in again.
 */
export function createSendQueue(
  ctx: GatewayContext,
  { sendIntervalMs, sendTimeoutMs = SEND_TIMEOUT_MS, leaseMs = SEND_LEASE_MS, loopLag }: SendQueueDeps,
) {
  const { db, log, bus, provider, ref } = ctx;
  /** The account's next drain here, and when it fires. */
  const timers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  let stopped = false;

  /**
   * This process's drain of each account: one at a time (concurrent sends of one account would only
   * race each other for the same oldest message); kicked while it runs, it looks again when done.
   * `claimed`: messages stored already claimed by their send call (unpaced), sent before it looks.
   */
  const runs = new Map<
    string,
    { again: boolean; claimed: { message: QueuedMessage; token: string }[]; done: Promise<void> }
  >();
  /** Send calls waiting for the outcome of their own message, by message id. */
  const waiters = new Map<string, (status: 'sent' | 'failed') => void>();

  // ---- the claim protocol
  /** Expired claims: back to the queue (account online) or failed and told (account offline). */
  async function reclaimExpired(now: number) {
    await repo.requeueExpired(db, now);
    const stranded = await repo.failStranded(db, now, OFFLINE_SEND_ERROR);
    const accounts = new Map<string, WxAccountViewRow | undefined>();
    for (const m of stranded) {
      if (!accounts.has(m.wx_account_id))
        accounts.set(m.wx_account_id, await repo.findAccountById(db, m.wx_account_id));
      const account = accounts.get(m.wx_account_id);
      if (!account) continue;
      bus.publish({
        kind: 'message',
        companyId: account.company_id,
        wxid: account.wxid,
        msgId: m.id,
        direction: 'out',
        status: 'failed',
      });
      await ctx.emitFor(account, 'message_status', {
        msgId: m.id,
        newMsgId: m.new_msg_id,
        peer: m.peer,
        status: 'failed',
        error: OFFLINE_SEND_ERROR,
      });
    }
  }

  /** The provider's send, cut off after `sendTimeoutMs` (well inside the claim's lease). */
  function sendWithTimeout(account: WxAccountViewRow, message: QueuedMessage) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<{ ok: false; error: string }>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, error: '发送超时，请稍后重试' }), sendTimeoutMs);
    });
    const send = provider
      .send(ref(account), {
        msgId: message.id,
        peer: message.peer,
        type: message.type,
        appType: message.app_type,
        content: message.content,
        media: message.media ? JSON.parse(message.media) : null,
      })
      .catch((err: unknown) => {
        log.error({ err }, 'provider send failed');
        return { ok: false as const, error: '发送失败，请稍后重试' };
      });
    return Promise.race([send, timeout]).finally(() => clearTimeout(timer));
  }

  /** Drains the account here after `delayMs`, unless a drain here is due sooner already. */
  function schedule(accountId: string, delayMs: number) {
    if (stopped) return;
    const at = Date.now() + Math.max(0, delayMs);
    const current = timers.get(accountId);
    if (current && current.at <= at) return;
    if (current) clearTimeout(current.timer);
    const timer = setTimeout(
      () => {
        timers.delete(accountId);
        void kick(accountId);
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    timers.set(accountId, { timer, at });
  }

  /**
   * Drains the account now, or once more after the drain under way here; resolves when done. With
   * `claimed` (a message its send call stored already claimed), sends that one, in turn, instead.
   */
  function kick(
    accountId: string,
    known?: WxAccountViewRow,
    claimed?: { message: QueuedMessage; token: string },
  ): Promise<void> {
    const running = runs.get(accountId);
    if (running) {
      if (claimed) running.claimed.push(claimed);
      else running.again = true;
      return running.done;
    }
    const run = { again: !claimed, claimed: claimed ? [claimed] : [], done: Promise.resolve() };
    runs.set(accountId, run);
    run.done = (async () => {
      /** Settles of sends made by this run not written yet, and the turn batch they went in. */
      let settling: Array<Promise<boolean>> = [];
      let settlingIn = -1;
      const settled = async () => {
        await Promise.all(settling);
        settling = [];
      };
      try {
        let account = known;
        for (;;) {
          // Claimed messages go out even while stopping: nobody else may send them before their lease ends.
          const batch = run.claimed.splice(0, SETTLE_BATCH);
          if (batch.length > 0) {
            account ??= await repo.findAccountById(db, accountId);
            if (!account) continue;
            const sent = await sendClaimedInOrder(account, batch);
            run.claimed.unshift(...sent.rest);
            if (sent.outcomes.length === 0) continue;
            // An account's sends are settled in order: a batch once the settle of the one before is
            // written, unless that one still waits in the statement being gathered (PostgreSQL):
            // then in the same statement. The claimed inserts of a turn come back together, and the
            // run the first of them started had made the account's others wait for its settle's
            // round trip before their own. SQLite writes a settle in the turn's group commit:
            // awaited here.
            if (settling.length > 0 && settleInTurn?.batchNow() !== settlingIn) await settled();
            // settle() adds to the turn batch before its first await: the batch numbers around it
            // say which one the outcomes joined, or that one left meanwhile (full).
            const before = settleInTurn?.batchNow();
            settling.push(settle(account, sent.outcomes));
            settlingIn = before !== undefined && settleInTurn?.batchNow() === before ? before : -1;
            if (!settleInTurn) await settled();
            continue;
          }
          if (settling.length > 0) {
            await settled();
            continue;
          }
          if (!run.again || stopped) break;
          run.again = false;
          await drain(accountId, account);
          account = undefined; // read again: it may have gone offline meanwhile
        }
      } finally {
        runs.delete(accountId);
      }
    })();
    return run.done;
  }

  /**
   * Whether a message stored already claimed is still ours to send: its lease outlasts a whole send
   * (the usual case: it waited behind a few sends of its account at most), or was renewed. A claim
   * lost meanwhile (its lease ran out while sends before it hung until their timeout, and it was
   * taken back) is someone else's now: sending it here would send it twice.
   */
  async function stillClaimed(message: QueuedMessage, token: string): Promise<boolean> {
    const now = Date.now();
    if (Number(message.lease_until) - now > sendTimeoutMs + LEASE_MARGIN_MS) return true;
    try {
      const renewed = await repo.renewClaim(db, message.id, token, now + leaseMs);
      if (!renewed) log.warn({ msgId: message.id }, 'claim lost while waiting its turn; not sent here');
      return renewed;
    } catch (err) {
      // Left claimed: its lease ends and it is taken back (reclaimExpired), then sent once.
      log.error({ err, msgId: message.id }, 'could not renew a waiting claim; not sent here');
      return false;
    }
  }

  /** Sends a message this process holds the claim of, and settles it; false when that failed. */
  async function sendClaimed(account: WxAccountViewRow, message: QueuedMessage, token: string) {
    let outcome: SendOutcome;
    try {
      outcome = await sendOne(account, message, token);
    } catch (err) {
      // Left claimed: its lease ends and it is taken back (reclaimExpired), as after a crash.
      log.error({ err, msgId: message.id }, 'send failed');
      return false;
    }
    return settle(account, [outcome]);
  }

  /**
   * Sends, in order, messages of one account this process holds the claims of (stored claimed by
   * their send calls), for the caller to settle them all in one write: one commit for many sends.
   * Sends that take long (a real network) are settled after SETTLE_WITHIN_MS, not made to wait for
   * the rest; those not sent yet are returned (`rest`), to go next.
   */
  async function sendClaimedInOrder(
    account: WxAccountViewRow,
    batch: Array<{ message: QueuedMessage; token: string }>,
  ): Promise<{ outcomes: SendOutcome[]; rest: typeof batch }> {
    const outcomes: SendOutcome[] = [];
    const started = Date.now();
    let i = 0;
    try {
      for (; i < batch.length; i++) {
        if (outcomes.length > 0 && Date.now() - started > SETTLE_WITHIN_MS) break;
        const { message, token } = batch[i]!;
        if (await stillClaimed(message, token)) outcomes.push(await sendOne(account, message, token));
      }
    } catch (err) {
      // This one is left claimed: its lease ends and it is taken back (reclaimExpired), as after a
      // crash. The ones sent before it are settled; the ones after it go next.
      log.error({ err, msgId: batch[i]?.message.id }, 'send failed');
      i += 1;
    }
    return { outcomes, rest: batch.slice(i) };
  }

  async function sendOne(
    account: WxAccountViewRow,
    message: QueuedMessage,
    token: string,
  ): Promise<SendOutcome> {
    const outcome = await sendWithTimeout(account, message);
    return outcome.ok
      ? { message, token, status: 'sent', error: null }
      : { message, token, status: 'failed', error: outcome.error };
  }

  /**
   * Settles sends made under this process's claims, each with its callback event, in one write,
   * then answers their waiting send calls; false when that write failed (left claimed: their leases
   * end and they are taken back, as after a crash).
   */
  async function settle(account: WxAccountViewRow, outcomes: SendOutcome[]): Promise<boolean> {
    let won: boolean[];
    try {
      const sends = outcomes.map((outcome) => ({ account, outcome }));
      won = settleInTurn
        ? await Promise.all(sends.map((send) => settleInTurn.add(send)))
        : await settleAndAnnounce(sends);
    } catch (err) {
      log.error({ err, msgIds: outcomes.map((o) => o.message.id) }, 'send not settled');
      return false;
    }
    outcomes.forEach(({ message, status }, i) => {
      if (won[i]) waiters.get(message.id)?.(status);
      else log.warn({ msgId: message.id }, 'send settled after its claim expired; outcome not announced');
    });
    return true;
  }

  /**
   * Settles sends by their claims' holder and stores their callback events in the same write (a
   * crash never leaves a message sent without its "sent" event), then tells the live consoles.
   * Says of each whether it was settled here: not when its claim was lost meanwhile (its lease
   * expired and it was taken back).
   */
  async function settleAndAnnounce(
    sends: ReadonlyArray<{ account: WxAccountViewRow; outcome: SendOutcome }>,
  ): Promise<boolean[]> {
    const dataOf = ({ message, status, error }: SendOutcome) => ({
      msgId: message.id,
      newMsgId: message.new_msg_id,
      peer: message.peer,
      status,
      error,
    });
    let won: boolean[];
    try {
      won = await ctx.withCallbacks(
        sends.map(({ account, outcome }) => ({
          id: outcome.message.id,
          event: ctx.eventFor(account, 'message_status', dataOf(outcome)),
        })),
        {
          run: (exec, i) => {
            const o = sends[i]!.outcome;
            return repo.settleMessage(exec, o.message.id, o.token, o.status, o.error);
          },
          statement: () =>
            repo.settleMessagesStatement(
              sends.map(({ outcome: o }) => ({
                id: o.message.id,
                token: o.token,
                status: o.status,
                error: o.error,
              })),
            ),
        },
      );
    } catch (err) {
      // The messages went out: settle them even if their events cannot be stored with them, rather
      // than leave them claimed for the lease to send again. The events are then tried on their own.
      log.error(
        { err, msgIds: sends.map((s) => s.outcome.message.id) },
        'send outcomes not stored with their callback events; settling alone',
      );
      won = [];
      for (const { account, outcome: o } of sends) {
        const settled = await repo.settleMessage(db, o.message.id, o.token, o.status, o.error);
        if (settled) await ctx.emitFor(account, 'message_status', dataOf(o));
        won.push(settled);
      }
    }
    sends.forEach(({ account, outcome: { message, status } }, i) => {
      if (won[i]) ctx.publishMessage(account, { id: message.id, direction: 'out', status });
    });
    return won;
  }
  // PostgreSQL: the outcomes settled in one turn of the event loop, of every account, in one
  // statement (each account's run settles its own batch; twenty accounts made twenty statements).
  // They are made together, as a turn's claimed inserts come back: while turns are long they leave
  // once those are served, not at the turn's end, and their answer is back a turn sooner.
  const settleInTurn = ctx.batchPerTurn
    ? createTurnBatcher(
        settleAndAnnounce,
        200,
        (flush) =>
          ((loopLag?.ms() ?? 0) >= LONG_TURNS_LAG_MS || requestsInLine() > 0) && afterThisTask(flush),
      )
    : undefined;

  /**
   * A new outgoing message of `account`: unpaced, stored already claimed (or queued behind older
   * ones), undefined when the insert found the account or its package no longer as read (nothing
   * stored); paced, queued.
   */
  async function storeNew(account: WxAccountViewRow, m: IncomingMessage): Promise<QueuedMessage | undefined> {
    if (sendIntervalMs > 0) return ctx.storeMessage(account, 'out', m, 'queued');
    return ctx.storeClaimedMessage(account, m, randomUUID(), Date.now() + leaseMs);
  }

  /** hasContact for an account known from an earlier send: a failure only means "read it again". */
  const hasContactOrNot = (account: WxAccountViewRow, peer: string) =>
    provider.hasContact(ref(account), peer).catch(() => false);

  /**
   * Sends the account's queued messages in order, across processes: each message is claimed first
   * (and, paced, the account's send slot before it, one send per interval). Only `kick` calls it.
   */
  async function drain(accountId: string, known?: WxAccountViewRow): Promise<void> {
    /** The paced slot this drain holds, so a failure frees it instead of stalling the account. */
    let held: number | null = null;
    try {
      const account = known ?? (await repo.findAccountById(db, accountId));
      if (account?.status !== 'online') return;
      for (;;) {
        const now = Date.now();
        if (sendIntervalMs > 0) {
          if (!(await repo.oldestQueued(db, accountId))) return;
          // Paced, the slot is held through the whole send and freed to "this send's end + the
          // interval" after it, so two sends of one account are never closer than the interval,
          // whichever processes make them. (Unpaced there is no slot: sends may overlap.)
          const hold = now + sendTimeoutMs + SLOT_MARGIN_MS;
          if (!(await repo.claimSendSlot(db, accountId, now, hold))) {
            // Held by a send under way (perhaps in another process): look again after an interval
            // rather than at the hold's end, which is only there for a holder that crashed.
            const fresh = await repo.findAccountById(db, accountId);
            if (fresh?.status === 'online')
              schedule(accountId, Math.min(Number(fresh.next_send_at) - now, Math.max(sendIntervalMs, 20)));
            return;
          }
          held = hold;
        }
        const token = randomUUID();
        const message = await repo.claimOldestQueued(db, accountId, token, now + leaseMs);
        if (!message) {
          // Empty, or another process claimed the oldest first. Paced: free the slot and look again
          // while anything is queued. Unpaced: done; a drain that claimed one goes on to the rest.
          if (held === null) return;
          await repo.releaseSendSlot(db, accountId, held, now);
          held = null;
          continue;
        }
        if (!(await sendClaimed(account, message, token))) throw new Error('send not settled');
        if (held !== null) {
          await repo.releaseSendSlot(db, accountId, held, Date.now() + sendIntervalMs);
          held = null;
          schedule(accountId, sendIntervalMs);
          return;
        }
      }
    } catch (err) {
      log.error({ err, accountId }, 'send queue failed');
      if (held !== null) {
        const hold = held;
        await repo.releaseSendSlot(db, accountId, hold, Date.now() + sendIntervalMs).catch(() => undefined);
        schedule(accountId, sendIntervalMs);
      }
    }
  }

  return {
    /** sendMsg*: stored as queued, then sent at once when the account's send slot is free. */
    async send(caller: ApiCaller, wxid: string, peer: string, input: OutgoingInput) {
      const raw = toRaw(input);
      // Unpaced, the message is stored already claimed (one statement instead of an insert and a
      // claim) unless older ones wait in its queue; this process's drain of the account sends it in
      // turn (`kick`). The insert checks the account and the package again, so it may start from the
      // account as this process last sent from it (no read); anything refused is read and told.
      const storeFrom = async (account: WxAccountViewRow) => {
        const row = await storeNew(account, { peer, sender: account.wxid, ...raw });
        return row && { account, row };
      };
      const known = sendIntervalMs === 0 ? ctx.knownSendingAccount(caller, wxid) : undefined;
      let stored = known && (await hasContactOrNot(known, peer)) ? await storeFrom(known) : undefined;
      // Refused after a read: the account or the package changed in between; the next read says how.
      for (let reads = 0; !stored; reads++) {
        if (reads === 2) throw new AppError('ACCOUNT_OFFLINE');
        const { account, activeSlots } = await ctx.sendingAccountFor(caller, wxid);
        if (activeSlots === 0) throw new AppError('PACKAGE_EXPIRED');
        if (!(await provider.hasContact(ref(account), peer))) {
          throw new AppError('BAD_REQUEST', `接收方 ${peer} 不在该账号的通讯录中`);
        }
        stored = await storeFrom(account);
      }
      const { account, row } = stored;
      const claimed =
        row.status === 'sending' && row.claim_token ? { message: row, token: row.claim_token } : undefined;
      // Answered with the outcome when this process sends it soon; else `queued` (paced for later,
      // taken by another process, or behind a backlog), told later by event and callback. Stored
      // is acknowledged: a send call never waits on a long queue.
      const sent = new Promise<'sent' | 'failed'>((resolve) => waiters.set(row.id, resolve));
      const drained = kick(account.id, account, claimed).then(() => 'queued' as const);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'queued'>((resolve) => {
        timer = setTimeout(() => resolve('queued'), SEND_ANSWER_WAIT_MS);
      });
      const status = await Promise.race([sent, drained, waited]).finally(() => {
        clearTimeout(timer);
        waiters.delete(row.id);
      });
      return {
        msgId: row.id,
        newMsgId: row.new_msg_id,
        createTime: row.create_time,
        type: row.type,
        status,
      };
    },

    /** An account went offline: its queued messages fail, each told to its callback. */
    async failQueued(account: WxAccountViewRow, error: string) {
      for (const m of await repo.failQueued(db, account.id, error)) {
        await ctx.emitFor(account, 'message_status', {
          msgId: m.id,
          newMsgId: m.new_msg_id,
          status: 'failed',
          error,
        });
      }
    },

    /** Takes back expired claims and drains queues no timer here waits for (other processes' too). */
    async sweep(now: number) {
      await reclaimExpired(now);
      for (const a of await repo.accountsWithDueQueue(db, now)) {
        if (!timers.has(a.id) && !runs.has(a.id)) await kick(a.id);
      }
    },

    start() {
      stopped = false;
    },

    stop() {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t.timer);
      timers.clear();
    },
  };
}

export type SendQueue = ReturnType<typeof createSendQueue>;
