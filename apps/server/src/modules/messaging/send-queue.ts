import { AppError } from '../../lib/errors.js';
import type { ApiCaller } from '../../lib/http.js';
import type { PackageService } from '../packages/service.js';
import type { GatewayContext } from './context.js';
import { type OutgoingInput, toRaw, type WxAccountViewRow } from './mappers.js';
import * as repo from './repo.js';

/** A message claimed for sending this long ago and never settled goes back to the queue. */
const STALE_CLAIM_MS = 5 * 60_000;

type QueuedMessage = NonNullable<Awaited<ReturnType<typeof repo.oldestQueued>>>;

export interface SendQueueDeps {
  /** Pacing: at least this long between two sends of one account (0: no pacing). */
  sendIntervalMs: number;
  /** A send needs a package in force. */
  packages: Pick<PackageService, 'activeSlots'>;
}

/**
 * The paced send queue, the gateway's only state in memory: a timer per account whose queue waits
 * for its next send slot (and a sweep, run by the gateway, for other processes' queues).
 *
 * Protocol, across processes, every step one conditional update (repo.ts, "the send queue"):
 * - a send stores the message `queued` and drains the account's queue at once;
 * - draining claims the account's send slot (`wx_accounts.next_send_at`: the pacing), then the
 *   oldest queued message (`queued -> sending`): `claim` below;
 * - the provider's outcome settles it (`sending -> sent | failed`): `settle` below;
 * - a claim never settled (its process died) is taken back after STALE_CLAIM_MS: `reclaimStale`.
 * Besides `failQueued` (an account gone offline fails what is still queued), claim, settle and
 * reclaim are the only moves of a message: a claim token and lease (settle only by its holder, take
 * back only an expired lease) change these three and their queries, nothing else.
 */
export function createSendQueue(ctx: GatewayContext, { sendIntervalMs, packages }: SendQueueDeps) {
  const { db, log, bus, provider, ref } = ctx;
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  // ---- the claim protocol
  const claim = (message: QueuedMessage) => repo.claimMessage(db, message.id);
  const settle = (message: QueuedMessage, status: 'sent' | 'failed', error: string | null) =>
    repo.settleMessage(db, message.id, status, error);
  const reclaimStale = (now: number) => repo.requeueStale(db, now - STALE_CLAIM_MS);

  function schedule(accountId: string, delayMs: number) {
    if (stopped || timers.has(accountId)) return;
    const timer = setTimeout(
      () => {
        timers.delete(accountId);
        void drain(accountId);
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    timers.set(accountId, timer);
  }

  /** The outcome of one send, told to the live consoles and the account's callback URL. */
  async function announce(
    account: WxAccountViewRow,
    message: QueuedMessage,
    status: 'sent' | 'failed',
    error: string | null,
  ) {
    bus.publish({
      kind: 'message',
      companyId: account.company_id,
      wxid: account.wxid,
      msgId: message.id,
      direction: 'out',
      status,
    });
    await ctx.emitFor(account, 'message_status', {
      msgId: message.id,
      newMsgId: message.new_msg_id,
      peer: message.peer,
      status,
      error,
    });
  }

  /**
   * Sends the account's queued messages in order, one per pacing interval, across processes: the
   * send slot and each message are claimed first. Returns the outcome of the messages this call sent.
   */
  async function drain(accountId: string, known?: WxAccountViewRow): Promise<Map<string, 'sent' | 'failed'>> {
    const done = new Map<string, 'sent' | 'failed'>();
    try {
      const account = known ?? (await repo.findAccountById(db, accountId));
      if (account?.status !== 'online') return done;
      for (;;) {
        const message = await repo.oldestQueued(db, accountId);
        if (!message) return done;
        const now = Date.now();
        if (!(await repo.claimSendSlot(db, accountId, now, sendIntervalMs))) {
          const fresh = await repo.findAccountById(db, accountId);
          if (fresh?.status === 'online') schedule(accountId, fresh.next_send_at - now);
          return done;
        }
        if (!(await claim(message))) continue;
        const outcome = await provider
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
        const status = outcome.ok ? 'sent' : 'failed';
        const error = outcome.ok ? null : outcome.error;
        await settle(message, status, error);
        done.set(message.id, status);
        await announce(account, message, status, error);
        if (sendIntervalMs > 0) {
          schedule(accountId, sendIntervalMs);
          return done;
        }
      }
    } catch (err) {
      log.error({ err, accountId }, 'send queue failed');
      return done;
    }
  }

  return {
    /** sendMsg*: stored as queued, then sent at once when the account's send slot is free. */
    async send(caller: ApiCaller, wxid: string, peer: string, input: OutgoingInput) {
      const account = await ctx.onlineAccountFor(caller, wxid);
      if ((await packages.activeSlots(account.company_id)) === 0) throw new AppError('PACKAGE_EXPIRED');
      if (!(await provider.hasContact(ref(account), peer))) {
        throw new AppError('BAD_REQUEST', `接收方 ${peer} 不在该账号的通讯录中`);
      }
      const raw = toRaw(input);
      const row = await ctx.storeMessage(account, 'out', { peer, sender: account.wxid, ...raw }, 'queued');
      const sent = await drain(account.id, account);
      return {
        msgId: row.id,
        newMsgId: row.new_msg_id,
        createTime: row.create_time,
        type: row.type,
        status: sent.get(row.id) ?? ('queued' as const),
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

    /** Takes back stale claims and drains queues no timer here waits for (other processes' too). */
    async sweep(now: number) {
      await reclaimStale(now);
      for (const a of await repo.accountsWithDueQueue(db, now)) {
        if (!timers.has(a.id)) await drain(a.id);
      }
    },

    start() {
      stopped = false;
    },

    stop() {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}

export type SendQueue = ReturnType<typeof createSendQueue>;
