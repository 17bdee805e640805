import {
  LOGIN_FAILURE_WINDOW_MS,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_IP,
  type SmsScene,
  type UserInfo,
} from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB, User, UserUpdate } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { AuthContext } from '../../lib/http.js';
import type { AuditService } from '../audit/service.js';
import type { CaptchaService } from '../captcha/service.js';
import type { SettingsService } from '../settings/service.js';
import type { SmsService } from '../sms/service.js';
import { type AuthCache, cachedUserOf } from './cache.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';
import * as repo from './repo.js';
import { type SessionService, toUserInfo } from './sessions.js';

export interface AuthDeps {
  db: Kysely<DB>;
  serverFlag: string;
  captcha: CaptchaService;
  sms: SmsService;
  sessions: SessionService;
  settings: SettingsService;
  audit: AuditService;
  /** In-process copies of users (and sessions); every user update here is announced through it. */
  cache: AuthCache;
}

interface Origin {
  ip: string;
  userAgent: string;
}

export interface RegisterInput {
  extAccountType: number;
  companyName: string;
  companyAccount: string;
  password: string;
  verifyCode: string;
}

export type ResetPasswordInput =
  | { companyAccount: string; verifyCode: string; password: string }
  | { oldPassword: string; password: string };

export function createAuthService(deps: AuthDeps) {
  const { db, captcha, sms, sessions, settings, audit, cache } = deps;
  const info = (user: User): UserInfo => toUserInfo(user, deps.serverFlag);

  /** Every update of a user row goes through here: cached copies everywhere are dropped once it is written. */
  async function updateUser(id: string, patch: UserUpdate) {
    await repo.updateUser(db, id, patch);
    await cache.changed({ users: [id] });
  }

  async function requireUser(id: string): Promise<User> {
    const user = await repo.findUserById(db, id);
    if (!user) throw new AppError('UNAUTHENTICATED');
    return user;
  }

  /**
   * Takes one password check for this account and address, or refuses with LOGIN_LOCKED. Atomic
   * across requests and processes: the attempt is written first (as a failure, until the password
   * proves right) and then counted with the others, so however many arrive at once, at most the
   * allowed number see a count within the limit and get their password checked. Returns the
   * attempt's id; a refused attempt is taken back (the lock runs from the real failures).
   */
  async function takeAttempt(account: string, ip: string, now: number): Promise<string> {
    const id = newId();
    await repo.insertLoginFailure(db, { id, account, ip, created_at: now });
    const since = now - LOGIN_FAILURE_WINDOW_MS;
    for (const [by, value, max] of [
      ['account', account, LOGIN_MAX_FAILURES_PER_ACCOUNT],
      ['ip', ip, LOGIN_MAX_FAILURES_PER_IP],
    ] as const) {
      const { count, first } = await repo.countLoginFailures(db, by, value, since);
      // `count` includes this attempt: it may be the max-th, not one more.
      if (count > max && first !== null) {
        await repo.deleteLoginFailure(db, id);
        const minutes = Math.max(1, Math.ceil((first + LOGIN_FAILURE_WINDOW_MS - now) / 60_000));
        throw new AppError(
          'LOGIN_LOCKED',
          by === 'account'
            ? `密码错误次数过多，账号已锁定，请 ${minutes} 分钟后再试`
            : `当前网络登录失败次数过多，请 ${minutes} 分钟后再试`,
        );
      }
    }
    return id;
  }

  return {
    async sendSms(phone: string, scene: SmsScene, origin: Origin, auth: AuthContext | null) {
      const existing = await repo.findUserByAccount(db, phone);
      if (scene === 'register') {
        if (!(await settings.isOn('autoRegister'))) throw new AppError('REGISTRATION_CLOSED');
        if (existing) throw new AppError('ACCOUNT_EXISTS');
      } else if (scene === 'resetPassword') {
        if (existing?.role !== 'customer') throw new AppError('PHONE_NOT_REGISTERED');
      } else {
        if (!auth) throw new AppError('UNAUTHENTICATED');
        if (existing)
          throw new AppError(
            'ACCOUNT_EXISTS',
            existing.id === auth.user.id ? '新手机号不能与当前手机号相同' : '该手机号已被其他账号使用',
          );
      }
      return sms.send(phone, scene, origin.ip);
    },

    async register(input: RegisterInput, origin: Origin) {
      if (!(await settings.isOn('autoRegister'))) throw new AppError('REGISTRATION_CLOSED');
      if (await repo.findUserByAccount(db, input.companyAccount)) throw new AppError('ACCOUNT_EXISTS');
      await sms.verify(input.companyAccount, 'register', input.verifyCode);
      const now = Date.now();
      const user: User = {
        id: newId(),
        account: input.companyAccount,
        password_hash: await hashPassword(input.password),
        role: 'customer',
        company_name: input.companyName,
        user_name: input.companyAccount,
        account_type: input.extAccountType,
        real_name_status: 0,
        status: 'active',
        created_at: now,
        updated_at: now,
      };
      try {
        await repo.insertUser(db, user);
      } catch (err) {
        // Two registrations of one number at once: the unique index decides.
        if (await repo.findUserByAccount(db, input.companyAccount)) throw new AppError('ACCOUNT_EXISTS');
        throw err;
      }
      await audit.record({
        userId: user.id,
        action: 'register',
        ip: origin.ip,
        detail: { accountType: user.account_type },
      });
      const token = await sessions.create(user.id, origin.ip, origin.userAgent);
      return { token, userInfo: info(user) };
    },

    async login(
      input: { companyAccount: string; password: string; captchaId: string; captchaCode: string },
      origin: Origin,
    ) {
      await captcha.consume(input.captchaId, input.captchaCode);
      const now = Date.now();
      const attempt = await takeAttempt(input.companyAccount, origin.ip, now);
      const user = await repo.findUserByAccount(db, input.companyAccount);
      const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
      // A wrong password: the attempt stays written as the failure it is.
      if (!user || !ok) throw new AppError('LOGIN_FAILED');
      await repo.deleteLoginFailure(db, attempt);
      if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED');
      await repo.clearLoginFailures(db, user.account);
      const token = await sessions.create(user.id, origin.ip, origin.userAgent);
      await audit.record({ userId: user.id, action: 'login', ip: origin.ip });
      return { token, userInfo: info(user) };
    },

    async logout(auth: AuthContext, origin: Origin) {
      await sessions.revoke(auth.sessionId);
      await audit.record({ userId: auth.user.id, action: 'logout', ip: origin.ip });
    },

    async userInfo(auth: AuthContext) {
      const now = Date.now();
      const cached = cache.user(auth.user.id, now);
      if (cached) return toUserInfo(cached, deps.serverFlag);
      const generation = cache.generation();
      const user = await requireUser(auth.user.id);
      cache.keepUser(generation, cachedUserOf(user), now);
      return info(user);
    },

    async resetPassword(input: ResetPasswordInput, auth: AuthContext | null, origin: Origin) {
      let user: User;
      if ('oldPassword' in input) {
        if (!auth) throw new AppError('UNAUTHENTICATED', '请先登录，或通过短信验证码找回密码');
        user = await requireUser(auth.user.id);
        if (!(await verifyPassword(user.password_hash, input.oldPassword)))
          throw new AppError('OLD_PASSWORD_WRONG');
      } else {
        const found = await repo.findUserByAccount(db, input.companyAccount);
        if (found?.role !== 'customer') throw new AppError('PHONE_NOT_REGISTERED');
        await sms.verify(input.companyAccount, 'resetPassword', input.verifyCode);
        user = found;
      }
      const now = Date.now();
      await updateUser(user.id, {
        password_hash: await hashPassword(input.password),
        updated_at: now,
      });
      await repo.clearLoginFailures(db, user.account);
      // Everyone else holding this account's sessions is signed out; the caller keeps theirs.
      const keep = auth && auth.user.id === user.id ? auth.sessionId : undefined;
      await sessions.revokeAllOf(user.id, keep);
      await audit.record({
        userId: user.id,
        action: 'password.reset',
        ip: origin.ip,
        detail: { by: 'oldPassword' in input ? 'oldPassword' : 'sms' },
      });
    },

    async updateCompanyInfo(auth: AuthContext, companyName: string, origin: Origin) {
      await updateUser(auth.user.id, { company_name: companyName, updated_at: Date.now() });
      await audit.record({
        userId: auth.user.id,
        action: 'company.update',
        ip: origin.ip,
        detail: { companyName },
      });
      return info(await requireUser(auth.user.id));
    },

    async modUserName(auth: AuthContext, userName: string, origin: Origin) {
      await updateUser(auth.user.id, { user_name: userName, updated_at: Date.now() });
      await audit.record({
        userId: auth.user.id,
        action: 'user.rename',
        ip: origin.ip,
        detail: { userName },
      });
      return info(await requireUser(auth.user.id));
    },

    async changePhone(auth: AuthContext, phone: string, verifyCode: string, origin: Origin) {
      const current = await requireUser(auth.user.id);
      const taken = await repo.findUserByAccount(db, phone);
      if (taken) {
        throw new AppError(
          'ACCOUNT_EXISTS',
          taken.id === current.id ? '新手机号不能与当前手机号相同' : '该手机号已被其他账号使用',
        );
      }
      await sms.verify(phone, 'changePhone', verifyCode);
      try {
        await repo.updateUser(db, current.id, { account: phone, updated_at: Date.now() });
      } catch (err) {
        if (await repo.findUserByAccount(db, phone))
          throw new AppError('ACCOUNT_EXISTS', '该手机号已被其他账号使用');
        throw err;
      }
      await cache.changed({ users: [current.id] });
      await sessions.revokeAllOf(current.id, auth.sessionId);
      await audit.record({
        userId: current.id,
        action: 'phone.change',
        ip: origin.ip,
        detail: { from: current.account, to: phone },
      });
      return info(await requireUser(current.id));
    },

    isAutoRegisterOpen: () => settings.isOn('autoRegister'),

    async setAutoRegister(auth: AuthContext, open: boolean, origin: Origin) {
      await settings.setSwitch('autoRegister', open);
      await audit.record({
        userId: auth.user.id,
        action: 'settings.autoRegister',
        ip: origin.ip,
        detail: { open },
      });
      return open;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
