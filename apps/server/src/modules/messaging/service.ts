import type { QrState } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import type { DB, WxLoginRow } from '../../db/schema.js';
import { newId, randomDigits } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { withLock } from '../../lib/lock.js';
import * as subAccounts from '../api-accounts/repo.js';
import type { ApiCaller } from '../api-auth/service.js';
import type { CallbackEventInput, CallbackSink } from '../callbacks/types.js';
import type { EventBus } from '../events/bus.js';
import type { MediaService } from '../media/service.js';
import * as packages from '../packages/repo.js';
import { toWxAccount, type WxAccountViewRow } from '../records/mappers.js';
import { newMsgId64, nextSeq } from './ids.js';
import { type OutgoingInput, toMessage, toRaw } from './mappers.js';
import type {
  AccountRef,
  IncomingMessage,
  LoginProfile,
  MessagingProvider,
  ProviderEvents,
} from './provider.js';
import * as repo from './repo.js';

export interface GatewayOptions {
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  bus: EventBus;
  callbacks: CallbackSink;
  provider: MessagingProvider;
  media: MediaService;
  qrTtlMs: number;
  /** Pacing: at least this long between two sends of one account (0: no pacing). */
  sendIntervalMs: number;
  /** Operator rules: a company past its service expiry logs no new accounts in. */
  serviceGate?: { assertServiceActive(companyId: string, exec?: Kysely<DB>): Promise<void> };
}

const ACTIVE_QR: WxLoginRow['state'][] = ['waiting', 'scanned', 'need_verify'];
const notFoundAccount = () => new AppError('NOT_FOUND', '微信账号不存在');

/**
 * The messaging gateway: QR logins, accounts, paced sending, contacts and media, with every event
 * written to the records, handed to the callback outbox and published to live consoles. The
 * network behind it is a MessagingProvider (the simulator by default).
 */
export function createGateway(opts: GatewayOptions) {
  const { db, log, bus, callbacks, provider, media } = opts;
  const timers = new Map<string, NodeJS.Timeout>();
  let sweeper: NodeJS.Timeout | undefined;
  let stopped = false;

  const ref = (row: { id: string; company_id: string; wxid: string; device_id: string }): AccountRef => ({
    accountId: row.id,
    companyId: row.company_id,
    wxid: row.wxid,
    deviceId: row.device_id,
  });

  async function emitCallback(event: CallbackEventInput) {
    try {
      await callbacks.emit(event);
    } catch (err) {
      log.error({ err, type: event.type }, 'could not queue callback event');
    }
  }

  // ---- scoping
  async function accountFor(caller: ApiCaller, wxid: string): Promise<WxAccountViewRow> {
    const row = await repo.findAccount(db, caller.companyId, wxid);
    if (!row || (caller.subAccountId && row.api_account_id !== caller.subAccountId)) throw notFoundAccount();
    return row;
  }

  async function onlineAccountFor(caller: ApiCaller, wxid: string) {
    const row = await accountFor(caller, wxid);
    if (row.status !== 'online') throw new AppError('ACCOUNT_OFFLINE');
    return row;
  }

  async function loginFor(caller: ApiCaller, instanceId: string): Promise<WxLoginRow> {
    const row = await repo.findLogin(db, instanceId);
    if (
      !row ||
      row.company_id !== caller.companyId ||
      (caller.subAccountId && row.api_account_id !== caller.subAccountId)
    ) {
      throw new AppError('NOT_FOUND', '二维码不存在');
    }
    return row;
  }

  /** The sub-account a login belongs to: the caller's own, or the one a console user names (or the first). */
  async function subAccountFor(caller: ApiCaller, subAccountId: string | undefined) {
    if (caller.subAccountId) {
      if (subAccountId && subAccountId !== caller.subAccountId)
        throw new AppError('NOT_FOUND', '子账号不存在');
      return (await subAccounts.find(db, caller.companyId, caller.subAccountId))!;
    }
    if (subAccountId) {
      const row = await subAccounts.find(db, caller.companyId, subAccountId);
      if (row?.status !== 'active') throw new AppError('NOT_FOUND', '子账号不存在');
      return row;
    }
    const first = (await subAccounts.list(db, caller.companyId, false))[0];
    if (!first) throw new AppError('NO_SUB_ACCOUNT');
    return first;
  }

  /** A new login must fit the company's packages and the sub-account's allocation. */
  async function assertCanLogin(
    exec: Kysely<DB>,
    companyId: string,
    sub: { id: string; name: string; available_num: number },
  ) {
    await opts.serviceGate?.assertServiceActive(companyId, exec);
    const now = Date.now();
    const total = await packages.activeSlots(exec, companyId, now);
    if (total === 0)
      throw new AppError('PACKAGE_EXPIRED', '套餐已过期或尚未购买，无法登录新账号，请续费或购买套餐');
    const companyOnline = await repo.countOnline(exec, 'company_id', companyId);
    if (companyOnline >= total) {
      throw new AppError('QUOTA_EXHAUSTED', `公司套餐共 ${total} 个账号额度，已全部在线，请购买更多额度`);
    }
    const subOnline = await repo.countOnline(exec, 'api_account_id', sub.id);
    if (subOnline >= sub.available_num) {
      throw new AppError(
        'QUOTA_EXHAUSTED',
        `子账号「${sub.name}」的额度已用完（在线 ${subOnline} / 分配 ${sub.available_num}），请在「子账号」中调整分配`,
      );
    }
  }

  async function assertPackageActive(companyId: string) {
    if ((await packages.activeSlots(db, companyId, Date.now())) === 0) throw new AppError('PACKAGE_EXPIRED');
  }

  // ---- QR state
  async function qrChanged(login: WxLoginRow, state: QrState) {
    bus.publish({ kind: 'qr', companyId: login.company_id, instanceId: login.id, state });
    await emitCallback({
      companyId: login.company_id,
      subAccountId: login.api_account_id,
      wxid: login.wxid ?? '',
      type: 'qr_state',
      data: { instanceId: login.id, state },
    });
  }

  /** Moves a login to a new state if it is still in one of `from`; publishes the change. */
  async function move(
    loginId: string,
    from: WxLoginRow['state'][],
    patch: Partial<WxLoginRow> & { state: QrState },
  ) {
    if (!(await repo.moveLogin(db, loginId, from, patch))) return false;
    const login = (await repo.findLogin(db, loginId))!;
    await qrChanged(login, patch.state);
    return true;
  }

  async function expireIfDue(login: WxLoginRow): Promise<WxLoginRow> {
    if (!ACTIVE_QR.includes(login.state) || login.expires_at > Date.now()) return login;
    await move(login.id, ACTIVE_QR, { state: 'expired', result: 'expired', ended_at: Date.now() });
    return (await repo.findLogin(db, login.id))!;
  }

  async function qrStatus(login: WxLoginRow) {
    const fresh = await expireIfDue(login);
    const account = fresh.wx_account_id ? await repo.findAccountById(db, fresh.wx_account_id) : undefined;
    return {
      instanceId: fresh.id,
      state: fresh.state,
      expiresIn: ACTIVE_QR.includes(fresh.state)
        ? Math.max(0, Math.ceil((fresh.expires_at - Date.now()) / 1000))
        : 0,
      scanner: fresh.scanner_nickname
        ? { nickname: fresh.scanner_nickname, avatar: fresh.scanner_avatar ?? '' }
        : null,
      account: fresh.state === 'confirmed' && account ? toWxAccount(account) : null,
    };
  }

  // ---- sessions
  async function endSession(row: WxAccountViewRow, reason: string) {
    const now = Date.now();
    if (!(await repo.takeOffline(db, row.id, reason, now))) return false;
    if (row.current_login_id)
      await repo.updateLogin(db, row.current_login_id, { ended_at: now, logout_reason: reason });
    const failed = await repo.failQueued(db, row.id, '账号已下线，消息未发送');
    for (const m of failed) {
      await emitCallback({
        companyId: row.company_id,
        subAccountId: row.api_account_id,
        wxid: row.wxid,
        type: 'message_status',
        data: { msgId: m.id, newMsgId: m.new_msg_id, status: 'failed', error: '账号已下线，消息未发送' },
      });
    }
    await provider.logout(ref(row)).catch((err) => log.warn({ err }, 'provider logout failed'));
    bus.publish({ kind: 'account', companyId: row.company_id, wxid: row.wxid, status: 'offline' });
    await emitCallback({
      companyId: row.company_id,
      subAccountId: row.api_account_id,
      wxid: row.wxid,
      type: 'logout',
      data: { wxid: row.wxid, reason, at: Math.floor(now / 1000) },
    });
    return true;
  }

  async function confirmLogin(loginId: string, profile: LoginProfile) {
    const login = await expireIfDue((await repo.findLogin(db, loginId))!);
    if (login.state !== 'scanned' && login.state !== 'need_verify') {
      throw new AppError(
        'CONFLICT',
        login.state === 'expired' ? '二维码已过期，请刷新后重新扫码' : '二维码已失效',
      );
    }
    const sub = (await subAccounts.find(db, login.company_id, login.api_account_id))!;
    const now = Date.now();
    let accountId: string | undefined;
    let previous: WxAccountViewRow | undefined;
    try {
      await withLock(db, `quota:${login.company_id}`, async (trx) => {
        const existing = await repo.findAccount(trx, login.company_id, profile.wxid);
        if (existing?.expire_at != null && existing.expire_at <= now)
          throw new AppError('CONFLICT', '该微信账号已到期，不能再登录');
        // The same account online elsewhere is replaced by this login and does not count twice.
        if (existing?.status === 'online') previous = existing;
        else if (sub.status !== 'active') throw new AppError('NOT_FOUND', '子账号已回收');
        else await assertCanLogin(trx, login.company_id, sub);
        if (existing) {
          accountId = existing.id;
          await repo.updateAccount(trx, existing.id, {
            api_account_id: login.api_account_id,
            nickname: profile.nickname,
            avatar: profile.avatar,
            alias: profile.alias,
            device_id: login.device_id,
            status: 'online',
            online_since: now,
            logout_reason: null,
            current_login_id: login.id,
            last_login_at: now,
            updated_at: now,
          });
        } else {
          accountId = newId();
          await repo.insertAccount(trx, {
            id: accountId,
            company_id: login.company_id,
            api_account_id: login.api_account_id,
            wxid: profile.wxid,
            nickname: profile.nickname,
            avatar: profile.avatar,
            alias: profile.alias,
            device_id: login.device_id,
            status: 'online',
            online_since: now,
            last_offline_at: null,
            logout_reason: null,
            expire_at: null,
            current_login_id: login.id,
            first_login_at: now,
            last_login_at: now,
            updated_at: now,
          });
        }
        const moved = await repo.moveLogin(trx, login.id, ['scanned', 'need_verify'], {
          state: 'confirmed',
          result: 'success',
          wx_account_id: accountId,
          wxid: profile.wxid,
          logged_in_at: now,
        });
        if (!moved) throw new AppError('CONFLICT', '二维码已失效');
        const device = await repo.findDevice(trx, login.company_id, login.device_id);
        await repo.updateDevice(trx, login.device_id, {
          wxid: profile.wxid,
          login_count: (device?.login_count ?? 0) + 1,
          last_login_at: now,
        });
      });
    } catch (err) {
      if (err instanceof AppError && (err.code === '40020' || err.code === '40021')) {
        // Refused for quota or package: the attempt ends and says why.
        await move(login.id, ['scanned', 'need_verify'], {
          state: 'cancelled',
          result: 'refused',
          ended_at: now,
          logout_reason: err.message,
        });
      }
      throw err;
    }
    if (previous?.current_login_id && previous.current_login_id !== login.id) {
      await repo.updateLogin(db, previous.current_login_id, {
        ended_at: now,
        logout_reason: '在其他设备重新登录',
      });
    }
    const account = (await repo.findAccountById(db, accountId!))!;
    await provider.accountOnline(ref(account));
    await qrChanged((await repo.findLogin(db, login.id))!, 'confirmed');
    bus.publish({ kind: 'account', companyId: account.company_id, wxid: account.wxid, status: 'online' });
    await emitCallback({
      companyId: account.company_id,
      subAccountId: account.api_account_id,
      wxid: account.wxid,
      type: 'login',
      data: { ...toWxAccount(account), instanceId: login.id },
    });
  }

  /** Stores a message of an account (ids and order assigned here) and tells the live consoles. */
  async function storeMessage(
    account: { id: string; company_id: string; wxid: string },
    direction: 'in' | 'out',
    m: IncomingMessage,
    status: 'queued' | 'sent',
  ) {
    const now = Date.now();
    const row = {
      id: newId(),
      company_id: account.company_id,
      wx_account_id: account.id,
      new_msg_id: newMsgId64(),
      direction,
      peer: m.peer,
      sender: m.sender,
      type: m.type,
      app_type: m.appType,
      content: m.content,
      media: m.media ? JSON.stringify(m.media) : null,
      status,
      error: null,
      create_time: Math.floor(now / 1000),
      created_at: now,
      seq: nextSeq(now),
    };
    await repo.insertMessage(db, row);
    bus.publish({
      kind: 'message',
      companyId: account.company_id,
      wxid: account.wxid,
      msgId: row.id,
      direction,
      status,
    });
    return row;
  }

  async function receive(account: AccountRef, message: IncomingMessage) {
    const row = await repo.findAccountById(db, account.accountId);
    if (row?.status !== 'online') return;
    const stored = await storeMessage(row, 'in', message, 'sent');
    const { media: m, ...rest } = toMessage(stored, row.wxid);
    await emitCallback({
      companyId: row.company_id,
      subAccountId: row.api_account_id,
      wxid: row.wxid,
      type: 'message',
      // Media travels as a reference: the program downloads it with getMsgImg / getMsgVideo.
      data: { ...rest, media: m ? { ...m, mediaId: undefined, hasMedia: 'mediaId' in m } : null },
    });
  }

  const events: ProviderEvents = {
    async scanned(loginId, scanner) {
      const login = await repo.findLogin(db, loginId);
      if (!login) throw new AppError('NOT_FOUND', '二维码不存在');
      await expireIfDue(login);
      const ok = await move(loginId, ['waiting'], {
        state: 'scanned',
        scanned_at: Date.now(),
        scanner_nickname: scanner.nickname,
        scanner_avatar: scanner.avatar,
      });
      if (!ok) {
        const now = (await repo.findLogin(db, loginId))?.state;
        // Another phone got there first: the console's request layer recognises 秒没 (spec §8).
        if (now === 'scanned' || now === 'need_verify' || now === 'confirmed') {
          throw new AppError('CONFLICT', '二维码已被其他手机扫描（秒没），请刷新二维码后重试');
        }
        throw new AppError(
          'CONFLICT',
          now === 'expired' ? '二维码已过期，请刷新二维码' : '二维码已失效，请刷新二维码',
        );
      }
    },
    async needVerify(loginId) {
      const ok = await move(loginId, ['scanned'], { state: 'need_verify', verify_code: randomDigits(4) });
      if (!ok) throw new AppError('CONFLICT', '二维码已失效');
    },
    confirmed: confirmLogin,
    async cancelled(loginId) {
      const ok = await move(loginId, ACTIVE_QR, {
        state: 'cancelled',
        result: 'cancelled',
        ended_at: Date.now(),
      });
      if (!ok) throw new AppError('CONFLICT', '二维码已失效');
    },
    async loggedOut(account, reason) {
      const row = await repo.findAccountById(db, account.accountId);
      if (row) await endSession(row, reason);
    },
    message: receive,
    async contactChanged(account, ids) {
      const row = await repo.findAccountById(db, account.accountId);
      if (!row) return;
      await emitCallback({
        companyId: row.company_id,
        subAccountId: row.api_account_id,
        wxid: row.wxid,
        type: 'contact_change',
        data: { ids },
      });
    },
  };
  provider.attach(events);

  // ---- the paced send queue
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

  /**
   * Sends the account's queued messages in order, one per pacing interval, across processes: the
   * send slot (wx_accounts.next_send_at) and each message are claimed with conditional updates.
   * Returns the outcome of the messages this call sent.
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
        if (!(await repo.claimSendSlot(db, accountId, now, opts.sendIntervalMs))) {
          const fresh = await repo.findAccountById(db, accountId);
          if (fresh?.status === 'online') schedule(accountId, fresh.next_send_at - now);
          return done;
        }
        if (!(await repo.claimMessage(db, message.id))) continue;
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
        await repo.finishMessage(db, message.id, status, error);
        done.set(message.id, status);
        bus.publish({
          kind: 'message',
          companyId: account.company_id,
          wxid: account.wxid,
          msgId: message.id,
          direction: 'out',
          status,
        });
        await emitCallback({
          companyId: account.company_id,
          subAccountId: account.api_account_id,
          wxid: account.wxid,
          type: 'message_status',
          data: { msgId: message.id, newMsgId: message.new_msg_id, peer: message.peer, status, error },
        });
        if (opts.sendIntervalMs > 0) {
          schedule(accountId, opts.sendIntervalMs);
          return done;
        }
      }
    } catch (err) {
      log.error({ err, accountId }, 'send queue failed');
      return done;
    }
  }

  async function send(caller: ApiCaller, wxid: string, peer: string, input: OutgoingInput) {
    const account = await onlineAccountFor(caller, wxid);
    await assertPackageActive(account.company_id);
    if (!(await provider.hasContact(ref(account), peer))) {
      throw new AppError('BAD_REQUEST', `接收方 ${peer} 不在该账号的通讯录中`);
    }
    const raw = toRaw(input);
    const row = await storeMessage(account, 'out', { peer, sender: account.wxid, ...raw }, 'queued');
    const sent = await drain(account.id, account);
    return {
      msgId: row.id,
      newMsgId: row.new_msg_id,
      createTime: row.create_time,
      type: row.type,
      status: sent.get(row.id) ?? ('queued' as const),
    };
  }

  /** Ends QR codes nobody finished and sessions of accounts past their expiry; drains stray queues. */
  async function sweep() {
    const now = Date.now();
    for (const l of await repo.overdueLogins(db, now)) {
      await move(l.id, ACTIVE_QR, { state: 'expired', result: 'expired', ended_at: now });
    }
    for (const a of await repo.expiredOnline(db, now)) {
      const row = await repo.findAccountById(db, a.id);
      if (row) await endSession(row, '账号已到期');
    }
    await repo.requeueStale(db, now - 5 * 60_000);
    for (const a of await repo.accountsWithDueQueue(db, now)) {
      if (!timers.has(a.id)) await drain(a.id);
    }
  }

  return {
    events,

    start(everyMs = 1000) {
      stopped = false;
      sweeper = setInterval(
        () => void sweep().catch((err) => log.error({ err }, 'gateway sweep failed')),
        everyMs,
      );
      sweeper.unref();
    },

    async stop() {
      stopped = true;
      if (sweeper) clearInterval(sweeper);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await provider.stop();
    },

    sweep,

    /** Messaging accounts online per sub-account (the slots in use). */
    slotUsage: (companyId: string) => repo.onlineBySubAccount(db, companyId),

    async getQrCode(
      caller: ApiCaller,
      input: { subAccountId?: string | undefined; deviceId?: string | undefined; proxy?: string | undefined },
    ) {
      const sub = await subAccountFor(caller, input.subAccountId);
      await assertCanLogin(db, caller.companyId, sub);
      const proxies = provider.proxies();
      if (input.proxy && !proxies.some((p) => p.code === input.proxy)) {
        throw new AppError('BAD_REQUEST', `proxy：未知的登录地区 ${input.proxy}，可用的见 proxyList`);
      }
      const now = Date.now();
      let deviceId = input.deviceId;
      let proxy = input.proxy ?? proxies[0]?.code ?? '';
      if (deviceId) {
        const device = await repo.findDevice(db, caller.companyId, deviceId);
        if (!device || (caller.subAccountId && device.api_account_id !== caller.subAccountId)) {
          throw new AppError('NOT_FOUND', '设备不存在');
        }
        if (device.wxid && (await repo.findAccount(db, caller.companyId, device.wxid))?.status === 'online') {
          throw new AppError('CONFLICT', '该设备上的账号仍在线，无需重新登录');
        }
        proxy = input.proxy ?? device.proxy;
      } else {
        deviceId = newId();
        await repo.insertDevice(db, {
          id: deviceId,
          company_id: caller.companyId,
          api_account_id: sub.id,
          name: `iPad-${deviceId.slice(0, 4).toUpperCase()}`,
          proxy,
          wxid: null,
          created_at: now,
          last_login_at: null,
        });
      }
      const loginId = newId();
      await repo.insertLogin(db, {
        id: loginId,
        company_id: caller.companyId,
        api_account_id: sub.id,
        device_id: deviceId,
        proxy,
        state: 'waiting',
        result: 'pending',
        verify_code: null,
        scanner_nickname: null,
        scanner_avatar: null,
        wx_account_id: null,
        wxid: null,
        expires_at: now + opts.qrTtlMs,
        started_at: now,
        scanned_at: null,
        logged_in_at: null,
        ended_at: null,
        logout_reason: null,
      });
      const { qrContent } = await provider.startLogin({ loginId, deviceId, proxy });
      const svg = await QRCode.toString(qrContent, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return {
        instanceId: loginId,
        deviceId,
        qrUrl: qrContent,
        qrImage: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        expiresIn: Math.round(opts.qrTtlMs / 1000),
      };
    },

    checkQrCode: async (caller: ApiCaller, instanceId: string) =>
      qrStatus(await loginFor(caller, instanceId)),

    /** Answers when the state differs from `lastState`, or after `waitSeconds`. */
    async checkQrCodeLoop(
      caller: ApiCaller,
      instanceId: string,
      lastState: QrState | undefined,
      waitSeconds: number,
    ) {
      const login = await loginFor(caller, instanceId);
      const first = await qrStatus(login);
      if (!lastState || first.state !== lastState || !ACTIVE_QR.includes(first.state)) return first;
      const waitMs = Math.min(waitSeconds * 1000, Math.max(0, login.expires_at - Date.now()) + 50);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          unsubscribe();
          resolve();
        };
        const timer = setTimeout(done, waitMs);
        const unsubscribe = bus.subscribe(caller.companyId, (e) => {
          if (e.kind === 'qr' && e.instanceId === instanceId && e.state !== lastState) done();
        });
      });
      return qrStatus((await repo.findLogin(db, instanceId))!);
    },

    /** Simulator control: the QR code expires now. */
    async expireQr(caller: ApiCaller, instanceId: string) {
      const login = await loginFor(caller, instanceId);
      if (!(await move(login.id, ACTIVE_QR, { state: 'expired', result: 'expired', ended_at: Date.now() }))) {
        throw new AppError('CONFLICT', '二维码已不是等待中的状态');
      }
    },

    /** The scan page's view of a login (no caller: the page holds the unguessable id). */
    async loginForPhone(loginId: string) {
      const login = await repo.findLogin(db, loginId);
      if (!login) return null;
      const fresh = await expireIfDue(login);
      const device = await repo.findDevice(db, fresh.company_id, fresh.device_id);
      return { login: fresh, deviceName: device?.name ?? '' };
    },

    async getAuth(caller: ApiCaller, wxid: string) {
      return toWxAccount(await accountFor(caller, wxid));
    },

    async logout(caller: ApiCaller, wxid: string) {
      const row = await accountFor(caller, wxid);
      await endSession(row, '主动退出登录');
      return toWxAccount((await repo.findAccountById(db, row.id))!);
    },

    proxyList: () => ({ list: provider.proxies() }),

    send,

    async syncAddressList(caller: ApiCaller, wxid: string) {
      const account = await onlineAccountFor(caller, wxid);
      const jobId = newId();
      await repo.insertSyncJob(db, { id: jobId, wx_account_id: account.id, created_at: Date.now() });
      // Address lists can be slow to fetch: the job runs in the background and is polled.
      void provider
        .syncAddressList(ref(account))
        .then((lists) => repo.finishSyncJob(db, jobId, 'done', JSON.stringify(lists), Date.now()))
        .catch(async (err) => {
          log.warn({ err }, 'address list sync failed');
          await repo.finishSyncJob(db, jobId, 'failed', null, Date.now());
        });
      return { jobId, status: 'running' as const };
    },

    async addressListResult(caller: ApiCaller, wxid: string) {
      const account = await accountFor(caller, wxid);
      const job = await repo.latestSyncJob(db, account.id);
      const lists = job?.result
        ? (JSON.parse(job.result) as { friends: string[]; chatrooms: string[]; ghs: string[] })
        : null;
      return {
        jobId: job?.id ?? null,
        status: job?.status ?? ('none' as const),
        friends: lists?.friends ?? [],
        chatrooms: lists?.chatrooms ?? [],
        ghs: lists?.ghs ?? [],
        finishedAt: job?.finished_at ?? null,
      };
    },

    async addressList(caller: ApiCaller, wxid: string) {
      const account = await onlineAccountFor(caller, wxid);
      return { list: await provider.listContacts(ref(account)) };
    },

    async contacts(caller: ApiCaller, wxid: string, ids: string[]) {
      const account = await onlineAccountFor(caller, wxid);
      return { list: await provider.getContacts(ref(account), [...new Set(ids)]) };
    },

    async roomMembers(caller: ApiCaller, wxid: string, roomId: string) {
      const account = await onlineAccountFor(caller, wxid);
      const room = await provider.getRoom(ref(account), roomId);
      if (!room) throw new AppError('NOT_FOUND', '群不存在或不在该账号的通讯录中');
      return room;
    },

    async history(
      caller: ApiCaller,
      input: { wxid: string; peer?: string | undefined; beforeMsgId?: string | undefined; limit: number },
    ) {
      const account = await accountFor(caller, input.wxid);
      let beforeSeq: number | undefined;
      if (input.beforeMsgId) {
        const before = await repo.findMessage(db, account.id, input.beforeMsgId);
        if (!before) throw new AppError('NOT_FOUND', '消息不存在');
        beforeSeq = before.seq;
      }
      const rows = await repo.history(db, account.id, { peer: input.peer, beforeSeq, limit: input.limit });
      return {
        list: rows.slice(0, input.limit).map((r) => toMessage(r, account.wxid)),
        hasMore: rows.length > input.limit,
      };
    },

    /** A link to download a message's picture or video. */
    async messageMedia(caller: ApiCaller, wxid: string, msgId: string, kind: 'image' | 'video') {
      const account = await accountFor(caller, wxid);
      const message = await repo.findMessage(db, account.id, msgId);
      if (!message) throw new AppError('NOT_FOUND', '消息不存在');
      const wanted = kind === 'image' ? 3 : 43;
      if (message.type !== wanted)
        throw new AppError('BAD_REQUEST', kind === 'image' ? '该消息不是图片' : '该消息不是视频');
      const m = message.media ? (JSON.parse(message.media) as Record<string, string | number>) : {};
      if (typeof m.mediaId === 'string') {
        const file = await media.find(m.mediaId);
        if (!file) throw new AppError('NOT_FOUND', '媒体文件已过期');
        const link = await media.signedUrl(m.mediaId, 3_600_000);
        return { url: link.url, mime: file.mime, size: file.size, expiresAt: link.expiresAt };
      }
      if (typeof m.url === 'string')
        return {
          url: m.url,
          mime: kind === 'image' ? 'image/*' : 'video/mp4',
          size: 0,
          expiresAt: Date.now() + 3_600_000,
        };
      throw new AppError('NOT_FOUND', '该消息没有可下载的媒体');
    },

    /** The account behind a wxid for simulator controls, scoped like every call. */
    accountRef: async (caller: ApiCaller, wxid: string) => ref(await onlineAccountFor(caller, wxid)),
  };
}

export type Gateway = ReturnType<typeof createGateway>;
