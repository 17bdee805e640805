import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { payloads } from 'wechaty-puppet';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { FileService } from '../files/service.js';
import type { AccountRef, MessagingProvider, ProviderEvents } from '../messaging/provider.js';
import { contactsOf } from './contacts.js';
import { createMessageMapping, UNSUPPORTED } from './messages.js';
import {
  describe,
  detach,
  type FileBoxClass,
  type Puppet,
  type PuppetFactory,
  ScanStatus,
} from './puppet.js';
import * as repo from './repo.js';

export interface WechatyProviderOptions {
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  /** Where received pictures, videos, voice and files are stored (kind `media`). */
  files: Pick<FileService, 'save'>;
  createPuppet: PuppetFactory;
  FileBox: FileBoxClass;
  /** Network credentials, one per logged-in account; empty: the puppet module needs none. */
  tokens: string[];
  /** How long a starting puppet may take to show its first QR code, or to log back in. */
  startTimeoutMs?: number;
  /** How often a logged-in puppet is asked for a sign of life (puppet-service resets a silent one). */
  dingIntervalMs?: number;
  /** Pauses between reconnection attempts: doubling from the first to the last, then given up. */
  reconnect?: { firstMs: number; maxMs: number; attempts: number };
  /** How long a device's lease lasts unrenewed: a process that died is taken over after this. */
  leaseMs?: number;
}

/** A device's lease lasts this long unrenewed; it is renewed every third of it. */
export const LEASE_MS = 15_000;
/** A process not seen this long is forgotten (its leases lapsed long before). */
const FORGET_PROCESS_AFTER_MS = 20 * LEASE_MS;

/** The device's puppet runs in another process (it holds the device's lease): route the call there. */
export class HeldElsewhere extends Error {
  constructor(readonly deviceId: string) {
    super(`wechaty: device ${deviceId} is leased to another process`);
  }
}

/** This process's puppets, and the leases that say they run here (provider.ts routes calls to them). */
export interface Sessions extends Omit<MessagingProvider, 'start' | 'loginEnded'> {
  /** A QR login ended: a puppet here still waiting on it stops. */
  loginEnded(loginId: string): void;
  /** Reconnects these online accounts here, each unless another process holds its device. */
  resume(accounts: AccountRef[]): void;
  /** Keeps this process's leases, and takes over devices whose process died; `self` is where it is reached. */
  startLeases(self: repo.ProcessInfo): void;
  /** Whether this process runs the device's puppet now. */
  runs(deviceId: string): boolean;
}

const OFFLINE = '账号已下线，消息未发送';
const LOST = '消息通道连接中断，正在重连';
const GAVE_UP = '消息通道连接中断，请重新扫码登录';
const SESSION_GONE = '微信登录已失效，请重新扫码登录';
/** wechaty-puppet's own stop() says this in its logout event: the puppet stopped, not the account. */
const PUPPET_STOPPED = 'puppet stop()';

/** One device's connection to the network, from its QR code to its logout, across reconnections. */
interface Session {
  deviceId: string;
  puppet: Puppet;
  /** Bumped whenever the puppet is replaced: events of an older one are ignored. */
  generation: number;
  token: string | undefined;
  /** The QR login it answers now (getQrCode on the same device hands the puppet to a new one). */
  loginId: string | null;
  /** The newest QR code the network showed, while waiting for a scan. */
  qr: string | null;
  scanned: boolean;
  account: AccountRef | null;
  /** Reconnecting a logged-in account: waiting for the puppet to log back in. */
  restoring: boolean;
  /** The account was reported offline for this outage (connectionLost). */
  lossAnnounced: boolean;
  attempts: number;
  /** The end: stopped by us, its own logout is not news. */
  ended: boolean;
  /** Its events, handled one after another (a scan before the login it leads to). */
  chain: Promise<void>;
  /** When its device's lease was taken here: a renewal begun earlier does not know it yet. */
  leasedAt: number;
  firstQr: { resolve(qr: string): void; reject(err: Error): void } | null;
  timers: Set<NodeJS.Timeout>;
}

const fingerprint = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A real messaging network through wechaty (MESSAGING_PROVIDER=wechaty): one puppet per device,
 * each holding one of the configured tokens. getQrCode starts the device's puppet and shows the
 * network's QR code; its scan and login events drive the QR life cycle; its messages, contacts and
 * logout reach the gateway like the simulator's. A puppet that stops by itself (its connection
 * broke) is replaced with growing pauses while the account shows offline, and a restarted service
 * reconnects the accounts it had online, through the token each device used (wechaty_devices).
 *
 * Several processes: a puppet runs only in the process holding its device's lease (wechaty_leases),
 * and a token is used only by the device holding its lease (wechaty_token_leases). Leases are renewed
 * every third of LEASE_MS; one this process lost (it was silent too long and another took the device)
 * ends its session here quietly, and one that lapsed elsewhere (that process died) is taken over here
 * like a restart's resume. provider.ts routes every call to the process holding the device.
 */
export function createSessions(opts: WechatyProviderOptions & { owner: string }): Sessions {
  const { db, log, owner } = opts;
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const renewMs = Math.max(50, Math.floor(leaseMs / 3));
  const startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  const dingIntervalMs = opts.dingIntervalMs ?? 10_000;
  const backoff = opts.reconnect ?? { firstMs: 1_000, maxMs: 60_000, attempts: 15 };
  const mapping = createMessageMapping(opts);
  let events: ProviderEvents | undefined;
  const byDevice = new Map<string, Session>();
  const byAccount = new Map<string, Session>();
  const freeTokens = [...opts.tokens];
  /** A device's start under way (startLogin), so a second one waits for it. */
  const starting = new Map<string, Promise<void>>();
  let leaseTimer: NodeJS.Timeout | undefined;
  let lastRenewed = Date.now();
  let stopped = false;

  const emit = () => {
    if (!events) throw new Error('wechaty provider: no gateway attached');
    return events;
  };

  /** Runs a puppet event's handler after the session's earlier ones; failures are logged. */
  function handle(session: Session, what: string, fn: () => Promise<void>) {
    session.chain = session.chain.then(fn).catch((err) => {
      log.warn(
        { err: describe(err), deviceId: session.deviceId, event: what },
        'wechaty: event handling failed',
      );
    });
  }

  function later(session: Session, ms: number, fn: () => void) {
    const timer = setTimeout(() => {
      session.timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    session.timers.add(timer);
    return timer;
  }

  function clearTimers(session: Session) {
    for (const t of session.timers) clearTimeout(t);
    session.timers.clear();
  }

  /**
   * Stops a puppet we are done with; its late events (an error, its own logout) go nowhere.
   * `keepNetworkSession`: only this end stops (detach), the network's session lives on for whoever
   * connects next (this service after a restart, or the process that took the device over).
   */
  async function retire(puppet: Puppet, deviceId: string, keepNetworkSession = false) {
    try {
      await (keepNetworkSession ? detach(puppet) : puppet.stop());
    } catch (err) {
      log.warn({ err: describe(err), deviceId }, 'wechaty: puppet stop failed');
    }
    puppet.removeAllListeners();
    // An 'error' emitted with no listener throws: keep one.
    puppet.on('error', () => undefined);
  }

  /**
   * Stops the session's puppet and gives its token and its device's lease back; once per session,
   * whoever asks first. `handOver`: the network's session is kept for another connection (a
   * shutdown; with `leaseLost`, another process holds the device already: nothing to give back).
   */
  async function endSession(session: Session, handOver?: { leaseLost: boolean }) {
    const leaseLost = handOver?.leaseLost ?? false;
    if (session.ended) return;
    session.ended = true;
    session.generation += 1;
    clearTimers(session);
    session.firstQr?.reject(new AppError('SERVICE_BUSY', '消息通道已停止'));
    session.firstQr = null;
    if (byDevice.get(session.deviceId) === session) byDevice.delete(session.deviceId);
    if (session.account && byAccount.get(session.account.accountId) === session)
      byAccount.delete(session.account.accountId);
    await retire(session.puppet, session.deviceId, handOver !== undefined);
    const token = session.token;
    session.token = undefined;
    if (!leaseLost) {
      await repo
        .releaseDevice(db, session.deviceId, owner, token === undefined ? undefined : fingerprint(token))
        .catch((err) =>
          // It lapses by itself within LEASE_MS.
          log.warn({ err: describe(err), deviceId: session.deviceId }, 'wechaty: lease not given back'),
        );
    }
    if (token !== undefined) freeTokens.push(token);
  }

  /** The session ends for good and the gateway hears why (the account goes offline, its login ends). */
  async function sessionOver(session: Session, reason: string) {
    const account = session.account;
    await endSession(session);
    if (account) await emit().loggedOut(account, reason);
  }

  async function profileOf(puppet: Puppet, contactId: string) {
    const p = await puppet.contactPayload(contactId);
    return {
      wxid: p.id,
      nickname: p.name,
      avatar: p.avatar ?? '',
      alias: p.alias ?? p.handle ?? p.weixin ?? '',
    };
  }

  // ---- events of a session's current puppet
  function listen(session: Session, puppet: Puppet) {
    const generation = session.generation;
    // Events of a replaced or ended puppet are ignored.
    const on = <T>(event: string, fn: (payload: T) => Promise<void>) =>
      puppet.on(event, (payload: T) => {
        if (session.generation !== generation || session.ended) return;
        handle(session, event, () =>
          session.generation !== generation || session.ended ? Promise.resolve() : fn(payload),
        );
      });

    puppet.on('error', (e: payloads.EventError) => {
      log.warn({ deviceId: session.deviceId, error: e?.data ?? e?.gerror }, 'wechaty: puppet error');
    });
    on<payloads.EventScan>('scan', (e) => onScan(session, e));
    on<payloads.EventLogin>('login', (e) => onLogin(session, puppet, e));
    on<payloads.EventLogout>('logout', async (e) => {
      if (!session.account) {
        // Stopped while its QR code was on a screen: that code is dead.
        const loginId = session.loginId;
        await endSession(session);
        if (loginId) await emit().expired(loginId);
        return;
      }
      // The puppet stopped by itself (a broken connection; puppet-service's watchdog): reconnect.
      if (e.data === PUPPET_STOPPED || session.restoring) return reconnect(session);
      await sessionOver(session, e.data?.trim() ? `微信已退出：${e.data}` : '微信已退出登录');
    });
    on<payloads.EventMessage>('message', async (e) => {
      const account = session.account;
      if (!account || session.restoring) return;
      const m = await puppet.messagePayload(e.messageId);
      // What the account itself sent (here or on its phone) is not a message to it.
      if (m.talkerId === puppet.currentUserId) return;
      await emit().message(account, await mapping.incoming(account, puppet, m));
    });
    const changed = (ids: (string | undefined)[]) => {
      const account = session.account;
      const known = [...new Set(ids.filter((id): id is string => !!id))];
      if (!account || known.length === 0) return Promise.resolve();
      return emit().contactChanged(account, known);
    };
    on<payloads.EventFriendship>('friendship', async (e) => {
      const friendship = await puppet.friendshipPayload(e.friendshipId);
      await changed([friendship.contactId]);
    });
    on<payloads.EventRoomJoin>('room-join', (e) => changed([e.roomId, ...e.inviteeIdList]));
    on<payloads.EventRoomLeave>('room-leave', (e) => changed([e.roomId, ...e.removeeIdList]));
    on<payloads.EventRoomTopic>('room-topic', (e) => changed([e.roomId]));
  }

  async function onScan(session: Session, e: payloads.EventScan) {
    if (session.account) {
      // Reconnecting, the network asks for a QR code: its session of the account is gone.
      if (e.status === ScanStatus.Waiting) await sessionOver(session, SESSION_GONE);
      return;
    }
    if (e.status === ScanStatus.Waiting && e.qrcode) {
      const previous = session.qr;
      session.qr = e.qrcode;
      session.scanned = false;
      if (session.firstQr) {
        session.firstQr.resolve(e.qrcode);
        session.firstQr = null;
      } else if (previous !== e.qrcode && session.loginId) {
        // The network replaced its QR code: the one on the customer's screen is dead, and the
        // customer's next getQrCode starts afresh (loginEnded ends this puppet).
        await emit().expired(session.loginId);
      }
      return;
    }
    const loginId = session.loginId;
    if (!loginId) return;
    if (e.status === ScanStatus.Scanned && !session.scanned) {
      session.scanned = true;
      await emit().scanned(loginId, { nickname: '', avatar: '' });
    } else if (e.status === ScanStatus.Cancel) {
      await emit().cancelled(loginId);
    } else if (e.status === ScanStatus.Timeout) {
      await emit().expired(loginId);
    }
  }

  async function onLogin(session: Session, puppet: Puppet, e: payloads.EventLogin) {
    const account = session.account;
    if (account) {
      if (e.contactId !== account.wxid) {
        // Another WeChat account on this token: not the session we were restoring.
        await puppet.logout('unexpected account').catch(() => undefined);
        return sessionOver(session, SESSION_GONE);
      }
      // A login repeated on a live connection (puppet-service replays it) changes nothing.
      if (!session.restoring) return;
      clearTimers(session);
      session.restoring = false;
      session.attempts = 0;
      session.lossAnnounced = false;
      keepAlive(session, puppet);
      if (!(await emit().connectionRestored(account))) {
        // Ended meanwhile (logged out, or logged in on another device): let this session go.
        await puppet.logout('session ended').catch(() => undefined);
        await endSession(session);
      }
      return;
    }
    const loginId = session.loginId;
    if (!loginId) {
      log.warn(
        { deviceId: session.deviceId },
        'wechaty: login without a pending QR code; stopping the puppet',
      );
      await puppet.logout('no pending login').catch(() => undefined);
      return endSession(session);
    }
    session.loginId = null;
    session.qr = null;
    const profile = await profileOf(puppet, e.contactId);
    try {
      // Some networks never report the scan on its own.
      if (!session.scanned)
        await emit().scanned(loginId, { nickname: profile.nickname, avatar: profile.avatar });
      session.scanned = true;
      await emit().confirmed(loginId, profile);
    } catch (err) {
      // Refused (quota, package, the QR code expired meanwhile): the network session ends too.
      log.info({ deviceId: session.deviceId, reason: describe(err) }, 'wechaty: login refused; logging out');
      if (!session.ended) await puppet.logout('login refused').catch(() => undefined);
      await endSession(session);
    }
  }

  /** Asks a logged-in puppet for signs of life: puppet-service's watchdog resets a silent one. */
  function keepAlive(session: Session, puppet: Puppet) {
    if (dingIntervalMs <= 0) return;
    const generation = session.generation;
    const tick = () => {
      if (session.generation !== generation || session.ended) return;
      try {
        puppet.ding('keepalive');
      } catch {
        // not connected right now; the puppet's error events say why
      }
      later(session, dingIntervalMs, tick);
    };
    later(session, dingIntervalMs, tick);
  }

  // ---- starting puppets
  /** Takes the device's lease for this process; false when another process holds it. */
  async function claimDevice(deviceId: string): Promise<boolean> {
    const now = Date.now();
    return repo.claimDevice(db, deviceId, owner, now, now + leaseMs);
  }

  /**
   * Takes a local token for the device; its lease makes it the device's in every process. The
   * token is out of `freeTokens` while it is claimed, so concurrent logins here never share one.
   */
  async function claimToken(deviceId: string, token: string): Promise<boolean> {
    const index = freeTokens.indexOf(token);
    if (index < 0) return false;
    freeTokens.splice(index, 1);
    const now = Date.now();
    try {
      if (await repo.claimToken(db, fingerprint(token), deviceId, owner, now, now + leaseMs)) return true;
    } catch (err) {
      freeTokens.push(token);
      throw err;
    }
    freeTokens.push(token); // another process's device holds it
    return false;
  }

  /** A free token, preferring the one the device used last (the same remote puppet, the same identity). */
  async function takeToken(deviceId: string): Promise<string | undefined> {
    if (opts.tokens.length === 0) return undefined;
    const preferred = await repo.deviceTokenHash(db, deviceId);
    const candidates = [...freeTokens].sort(
      (a, b) => Number(fingerprint(b) === preferred) - Number(fingerprint(a) === preferred),
    );
    for (const token of candidates) {
      if (!(await claimToken(deviceId, token))) continue;
      try {
        await repo.rememberDeviceToken(db, deviceId, fingerprint(token), Date.now());
      } catch (err) {
        await repo.releaseToken(db, fingerprint(token), owner).catch(() => undefined);
        freeTokens.push(token);
        throw err;
      }
      return token;
    }
    throw new AppError('SERVICE_BUSY', '消息通道的登录名额已用完，请稍后再试或联系客服增加名额');
  }

  function newSession(deviceId: string, token: string | undefined, puppet: Puppet): Session {
    return {
      deviceId,
      puppet,
      generation: 0,
      token,
      loginId: null,
      qr: null,
      scanned: false,
      account: null,
      restoring: false,
      lossAnnounced: false,
      attempts: 0,
      ended: false,
      chain: Promise.resolve(),
      firstQr: null,
      timers: new Set(),
      leasedAt: Date.now(),
    };
  }

  /** Starts the device's puppet for a QR login and answers the network's first QR code. */
  async function startForLogin(deviceId: string, loginId: string): Promise<string> {
    if (!(await claimDevice(deviceId))) throw new HeldElsewhere(deviceId);
    let token: string | undefined;
    let puppet: Puppet;
    try {
      token = await takeToken(deviceId);
      puppet = opts.createPuppet({ deviceId, token });
    } catch (err) {
      await repo.releaseDevice(db, deviceId, owner, token === undefined ? undefined : fingerprint(token));
      if (token !== undefined) freeTokens.push(token);
      throw err;
    }
    const session = newSession(deviceId, token, puppet);
    session.loginId = loginId;
    byDevice.set(deviceId, session);
    const firstQr = new Promise<string>((resolve, reject) => {
      session.firstQr = { resolve, reject };
    });
    listen(session, puppet);
    let timer: NodeJS.Timeout | undefined;
    try {
      await puppet.start();
      return await Promise.race([
        firstQr,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new AppError('SERVICE_BUSY', '消息通道未能及时给出二维码，请稍后再试')),
            startTimeoutMs,
          );
        }),
      ]);
    } catch (err) {
      await endSession(session);
      if (err instanceof AppError) throw err;
      log.warn({ err: describe(err), deviceId }, 'wechaty: puppet did not start');
      throw new AppError('SERVICE_BUSY', '消息通道暂时不可用，请稍后再试');
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * (Re)connects a logged-in account's session with a new puppet on the same token. The network
   * answers with a login (restored), a QR code (its session is gone) or nothing in time (try again).
   */
  function connect(session: Session) {
    if (session.ended) return;
    let puppet: Puppet;
    try {
      puppet = opts.createPuppet({ deviceId: session.deviceId, token: session.token });
    } catch (err) {
      log.warn({ err: describe(err), deviceId: session.deviceId }, 'wechaty: could not make a puppet');
      handle(session, 'create', () => reconnect(session));
      return;
    }
    restoreWith(session, puppet);
  }

  function restoreWith(session: Session, puppet: Puppet) {
    session.generation += 1;
    session.puppet = puppet;
    session.restoring = true;
    listen(session, puppet);
    const generation = session.generation;
    const retry = () => {
      if (session.generation === generation && session.restoring)
        handle(session, 'reconnect', () => reconnect(session));
    };
    later(session, startTimeoutMs, retry);
    puppet.start().catch((err) => {
      log.warn({ err: describe(err), deviceId: session.deviceId }, 'wechaty: puppet did not start');
      retry();
    });
  }

  /** The connection broke (or did not come back): the account is offline, the next attempt is planned. */
  async function reconnect(session: Session) {
    const account = session.account;
    if (session.ended || !account) return;
    session.generation += 1;
    session.restoring = true;
    clearTimers(session);
    if (session.attempts >= backoff.attempts) return sessionOver(session, GAVE_UP);
    if (!session.lossAnnounced) {
      session.lossAnnounced = true;
      await emit().connectionLost(account, LOST);
    }
    // Stopped before the next one starts: puppet-service locks a store per token while it runs.
    await retire(session.puppet, session.deviceId);
    if (session.ended) return;
    const pause = Math.min(backoff.firstMs * 2 ** session.attempts, backoff.maxMs);
    session.attempts += 1;
    log.info(
      { deviceId: session.deviceId, attempt: session.attempts, pauseMs: pause },
      'wechaty: reconnecting',
    );
    later(session, pause, () => connect(session));
  }

  /** getQrCode's provider side (see startLogin): the device's waiting puppet, or a new one. */
  async function startLoginNow(loginId: string, deviceId: string): Promise<{ qrContent: string }> {
    const running = byDevice.get(deviceId);
    if (running && !running.account && running.qr) {
      // The device's puppet still waits for a scan: the new QR login takes it over.
      running.loginId = loginId;
      running.scanned = false;
      return { qrContent: running.qr };
    }
    // A session still reconnecting an account on this device ends: the device now logs in anew.
    if (running?.account) await sessionOver(running, '该设备已开始新的扫码登录');
    else if (running) await endSession(running);
    return { qrContent: await startForLogin(deviceId, loginId) };
  }

  /**
   * Reconnects an account the records say is online, here, if no other process holds its device
   * (a restart's resume, or a takeover from a process that died): through the token its device used.
   */
  async function resumeOne(account: AccountRef) {
    if (stopped || byAccount.has(account.accountId) || byDevice.has(account.deviceId)) return;
    if (!(await claimDevice(account.deviceId))) return; // another process runs it
    if (stopped) return void (await repo.releaseDevice(db, account.deviceId, owner));
    let token: string | undefined;
    if (opts.tokens.length > 0) {
      const used = await repo.deviceTokenHash(db, account.deviceId);
      const mine = opts.tokens.find((t) => fingerprint(t) === used);
      if (mine === undefined || !(await claimToken(account.deviceId, mine))) {
        // Its token is no longer configured, or another device holds it: that session is out of reach.
        await repo.releaseDevice(db, account.deviceId, owner);
        return emit().loggedOut(account, GAVE_UP);
      }
      token = mine;
    }
    let puppet: Puppet;
    try {
      puppet = opts.createPuppet({ deviceId: account.deviceId, token });
    } catch (err) {
      await repo.releaseDevice(
        db,
        account.deviceId,
        owner,
        token === undefined ? undefined : fingerprint(token),
      );
      if (token !== undefined) freeTokens.push(token);
      throw err;
    }
    const session = newSession(account.deviceId, token, puppet);
    session.account = account;
    byDevice.set(account.deviceId, session);
    byAccount.set(account.accountId, session);
    log.info(
      { deviceId: account.deviceId, accountId: account.accountId },
      'wechaty: resuming an online account here',
    );
    // Quietly: a restart or a takeover is not news; the loss is announced only if this fails (reconnect).
    restoreWith(session, puppet);
  }

  /**
   * Every third of a lease: renews this process's leases; ends sessions whose lease another process
   * took (this one was silent too long), or all of them when the leases could not be renewed in time,
   * before another process may start the same puppets; then takes over online accounts whose
   * device's lease lapsed (their process died).
   */
  async function tick(self: repo.ProcessInfo) {
    const startedAt = Date.now();
    let held: Set<string>;
    try {
      held = await repo.renewLeases(db, self, startedAt, startedAt + leaseMs);
      lastRenewed = startedAt;
    } catch (err) {
      log.warn({ err: describe(err) }, 'wechaty: leases not renewed');
      if (Date.now() - lastRenewed >= leaseMs - renewMs) {
        log.error('wechaty: leases about to lapse; stopping the puppets here');
        await Promise.all([...byDevice.values()].map((s) => endSession(s, { leaseLost: true })));
      }
      return;
    }
    for (const session of [...byDevice.values()]) {
      if (held.has(session.deviceId) || session.leasedAt >= startedAt) continue;
      log.warn(
        { deviceId: session.deviceId },
        'wechaty: another process took this device over; stopping it here',
      );
      await endSession(session, { leaseLost: true });
    }
    if (stopped) return;
    try {
      const online = await emit().onlineAccounts();
      const leased = await repo.leasedDevices(db, Date.now());
      for (const account of online) {
        if (!leased.has(account.deviceId) && !byDevice.has(account.deviceId)) {
          await resumeOne(account).catch((err) =>
            log.error({ err: describe(err), accountId: account.accountId }, 'wechaty: takeover failed'),
          );
        }
      }
      await repo.forgetSilentProcesses(db, Date.now() - FORGET_PROCESS_AFTER_MS);
    } catch (err) {
      log.warn({ err: describe(err) }, 'wechaty: takeover check failed');
    }
  }

  function sessionOf(account: AccountRef) {
    const session = byAccount.get(account.accountId);
    if (!session || session.restoring || !session.puppet.isLoggedIn) throw new AppError('ACCOUNT_OFFLINE');
    return session;
  }

  return {
    name: 'wechaty',

    attach(e) {
      events = e;
    },

    async startLogin({ loginId, deviceId }) {
      // One start per device at a time (a double click): the second takes over the first's puppet.
      const before = starting.get(deviceId);
      const mine = (async () => {
        await before;
        return startLoginNow(loginId, deviceId);
      })();
      const settled = mine.then(
        () => undefined,
        () => undefined,
      );
      starting.set(deviceId, settled);
      try {
        return await mine;
      } finally {
        if (starting.get(deviceId) === settled) starting.delete(deviceId);
      }
    },

    loginEnded(loginId) {
      for (const session of byDevice.values()) {
        // Only a puppet still waiting on that very login: one logged in, or handed to a newer
        // login on the same device, lives on.
        if (session.loginId === loginId && !session.account) void endSession(session);
      }
    },

    resume(accounts) {
      for (const account of accounts) {
        resumeOne(account).catch((err) =>
          log.error({ err: describe(err), accountId: account.accountId }, 'wechaty: resume failed'),
        );
      }
    },

    startLeases(self) {
      const loop = () => {
        leaseTimer = setTimeout(() => {
          void tick(self).finally(() => {
            if (!stopped) loop();
          });
        }, renewMs);
        leaseTimer.unref();
      };
      loop();
    },

    runs: (deviceId) => byDevice.has(deviceId),

    async accountOnline(account) {
      const session = byDevice.get(account.deviceId);
      if (!session) throw new Error(`wechaty: no puppet for device ${account.deviceId}`);
      const before = byAccount.get(account.accountId);
      if (before && before !== session) await endSession(before);
      session.account = account;
      byAccount.set(account.accountId, session);
      keepAlive(session, session.puppet);
    },

    async logout(account) {
      const session = byAccount.get(account.accountId);
      if (!session || session.ended) return;
      const { puppet } = session;
      session.generation += 1; // its own logout event is ours, not news
      if (!session.restoring && puppet.isLoggedIn) {
        await puppet.logout('主动退出登录').catch((err) => {
          log.warn({ err: describe(err), deviceId: session.deviceId }, 'wechaty: puppet logout failed');
        });
      }
      await endSession(session);
    },

    syncAddressList: async (account) => contactsOf.addressList(sessionOf(account).puppet),
    listContacts: async (account) => contactsOf.listContacts(sessionOf(account).puppet),
    getContacts: async (account, ids) => contactsOf.getContacts(sessionOf(account).puppet, ids),
    hasContact: async (account, peer) => contactsOf.hasContact(sessionOf(account).puppet, peer),
    getRoom: async (account, roomId) => contactsOf.getRoom(sessionOf(account).puppet, roomId),

    async send(account, message) {
      const session = byAccount.get(account.accountId);
      if (!session || session.restoring || !session.puppet.isLoggedIn) return { ok: false, error: OFFLINE };
      try {
        return await mapping.send(session.puppet, message);
      } catch (err) {
        const text = describe(err);
        if (/unsupported|unimplemented/i.test(text)) return { ok: false, error: UNSUPPORTED };
        log.warn({ err: text, msgId: message.msgId }, 'wechaty: send failed');
        return { ok: false, error: '消息通道发送失败，请稍后重试' };
      }
    },

    proxies: () => [{ code: 'default', name: '默认线路', region: '消息通道' }],

    async stop() {
      stopped = true;
      clearTimeout(leaseTimer);
      // Logged-in accounts' puppets are detached: the network keeps their sessions, and the next
      // start (or another process, the lease given back) reconnects them (resume). A puppet still
      // waiting for a scan stops: that QR login ends with this process.
      await Promise.all(
        [...byDevice.values()].map((s) => endSession(s, s.account ? { leaseLost: false } : undefined)),
      );
    },
  };
}
