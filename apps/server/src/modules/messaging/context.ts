import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, PostgresAdapter, type Selectable } from 'kysely';
import type { Writes } from '../../db/group-commit.js';
import type { ShapedStatement } from '../../db/prepared.js';
import type { DB, WxMessagesTable } from '../../db/schema.js';
import { wellFormed } from '../../db/text.js';
import { createTurnBatcher } from '../../lib/batcher.js';
import { newTimeOrderedId } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { ApiCaller } from '../../lib/http.js';
import { flushAtSliceEnd } from '../../lib/request-slices.js';
import type { CallbackEventInput, CallbackSink, StoredEvent } from '../callbacks/types.js';
import type { EventBus } from '../events/bus.js';
import type { PackageService } from '../packages/service.js';
import { newMsgId64, nextSeq } from './ids.js';
import { createKnownAccounts } from './known-accounts.js';
import { toMessage, type WxAccountViewRow } from './mappers.js';
import type { AccountRef, IncomingMessage, MessagingProvider } from './provider.js';
import * as repo from './repo.js';

export interface GatewayContextDeps {
  db: Kysely<DB>;
  /** Where messages and their callback events are written (grouped commits on SQLite). */
  writes: Writes;
  log: FastifyBaseLogger;
  bus: EventBus;
  callbacks: CallbackSink;
  provider: MessagingProvider;
  /** A send needs a package in force: its slots, read with the account. */
  packages: Pick<PackageService, 'activeSlotsOf'>;
}

/**
 * What the gateway's three parts (logins.ts, send-queue.ts, reads.ts) share: who may see which
 * account, and how a change leaves the gateway (stored, handed to the callback outbox, published to
 * live consoles). Holds no state.
 */
/**
 * A change of rows that callback events tell of (GatewayContext.withCallbacks): `run` changes row
 * `i` (of the rows given with it) and says whether it did, for SQLite's transaction; `statement` is
 * the whole change as one query returning the "id" of each row changed, for PostgreSQL to run
 * together with the events' insert.
 */
export interface RowsChange {
  run(exec: Kysely<DB>, i: number): Promise<boolean>;
  statement(): ShapedStatement<{ id: string }>;
}

/** A received message to store, under the login its account was read with, and its event. */
interface ReceivedRow {
  row: Selectable<WxMessagesTable>;
  loginId: string | null;
  event: CallbackEventInput;
}

export function createGatewayContext({
  db,
  writes,
  log,
  bus,
  callbacks,
  provider,
  packages,
}: GatewayContextDeps) {
  const findAccountForSend = repo.findAccountForSendWith(packages.activeSlotsOf);
  const insertClaimedUnlessQueued = repo.insertClaimedUnlessQueuedWith(packages.activeSlotsOf);
  const known = createKnownAccounts();
  const changesInOneStatement = db.getExecutor().adapter instanceof PostgresAdapter;
  // PostgreSQL: the sends of one turn of the event loop stored in one statement (see receivedInTurn).
  const insertClaimedMany = repo.insertClaimedManyUnlessQueuedWith(packages.activeSlotsOf);
  const claimedInTurn = changesInOneStatement
    ? createTurnBatcher(
        (sends: Array<Parameters<typeof insertClaimedMany>[1][number]>) =>
          insertClaimedMany(db, sends, Date.now()),
        200,
        flushAtSliceEnd,
      )
    : undefined;
  const ref = (row: { id: string; company_id: string; wxid: string; device_id: string }): AccountRef => ({
    accountId: row.id,
    companyId: row.company_id,
    wxid: row.wxid,
    deviceId: row.device_id,
  });

  /** Hands an event to the callback outbox; a failure to queue it is logged, never thrown. */
  async function emitCallback(event: CallbackEventInput) {
    try {
      await callbacks.emit(event);
    } catch (err) {
      log.error({ err, type: event.type }, 'could not queue callback event');
    }
  }

  /** The callback event about an account (or a login) for its sub-account's callback URL. */
  const eventFor = (
    about: { company_id: string; api_account_id: string; wxid: string | null },
    type: CallbackEventInput['type'],
    data: Record<string, unknown>,
  ): CallbackEventInput => ({
    companyId: about.company_id,
    subAccountId: about.api_account_id,
    wxid: about.wxid ?? '',
    type,
    data,
  });

  /** An event about an account (or a login), for its sub-account's callback URL. */
  const emitFor = (
    about: { company_id: string; api_account_id: string; wxid: string | null },
    type: CallbackEventInput['type'],
    data: Record<string, unknown>,
  ) => emitCallback(eventFor(about, type, data));

  /**
   * Writes a change of rows and the callback event about each atomically: a crash never keeps a
   * row's change without its event or the event without the change. Says of each row whether it was
   * changed (its event is stored only then). SQLite: one transaction, the events' addresses looked
   * up first (SQLite runs a transaction on the only connection). PostgreSQL: one statement (the
   * change in a data-modifying WITH with the events' insert): one round trip and one commit for
   * however many rows.
   */
  async function withCallbacks(
    rows: ReadonlyArray<{ id: string; event: CallbackEventInput }>,
    change: RowsChange,
  ): Promise<boolean[]> {
    const addressed = await Promise.all(rows.map(({ event }) => callbacks.address(event)));
    if (changesInOneStatement) {
      const events = rows.flatMap(({ id }, i) => {
        const event = addressed[i];
        return event ? [{ about: id, event }] : [];
      });
      const changed = await callbacks.storeAbout(change.statement(), events);
      return rows.map(({ id }) => changed.has(id));
    }
    const stored: StoredEvent[] = [];
    try {
      const made = await writes.transact(async (trx) => {
        const changed: boolean[] = [];
        for (let i = 0; i < rows.length; i++) {
          const done = await change.run(trx, i);
          const event = addressed[i];
          if (done && event) stored.push(await callbacks.store(event, trx));
          changed.push(done);
        }
        return changed;
      });
      for (const s of stored) s.ended(true);
      return made;
    } catch (err) {
      for (const s of stored) s.ended(false);
      throw err;
    }
  }

  /** The caller may see the account of its company: all of them, a sub-account caller only its own. */
  const mayCall = (caller: ApiCaller, row: WxAccountViewRow) =>
    !caller.subAccountId || row.api_account_id === caller.subAccountId;

  /** The account found, if the caller may see it, else 404. */
  function visibleTo<T extends WxAccountViewRow>(caller: ApiCaller, row: T | undefined): T {
    if (!row || !mayCall(caller, row)) {
      throw new AppError('NOT_FOUND', '微信账号不存在');
    }
    return row;
  }

  /** An account the caller may see, else 404. */
  async function accountFor(caller: ApiCaller, wxid: string): Promise<WxAccountViewRow> {
    return visibleTo(caller, await repo.findAccount(db, caller.companyId, wxid));
  }

  async function onlineAccountFor(caller: ApiCaller, wxid: string) {
    const row = await accountFor(caller, wxid);
    if (row.status !== 'online') throw new AppError('ACCOUNT_OFFLINE');
    return row;
  }

  /**
   * onlineAccountFor for a send, with the company's package slots in force read in the same
   * statement (one round trip less on a send that reads its account).
   */
  async function sendingAccountFor(caller: ApiCaller, wxid: string) {
    const found = await findAccountForSend(db, caller.companyId, wxid, Date.now());
    const account = visibleTo(caller, found?.account);
    if (account.status !== 'online') throw new AppError('ACCOUNT_OFFLINE');
    return { account, activeSlots: found!.activeSlots };
  }

  /**
   * The account of the caller's last send from `wxid` as read then, if the caller may see it: a send
   * tries it first (storeClaimedMessage checks it still holds) and reads the account only when that
   * fails (sendingAccountFor), so every refusal is decided on a fresh read.
   */
  function knownSendingAccount(caller: ApiCaller, wxid: string): WxAccountViewRow | undefined {
    const row = known.byWxid(caller.companyId, wxid);
    return row && mayCall(caller, row) ? row : undefined;
  }

  /** A message row of an account, ids and order assigned here (not stored yet). */
  function storedMessage(
    account: { id: string; company_id: string },
    direction: 'in' | 'out',
    m: IncomingMessage,
    status: 'queued' | 'sent',
  ) {
    const now = Date.now();
    return {
      id: newTimeOrderedId(),
      company_id: account.company_id,
      wx_account_id: account.id,
      new_msg_id: newMsgId64(),
      direction,
      peer: m.peer,
      sender: m.sender,
      type: m.type,
      app_type: m.appType,
      // Half an emoji (cut by a client or the network) stored as U+FFFD on every database.
      content: wellFormed(m.content),
      media: m.media ? JSON.stringify(m.media) : null,
      status,
      error: null,
      claim_token: null,
      lease_until: null,
      sent_at: direction === 'out' && status === 'sent' ? now : null,
      create_time: Math.floor(now / 1000),
      created_at: now,
      seq: nextSeq(now),
    };
  }

  /** Stores a message of an account and tells the live consoles. */
  async function storeMessage(
    account: { id: string; company_id: string; wxid: string },
    direction: 'in' | 'out',
    m: IncomingMessage,
    status: 'queued' | 'sent',
  ) {
    const row = storedMessage(account, direction, m, status);
    await writes.write((w) => repo.insertMessage(w, row));
    publishMessage(account, row);
    return row;
  }

  /**
   * Stores an outgoing message already claimed by its sender (see repo.insertClaimedUnlessQueuedWith):
   * `sending` under `token`, or `queued` when older messages of the account still wait. Undefined,
   * storing nothing, when the account is no longer online under the login it was read with, or its
   * company has no package in force: the sender reads the account again and says why.
   */
  async function storeClaimedMessage(
    account: WxAccountViewRow,
    m: IncomingMessage,
    token: string,
    leaseUntil: number,
  ) {
    const row = storedMessage(account, 'out', m, 'queued');
    const claim = { token, leaseUntil, loginId: account.current_login_id };
    const status = claimedInTurn
      ? await claimedInTurn.add({ row, claim })
      : await writes.write((w) => insertClaimedUnlessQueued(w, row, { ...claim, now: Date.now() }));
    if (!status) {
      known.forget(account.id);
      return undefined;
    }
    known.keep(account);
    // A claimed message is still `queued` to clients until its outcome.
    publishMessage(account, row);
    return status === 'sending'
      ? { ...row, status, claim_token: token, lease_until: leaseUntil }
      : { ...row, status };
  }

  /** Tells the company's live consoles that a message was stored or changed. */
  function publishMessage(
    account: { company_id: string; wxid: string },
    message: { id: string; direction: 'in' | 'out'; status: 'queued' | 'sent' | 'failed' },
  ) {
    bus.publish({
      kind: 'message',
      companyId: account.company_id,
      wxid: account.wxid,
      msgId: message.id,
      direction: message.direction,
      status: message.status,
    });
  }

  /**
   * A message from the network to an online account: stored together with its callback event (a
   * crash never keeps one without the other), then told to the live consoles.
   */
  async function receive(account: AccountRef, message: IncomingMessage) {
    // The account as this process last stored a message for it (known accounts), else as read now.
    const seen = known.byId(account.accountId);
    if (seen && (await storeReceived(seen, message))) return;
    const row = await repo.findAccountById(db, account.accountId);
    // Refused after this read too: logged out or in again since, the message's session is over.
    if (row?.status === 'online') await storeReceived(row, message);
  }

  /**
   * Received messages stored with their callback events, each while its account is online under
   * the login its row was read with; says of each whether it was stored.
   */
  const storeReceivedRows = (items: ReceivedRow[]) =>
    withCallbacks(
      items.map(({ row, event }) => ({ id: row.id, event })),
      {
        run: (exec, i) => repo.insertReceived(exec, items[i]!.row, items[i]!.loginId),
        statement: () => repo.insertReceivedManyStatement(items),
      },
    );
  // PostgreSQL: the messages received in one turn of the event loop in one statement (one round
  // trip and one commit instead of one each: a reply to every send in the soak). SQLite's group
  // commit already writes them together.
  const receivedInTurn = changesInOneStatement ? createTurnBatcher(storeReceivedRows, 200) : undefined;

  /**
   * A received message stored with its callback event while the account is online under the login
   * `row` was read with; false, storing nothing, when it is not.
   */
  async function storeReceived(row: WxAccountViewRow, message: IncomingMessage): Promise<boolean> {
    // The event's data comes from the stored row, so its ids are chosen first.
    const stored = storedMessage(row, 'in', message, 'sent');
    const { media: m, ...rest } = toMessage(stored, row.wxid);
    // Media travels as a reference: the program downloads it with getMsgImg / getMsgVideo.
    const data = { ...rest, media: m ? { ...m, mediaId: undefined, hasMedia: 'mediaId' in m } : null };
    const item = { row: stored, loginId: row.current_login_id, event: eventFor(row, 'message', data) };
    const done = receivedInTurn ? await receivedInTurn.add(item) : (await storeReceivedRows([item]))[0];
    if (!done) {
      known.forget(row.id);
      return false;
    }
    known.keep(row);
    publishMessage(row, stored);
    return true;
  }

  return {
    db,
    writes,
    /**
     * Whether hot writes of one turn of the event loop go in one statement (createTurnBatcher):
     * PostgreSQL. SQLite's group commit writes a turn's units in one transaction already.
     */
    batchPerTurn: changesInOneStatement,
    log,
    bus,
    provider,
    ref,
    emitFor,
    eventFor,
    withCallbacks,
    accountFor,
    onlineAccountFor,
    sendingAccountFor,
    knownSendingAccount,
    storeMessage,
    storeClaimedMessage,
    publishMessage,
    receive,
  };
}

export type GatewayContext = ReturnType<typeof createGatewayContext>;
