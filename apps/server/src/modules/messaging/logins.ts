import { ACTIVE_QR_STATES, isActiveQrState, type QrState } from '@wxc/contract';
import type { WxAccountRow, WxDeviceRow, WxLoginRow } from '../../db/schema.js';
import { newId, randomDigits } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { ApiCaller } from '../../lib/http.js';
import type { SubAccountDirectory } from '../api-accounts/service.js';
import type { CompanyGate } from '../company/service.js';
import type { PackageService } from '../packages/service.js';
import type { GatewayContext } from './context.js';
import { toWxAccount, type WxAccountViewRow } from './mappers.js';
import type { ConfirmOptions, LoginProfile, ProviderEvents } from './provider.js';
import { qrSvg } from './qr-image.js';
import * as repo from './repo.js';
import { OFFLINE_SEND_ERROR, type SendQueue } from './send-queue.js';

export interface LoginDeps {
  qrTtlMs: number;
  /** The sub-account a login counts against, and its allocation. */
  subAccounts: Pick<SubAccountDirectory, 'subAccount' | 'activeSubAccounts'>;
  /** The company's slots in force, as SQL (read with the accounts online, in the confirmation's transaction). */
  packages: Pick<PackageService, 'activeSlotsOf'>;
  /** Operator rules: a company past its service expiry logs no new accounts in. */
  serviceGate?: Pick<CompanyGate, 'serviceExpiresAtOf' | 'assertServiceOpen'> | undefined;
  /** An account that goes offline fails its queued messages. */
  queue: Pick<SendQueue, 'failQueued'>;
}

type SubAccountRow = NonNullable<Awaited<ReturnType<SubAccountDirectory['subAccount']>>>;

/** What a confirmation needs of its login besides its state: fixed when the login is made. */
type LoginFacts = Pick<WxLoginRow, 'id' | 'company_id' | 'api_account_id' | 'device_id' | 'expires_at'>;
/** Logins made by this process whose facts are kept (the oldest go first beyond it). */
const MADE_HERE_MAX = 20_000;

/** Whole seconds a QR code has left (0 once it is no longer waiting for its phone). */
const secondsLeft = (login: WxLoginRow) =>
  isActiveQrState(login.state) ? Math.max(0, Math.ceil((login.expires_at - Date.now()) / 1000)) : 0;

/**
 * The QR login life cycle and the sessions it opens: a `wx_logins` row per QR code is both the
 * attempt and, once confirmed, the session's record. States move only by conditional updates
 * (`move`), so a confirm racing an expiry has one winner. A confirmation re-checks the package and
 * the sub-account's allocation against the accounts online, which the database counts and locks
 * per company until the confirmation ends; a refusal ends the attempt with its reason, which
 * checkQrCode answers.
 */
export function createLogins(ctx: GatewayContext, deps: LoginDeps) {
  // A login's writes (its QR code's rows, its moves, its confirmation) go through `writes`: on SQLite
  // the group commit (a commit of each of its own: a login's server CPU +18 %, bench/README.md
  // session 43); on PostgreSQL each as it is.
  const { db, writes, log, bus, provider, ref } = ctx;
  const { subAccounts, packages, queue } = deps;
  const loginQuota = repo.loginQuotaWith(packages.activeSlotsOf, deps.serviceGate?.serviceExpiresAtOf);
  /**
   * The facts of each login this process made, until it ends: its confirmation needs them and
   * nothing else of the row, so it reads none (the confirmation's conditional move checks the state
   * and the QR code's time; the login is read only to say why it could not be confirmed).
   * Immutable: a copy never goes stale, it can only be missing (another process made the login, or
   * it was dropped as the oldest), and then the login is read as before.
   */
  const madeHere = new Map<string, LoginFacts>();

  /** The caller's own login (another company's or sub-account's is not found). */
  function own<T extends WxLoginRow>(caller: ApiCaller, row: T | undefined): T {
    if (
      !row ||
      row.company_id !== caller.companyId ||
      (caller.subAccountId && row.api_account_id !== caller.subAccountId)
    ) {
      throw new AppError('NOT_FOUND', '二维码不存在');
    }
    return row;
  }

  const loginFor = async (caller: ApiCaller, instanceId: string) =>
    own(caller, await repo.findLogin(db, instanceId));

  /** The caller's login with its account once confirmed (one read), for its QR status. */
  async function loginWithAccountFor(caller: ApiCaller, instanceId: string) {
    const found = await repo.findLoginWithAccount(db, instanceId);
    return { login: own(caller, found?.login), account: found?.account };
  }

  /** The sub-account a login belongs to: the caller's own, or the one a console user names (or the first). */
  async function subAccountFor(caller: ApiCaller, subAccountId: string | undefined): Promise<SubAccountRow> {
    if (caller.subAccountId) {
      if (subAccountId && subAccountId !== caller.subAccountId)
        throw new AppError('NOT_FOUND', '子账号不存在');
      return (await subAccounts.subAccount(caller.companyId, caller.subAccountId))!;
    }
    if (subAccountId) {
      const row = await subAccounts.subAccount(caller.companyId, subAccountId);
      if (row?.status !== 'active') throw new AppError('NOT_FOUND', '子账号不存在');
      return row;
    }
    const first = (await subAccounts.activeSubAccounts(caller.companyId))[0];
    if (!first) throw new AppError('NO_SUB_ACCOUNT');
    return first;
  }

  /**
   * A new login must find the company's service open (the operator's gate) and fit its packages and
   * the sub-account's allocation (counts without it).
   */
  function assertFits(
    {
      slots: total,
      companyOnline,
      subOnline,
      serviceExpiresAt,
    }: { slots: number; companyOnline: number; subOnline: number; serviceExpiresAt: number | null },
    sub: { name: string; available_num: number },
  ) {
    deps.serviceGate?.assertServiceOpen(serviceExpiresAt);
    if (total === 0)
      throw new AppError('PACKAGE_EXPIRED', '套餐已过期或尚未购买，无法登录新账号，请续费或购买套餐');
    if (companyOnline >= total) {
      throw new AppError('QUOTA_EXHAUSTED', `公司套餐共 ${total} 个账号额度，已全部在线，请购买更多额度`);
    }
    if (subOnline >= sub.available_num) {
      throw new AppError(
        'QUOTA_EXHAUSTED',
        `子账号「${sub.name}」的额度已用完（在线 ${subOnline} / 分配 ${sub.available_num}），请在「子账号」中调整分配`,
      );
    }
  }

  // ---- QR state
  async function qrChanged(login: WxLoginRow, state: QrState) {
    bus.publish({ kind: 'qr', companyId: login.company_id, instanceId: login.id, state });
    await ctx.emitFor(login, 'qr_state', { instanceId: login.id, state });
  }

  /**
   * Moves a login to a new state if it is still in one of `from` (and, with `unexpiredAt`, its QR
   * code had not expired by then); publishes the change.
   */
  async function move(
    loginId: string,
    from: readonly WxLoginRow['state'][],
    patch: Partial<WxLoginRow> & { state: QrState },
    unexpiredAt?: number,
  ) {
    const login = await writes.write((w) => repo.moveLogin(w, loginId, [...from], patch, unexpiredAt));
    if (!login) return false;
    if (patch.state === 'expired' || patch.state === 'cancelled') {
      madeHere.delete(loginId);
      provider.loginEnded(loginId, login.device_id);
    }
    await qrChanged(login, patch.state);
    return true;
  }

  const expire = (loginId: string, now = Date.now()) =>
    move(loginId, ACTIVE_QR_STATES, { state: 'expired', result: 'expired', ended_at: now });

  async function expireIfDue(login: WxLoginRow): Promise<WxLoginRow> {
    if (!isActiveQrState(login.state) || login.expires_at > Date.now()) return login;
    await expire(login.id);
    return (await repo.findLogin(db, login.id))!;
  }

  /** A login's QR status; `read` is its account if it was read with the login. */
  async function qrStatus(login: WxLoginRow, read?: WxAccountViewRow) {
    const fresh = await expireIfDue(login);
    const accountId = fresh.state === 'confirmed' ? fresh.wx_account_id : null;
    const account = !accountId
      ? undefined
      : read?.id === accountId
        ? read
        : await repo.findAccountById(db, accountId);
    return {
      instanceId: fresh.id,
      state: fresh.state,
      expiresIn: secondsLeft(fresh),
      scanner: fresh.scanner_nickname
        ? { nickname: fresh.scanner_nickname, avatar: fresh.scanner_avatar ?? '' }
        : null,
      account: account ? toWxAccount(account) : null,
      reason: fresh.state === 'cancelled' ? fresh.logout_reason : null,
    };
  }

  // ---- sessions
  /** An account's login (its current_login_id) is still open: online, or offline while the provider reconnects it. */
  async function loginOpen(loginId: string | null) {
    if (!loginId) return false;
    return (await repo.findLogin(db, loginId))?.ended_at == null;
  }

  async function endSession(row: WxAccountViewRow, reason: string) {
    const now = Date.now();
    if (!(await repo.takeOffline(db, row.id, reason, now))) {
      // Offline already. A connection the provider is still restoring ends here too (its loss was
      // announced then); anything else has ended before.
      if (row.status === 'offline' && (await loginOpen(row.current_login_id))) {
        await repo.updateLogin(db, row.current_login_id!, { ended_at: now, logout_reason: reason });
        await repo.updateAccount(db, row.id, { logout_reason: reason, updated_at: now });
        await provider.logout(ref(row)).catch((err) => log.warn({ err }, 'provider logout failed'));
      }
      return false;
    }
    if (row.current_login_id)
      await repo.updateLogin(db, row.current_login_id, { ended_at: now, logout_reason: reason });
    await queue.failQueued(row, OFFLINE_SEND_ERROR);
    await provider.logout(ref(row)).catch((err) => log.warn({ err }, 'provider logout failed'));
    bus.publish({ kind: 'account', companyId: row.company_id, wxid: row.wxid, status: 'offline' });
    await ctx.emitFor(row, 'logout', { wxid: row.wxid, reason, at: Math.floor(now / 1000) });
    return true;
  }

  /**
   * A confirmed login's account as it is written when the company does not have it yet (a known
   * one takes what a login changes of it: repo.putOnlineAndConfirm).
   */
  function newAccount(login: LoginFacts, profile: LoginProfile, now: number): repo.NewAccount {
    return {
      id: newId(),
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
    };
  }

  /**
   * The login as read (expiry applied); refused, with the reason, unless it waits for its
   * confirmation: scanned, or waiting for its verification code (unless `scannedOnly`).
   */
  async function confirmableLogin(loginId: string, scannedOnly: boolean): Promise<WxLoginRow> {
    const login = await expireIfDue((await repo.findLogin(db, loginId))!);
    if (login.state === 'scanned' || (login.state === 'need_verify' && !scannedOnly)) return login;
    throw new AppError(
      'CONFLICT',
      login.state === 'expired' ? '二维码已过期，请刷新后重新扫码' : '二维码已失效',
    );
  }

  /**
   * The phone confirmed: the account goes online (replacing the same account online elsewhere,
   * which does not count twice), then must fit the company's quota; the login becomes its session
   * and the device remembers it. Refused for quota or package, the attempt ends and says why.
   */
  async function confirmLogin(loginId: string, profile: LoginProfile, opts: ConfirmOptions = {}) {
    const scannedOnly = opts.scannedOnly ?? false;
    const made = madeHere.get(loginId);
    // A login this process made, unexpired by its clock: its facts, no read (the move below checks
    // its state and time). Otherwise read, and refused at once unless it waits for this confirmation.
    const login: LoginFacts =
      made && made.expires_at > Date.now() ? made : await confirmableLogin(loginId, scannedOnly);
    // Read before the transaction: on SQLite it holds the only connection.
    const sub = (await subAccounts.subAccount(login.company_id, login.api_account_id))!;
    const now = Date.now();
    let online: WxAccountRow | undefined;
    let before: { currentLoginId: string | null } | undefined;
    let confirmed: WxLoginRow | undefined;
    // The login no longer waited for this confirmation, or its time ran out: read to say which.
    // Made when thrown (an error's stack costs a confirmation ~30 µs).
    let notMoved: AppError | undefined;
    const confirm = () =>
      writes.transact(async (trx) => {
        // The account goes online, the login moves and the device counts it in one step, with the
        // counts of accounts online as the company's confirmations before this one left them; on
        // PostgreSQL the account's row and the counts stay locked until this transaction ends, so
        // every other confirmation of the account or the company waits for its turn at that step
        // and the counts are exact. There the step checks the quota itself and ends the transaction
        // (repo.putOnlineAndConfirm).
        const joined = await loginQuota.putOnlineAndConfirm(
          trx,
          {
            id: login.id,
            companyId: login.company_id,
            subAccountId: sub.id,
            wxid: profile.wxid,
            scannedOnly,
            deviceId: login.device_id,
            available: sub.available_num,
            subActive: sub.status === 'active',
          },
          newAccount(login, profile, now),
          now,
        );
        before = joined.before;
        if (joined.refused === 'account_expired')
          throw new AppError('CONFLICT', '该微信账号已到期，不能再登录');
        // A recovered sub-account brings no account online; one online elsewhere moves to this
        // login (it does not count twice).
        if (joined.refused === 'sub_account_recovered') throw new AppError('NOT_FOUND', '子账号已回收');
        if (joined.verdict === 'refused') {
          // PostgreSQL: refused by the statement, which wrote nothing; the same rule says why.
          assertFits(joined.quota!, sub);
          throw new AppError('QUOTA_EXHAUSTED'); // not reached
        }
        // SQLite: checked here, and rolled back when it does not fit. (PostgreSQL has committed what
        // its statement found to fit: not checked again by a later clock.)
        if (joined.verdict === undefined && joined.counted && joined.confirmed)
          assertFits(joined.quota!, sub);
        if (!joined.confirmed) {
          notMoved = new AppError('CONFLICT', '二维码已失效');
          throw notMoved;
        }
        online = joined.confirmed.account;
        confirmed = joined.confirmed.login;
      });
    try {
      try {
        await confirm();
      } catch (err) {
        // PostgreSQL: another confirmation of the same new account inserted it first (its insert
        // waited for that one's commit). Once more: the account is known now, and online.
        if ((err as { constraint?: unknown }).constraint !== 'wx_accounts_company_wxid') throw err;
        await confirm();
      }
    } catch (err) {
      // Why the login could not be confirmed, first: when it was not read before, the account's or
      // the quota's refusal was met first, but only matters to a login that still waits.
      if (err === notMoved || (login === made && err instanceof AppError))
        await confirmableLogin(loginId, scannedOnly);
      if (err instanceof AppError && err.is('QUOTA_EXHAUSTED', 'PACKAGE_EXPIRED')) {
        await move(login.id, ['scanned', 'need_verify'], {
          state: 'cancelled',
          result: 'refused',
          ended_at: now,
          logout_reason: err.message,
        });
      }
      throw err;
    }
    madeHere.delete(loginId);
    // The account's session elsewhere ends: online on another device, or offline there while its
    // connection was being restored.
    const elsewhere = before?.currentLoginId ?? null;
    if (elsewhere && elsewhere !== login.id && (await loginOpen(elsewhere))) {
      await repo.updateLogin(db, elsewhere, { ended_at: now, logout_reason: '在其他设备重新登录' });
    }
    // As committed: the row the transaction wrote (no read back).
    const account: WxAccountViewRow = { ...online!, sub_account_name: sub.name };
    await provider.accountOnline(ref(account));
    await qrChanged(confirmed!, 'confirmed');
    bus.publish({ kind: 'account', companyId: account.company_id, wxid: account.wxid, status: 'online' });
    await ctx.emitFor(account, 'login', { ...toWxAccount(account), instanceId: login.id });
  }

  /** What the provider reports about logins and sessions. */
  const events: Omit<ProviderEvents, 'message' | 'contactChanged' | 'onlineAccounts'> = {
    async scanned(loginId, scanner) {
      // Moved only while waiting and unexpired: one statement; the login is read only to say why not.
      const at = Date.now();
      const patch = {
        state: 'scanned' as const,
        scanned_at: at,
        scanner_nickname: scanner.nickname,
        scanner_avatar: scanner.avatar,
      };
      if (!(await move(loginId, ['waiting'], patch, at))) {
        const login = await repo.findLogin(db, loginId);
        if (!login) throw new AppError('NOT_FOUND', '二维码不存在');
        const now = (await expireIfDue(login)).state;
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
      const ok = await move(loginId, ACTIVE_QR_STATES, {
        state: 'cancelled',
        result: 'cancelled',
        ended_at: Date.now(),
      });
      if (!ok) throw new AppError('CONFLICT', '二维码已失效');
    },
    async expired(loginId) {
      // Already ended (expired by our own clock, cancelled, confirmed): nothing to change.
      await expire(loginId);
    },
    async loggedOut(account, reason) {
      const row = await repo.findAccountById(db, account.accountId);
      if (row) await endSession(row, reason);
    },
    async connectionLost(account, reason) {
      const row = await repo.findAccountById(db, account.accountId);
      if (!row || row.device_id !== account.deviceId) return;
      const now = Date.now();
      if (!(await repo.takeOffline(db, row.id, reason, now))) return;
      await queue.failQueued(row, OFFLINE_SEND_ERROR);
      bus.publish({ kind: 'account', companyId: row.company_id, wxid: row.wxid, status: 'offline' });
      await ctx.emitFor(row, 'logout', { wxid: row.wxid, reason, at: Math.floor(now / 1000) });
    },
    async connectionRestored(account) {
      const row = await repo.findAccountById(db, account.accountId);
      // Still this device's session, never ended meanwhile.
      if (!row || row.device_id !== account.deviceId || !(await loginOpen(row.current_login_id)))
        return false;
      if (row.status === 'online') return true;
      const now = Date.now();
      await repo.updateAccount(db, row.id, {
        status: 'online',
        online_since: now,
        logout_reason: null,
        updated_at: now,
      });
      const back = (await repo.findAccountById(db, row.id))!;
      bus.publish({ kind: 'account', companyId: back.company_id, wxid: back.wxid, status: 'online' });
      await ctx.emitFor(back, 'login', { ...toWxAccount(back), instanceId: back.current_login_id });
      return true;
    },
  };

  return {
    events,

    async getQrCode(
      caller: ApiCaller,
      input: { subAccountId?: string | undefined; deviceId?: string | undefined; proxy?: string | undefined },
    ) {
      const sub = await subAccountFor(caller, input.subAccountId);
      const proxies = provider.proxies();
      if (input.proxy && !proxies.some((p) => p.code === input.proxy)) {
        throw new AppError('BAD_REQUEST', `proxy：未知的登录地区 ${input.proxy}，可用的见 proxyList`);
      }
      const now = Date.now();
      // A new device on PostgreSQL: the quota is read by the statement that writes the device and
      // its login (newLoginIfFits). Otherwise read first.
      const quotaWithWrite = !input.deviceId && loginQuota.readsWithNewLogin(db);
      if (!quotaWithWrite) assertFits(await loginQuota.read(db, caller.companyId, sub.id, now), sub);
      /** A new device, written with the login. */
      let device: WxDeviceRow | undefined;
      let proxy = input.proxy ?? proxies[0]?.code ?? '';
      if (input.deviceId) {
        const known = await repo.findDevice(db, caller.companyId, input.deviceId);
        if (!known || (caller.subAccountId && known.api_account_id !== caller.subAccountId)) {
          throw new AppError('NOT_FOUND', '设备不存在');
        }
        if (known.wxid && (await repo.findAccount(db, caller.companyId, known.wxid))?.status === 'online') {
          throw new AppError('CONFLICT', '该设备上的账号仍在线，无需重新登录');
        }
        proxy = input.proxy ?? known.proxy;
      } else {
        const id = newId();
        device = {
          id,
          company_id: caller.companyId,
          api_account_id: sub.id,
          name: `iPad-${id.slice(0, 4).toUpperCase()}`,
          proxy,
          wxid: null,
          login_count: 0,
          created_at: now,
          last_login_at: null,
        };
      }
      const deviceId = device?.id ?? input.deviceId!;
      const loginId = newId();
      const login: WxLoginRow = {
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
        expires_at: now + deps.qrTtlMs,
        started_at: now,
        scanned_at: null,
        logged_in_at: null,
        ended_at: null,
        logout_reason: null,
      };
      // A new device and its login in one write (one statement on PostgreSQL, with the quota).
      if (device && quotaWithWrite) {
        const { quota, written } = await loginQuota.newLoginIfFits(db, device, login, sub.available_num, now);
        if (!written) {
          assertFits(quota, sub);
          throw new AppError('QUOTA_EXHAUSTED'); // not reached: the same rule
        }
      } else if (device) await writes.write((w) => repo.insertDeviceWithLogin(w, device, login));
      else await writes.write((w) => repo.insertLogin(w, login));
      madeHere.set(loginId, {
        id: loginId,
        company_id: login.company_id,
        api_account_id: login.api_account_id,
        device_id: deviceId,
        expires_at: login.expires_at,
      });
      if (madeHere.size > MADE_HERE_MAX) madeHere.delete(madeHere.keys().next().value!);
      const { qrContent } = await provider.startLogin({ loginId, deviceId, proxy });
      const svg = qrSvg(qrContent);
      return {
        instanceId: loginId,
        deviceId,
        qrUrl: qrContent,
        qrImage: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        expiresIn: Math.round(deps.qrTtlMs / 1000),
      };
    },

    async checkQrCode(caller: ApiCaller, instanceId: string) {
      const { login, account } = await loginWithAccountFor(caller, instanceId);
      return qrStatus(login, account);
    },

    /** Answers when the state differs from `lastState`, or after `waitSeconds`. */
    async checkQrCodeLoop(
      caller: ApiCaller,
      instanceId: string,
      lastState: QrState | undefined,
      waitSeconds: number,
    ) {
      const { login, account } = await loginWithAccountFor(caller, instanceId);
      const first = await qrStatus(login, account);
      if (!lastState || first.state !== lastState || !isActiveQrState(first.state)) return first;
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
      const after = (await repo.findLoginWithAccount(db, instanceId))!;
      return qrStatus(after.login, after.account);
    },

    /** Simulator control: the QR code expires now. */
    async expireQr(caller: ApiCaller, instanceId: string) {
      const login = await loginFor(caller, instanceId);
      if (!(await expire(login.id))) throw new AppError('CONFLICT', '二维码已不是等待中的状态');
    },

    /** The scan page's view of a login (no caller: the page holds the unguessable id). */
    async loginForPhone(loginId: string) {
      const found = await repo.findLoginWithDeviceName(db, loginId);
      if (!found) return null;
      const { device_name, ...login } = found;
      const fresh = await expireIfDue(login);
      return { login: fresh, deviceName: device_name ?? '', expiresIn: secondsLeft(fresh) };
    },

    /** The login a phone acts on, or whose state it reads after acting (expiry applied). */
    async loginForPhoneAction(loginId: string) {
      const login = await repo.findLogin(db, loginId);
      return login ? expireIfDue(login) : null;
    },

    async logout(caller: ApiCaller, wxid: string) {
      const row = await ctx.accountFor(caller, wxid);
      await endSession(row, '主动退出登录');
      return toWxAccount((await repo.findAccountById(db, row.id))!);
    },

    /** Ends QR codes nobody finished and sessions of accounts past their expiry. */
    async sweep(now: number) {
      for (const l of await repo.overdueLogins(db, now)) await expire(l.id, now);
      for (const a of await repo.expiredOnline(db, now)) {
        const row = await repo.findAccountById(db, a.id);
        if (row) await endSession(row, '账号已到期');
      }
    },
  };
}

export type Logins = ReturnType<typeof createLogins>;
