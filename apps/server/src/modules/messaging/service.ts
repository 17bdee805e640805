import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Writes } from '../../db/group-commit.js';
import type { DB } from '../../db/schema.js';
import type { LoopLag } from '../../lib/loop-lag.js';
import type { SubAccountDirectory } from '../api-accounts/service.js';
import type { CallbackSink } from '../callbacks/types.js';
import type { CompanyGate } from '../company/service.js';
import type { EventBus } from '../events/bus.js';
import type { FileService } from '../files/service.js';
import type { PackageService } from '../packages/service.js';
import { createGatewayContext } from './context.js';
import { createLogins } from './logins.js';
import { toWxAccount } from './mappers.js';
import type { MessagingProvider } from './provider.js';
import { createGatewayReads } from './reads.js';
import * as repo from './repo.js';
import { createSendQueue } from './send-queue.js';

export interface GatewayOptions {
  db: Kysely<DB>;
  /** Where messages and their callback events are written (grouped commits on SQLite). */
  writes: Writes;
  log: FastifyBaseLogger;
  bus: EventBus;
  callbacks: CallbackSink;
  provider: MessagingProvider;
  /** Stored media (kind `media`): what a message names, and its signed links. */
  files: Pick<FileService, 'find' | 'link'>;
  /** Sub-accounts: which one a login counts against, and its allocation. */
  subAccounts: Pick<SubAccountDirectory, 'subAccount' | 'activeSubAccounts'>;
  /** The company's slots in force: logins and sends need a package. */
  packages: Pick<PackageService, 'activeSlotsOf'>;
  qrTtlMs: number;
  /** Pacing: at least this long between two sends of one account (0: no pacing). */
  sendIntervalMs: number;
  /** A provider's send is failed after this long (default 60 s). */
  sendTimeoutMs?: number | undefined;
  /** A send claim's lease (default: send-queue.ts SEND_LEASE_MS; tests shorten it). */
  sendLeaseMs?: number | undefined;
  /** How far behind the event loop runs: the send queue writes sooner in long turns. */
  loopLag?: Pick<LoopLag, 'ms'> | undefined;
  /** Operator rules: a company past its service expiry logs no new accounts in. */
  serviceGate?: Pick<CompanyGate, 'serviceExpiresAtOf' | 'assertServiceOpen'> | undefined;
}

/**
 * The messaging gateway, in three parts over one context (context.ts): the QR login life cycle and
 * the sessions it opens (logins.ts), the paced send queue, its only state (send-queue.ts), and the
 * reads (reads.ts). Every event is written to the records, handed to the callback outbox and
 * published to live consoles. The network behind it is a MessagingProvider (the simulator by
 * default); this file wires the parts, the provider's events and the sweeper.
 */
export function createGateway(opts: GatewayOptions) {
  const { db, log, provider } = opts;
  const ctx = createGatewayContext(opts);
  const queue = createSendQueue(ctx, {
    sendIntervalMs: opts.sendIntervalMs,
    sendTimeoutMs: opts.sendTimeoutMs,
    leaseMs: opts.sendLeaseMs,
    loopLag: opts.loopLag,
  });
  const logins = createLogins(ctx, {
    qrTtlMs: opts.qrTtlMs,
    subAccounts: opts.subAccounts,
    packages: opts.packages,
    serviceGate: opts.serviceGate,
    queue,
  });
  const reads = createGatewayReads(ctx, { files: opts.files });
  let sweeper: NodeJS.Timeout | undefined;

  provider.attach({
    ...logins.events,
    message: ctx.receive,
    async contactChanged(account, ids) {
      const row = await repo.findAccountById(db, account.accountId);
      if (row) await ctx.emitFor(row, 'contact_change', { ids });
    },
    onlineAccounts: async () => (await repo.allOnlineAccounts(db)).map(ctx.ref),
  });

  /** Ends QR codes nobody finished and sessions of accounts past their expiry; drains stray queues. */
  async function sweep() {
    const now = Date.now();
    await logins.sweep(now);
    await queue.sweep(now);
  }

  return {
    // the QR login life cycle and sessions
    getQrCode: logins.getQrCode,
    checkQrCode: logins.checkQrCode,
    checkQrCodeLoop: logins.checkQrCodeLoop,
    expireQr: logins.expireQr,
    loginForPhone: logins.loginForPhone,
    loginForPhoneAction: logins.loginForPhoneAction,
    logout: logins.logout,
    // the send queue
    send: queue.send,
    // reads
    ...reads,
    sweep,

    /** The customer's fields of an account (records: remark, expiry); null when the company has no such wxid. */
    async updateAccount(
      companyId: string,
      wxid: string,
      patch: { remark?: string; expire_at?: number | null },
    ) {
      if (!(await repo.updateAccountSettings(db, companyId, wxid, { ...patch, updated_at: Date.now() })))
        return null;
      return toWxAccount((await repo.findAccount(db, companyId, wxid))!);
    },

    async start(everyMs = 1000) {
      queue.start();
      // Sessions the provider keeps outside this process (a real network) come back after a restart.
      await provider.start((await repo.allOnlineAccounts(db)).map(ctx.ref));
      sweeper = setInterval(
        () => void sweep().catch((err) => log.error({ err }, 'gateway sweep failed')),
        everyMs,
      );
      sweeper.unref();
    },

    async stop() {
      queue.stop();
      if (sweeper) clearInterval(sweeper);
      await provider.stop();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
