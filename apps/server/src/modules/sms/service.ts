import {
  DAY_MS,
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_ATTEMPTS,
  SMS_CODE_TTL_MS,
  SMS_DAILY_LIMIT_PER_PHONE,
  SMS_HOURLY_LIMIT_PER_IP,
  SMS_RESEND_SECONDS,
  type SmsScene,
} from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { newId, randomDigits, safeEqual, sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { withLock } from '../../lib/lock.js';
import type { SmsProvider } from './provider.js';
import * as repo from './repo.js';

const hashCode = (id: string, code: string) => sha256(`${id}:${code}`);

export interface SmsService {
  send(phone: string, scene: SmsScene, ip: string): Promise<{ resendAfter: number; expiresIn: number }>;
  /** Accepts the latest code sent to `phone` for `scene` once; wrong entries count and burn it. */
  verify(phone: string, scene: SmsScene, code: string): Promise<void>;
}

export function createSmsService(db: Kysely<DB>, provider: SmsProvider): SmsService {
  return {
    async send(phone, scene, ip) {
      const code = randomDigits(SMS_CODE_LENGTH);
      // The limits are checked and the code recorded under one lock per number, so a double click
      // sends one SMS.
      await withLock(db, `sms:${phone}`, async (trx) => {
        const now = Date.now();
        const last = await repo.lastSentTo(trx, phone);
        const wait = last ? Math.ceil((last.created_at + SMS_RESEND_SECONDS * 1000 - now) / 1000) : 0;
        if (wait > 0) throw new AppError('SMS_TOO_FREQUENT', `验证码发送过于频繁，请 ${wait} 秒后再试`);
        if ((await repo.countSince(trx, 'phone', phone, now - DAY_MS)) >= SMS_DAILY_LIMIT_PER_PHONE) {
          throw new AppError('SMS_DAILY_LIMIT');
        }
        if ((await repo.countSince(trx, 'ip', ip, now - 3_600_000)) >= SMS_HOURLY_LIMIT_PER_IP) {
          throw new AppError('SMS_TOO_FREQUENT', '当前网络发送验证码过于频繁，请 1 小时后再试');
        }
        const id = newId();
        await repo.insert(trx, {
          id,
          phone,
          scene,
          ip,
          code_hash: hashCode(id, code),
          expires_at: now + SMS_CODE_TTL_MS,
          consumed_at: null,
          created_at: now,
        });
      });
      await provider.sendCode(phone, scene, code);
      return { resendAfter: SMS_RESEND_SECONDS, expiresIn: SMS_CODE_TTL_MS / 1000 };
    },

    async verify(phone, scene, code) {
      const now = Date.now();
      const row = await repo.latest(db, phone, scene);
      if (!row) throw new AppError('SMS_CODE_INVALID', '请先获取短信验证码');
      if (row.consumed_at !== null)
        throw new AppError('SMS_CODE_EXPIRED', '短信验证码已使用或已失效，请重新获取');
      if (row.expires_at <= now) throw new AppError('SMS_CODE_EXPIRED');
      if (!safeEqual(row.code_hash, hashCode(row.id, code))) {
        await repo.countWrongAttempt(db, row.id, SMS_CODE_MAX_ATTEMPTS, now);
        const left = SMS_CODE_MAX_ATTEMPTS - row.attempts - 1;
        throw left > 0
          ? new AppError('SMS_CODE_INVALID', `短信验证码错误，还可尝试 ${left} 次`)
          : new AppError('SMS_CODE_EXPIRED', '短信验证码错误次数过多，请重新获取');
      }
      if (!(await repo.consume(db, row.id, now))) throw new AppError('SMS_CODE_EXPIRED');
    },
  };
}
