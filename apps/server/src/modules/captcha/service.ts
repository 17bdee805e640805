import { CAPTCHA_LENGTH, CAPTCHA_MAX_CHECKS, CAPTCHA_TTL_MS } from '@wxc/contract';
import type { Kysely } from 'kysely';
import svgCaptcha from 'svg-captcha';
import type { DB } from '../../db/schema.js';
import { newId, safeEqual, sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './repo.js';

// Characters people confuse (0/o, 1/l/i) are left out.
const CAPTCHA_OPTIONS = {
  size: CAPTCHA_LENGTH,
  ignoreChars: '0oO1ilI',
  noise: 2,
  color: true,
  background: '#f2f4f8',
  width: 110,
  height: 40,
};

const hashCode = (id: string, code: string) => sha256(`${id}:${code.trim().toLowerCase()}`);

export interface CaptchaService {
  issue(): Promise<{ captchaId: string; image: string }>;
  /** Checks without consuming; too many wrong checks burn the captcha. */
  check(captchaId: string, code: string): Promise<void>;
  /** Checks and consumes, right or wrong: a captcha answers one guarded call. */
  consume(captchaId: string, code: string): Promise<void>;
}

/** Makes the captcha's text and picture; tests pass their own to know the answer. */
export type CaptchaGenerator = () => { text: string; data: string };
const svgGenerator: CaptchaGenerator = () => svgCaptcha.create(CAPTCHA_OPTIONS);

export function createCaptchaService(
  db: Kysely<DB>,
  fixedCode: string | undefined,
  generate: CaptchaGenerator = svgGenerator,
): CaptchaService {
  const isFixed = (code: string) =>
    fixedCode !== undefined && safeEqual(code.trim().toLowerCase(), fixedCode.toLowerCase());

  return {
    async issue() {
      const { text, data } = generate();
      const id = newId();
      const now = Date.now();
      await repo.insert(db, {
        id,
        code_hash: hashCode(id, text),
        expires_at: now + CAPTCHA_TTL_MS,
        used_at: null,
        created_at: now,
      });
      return { captchaId: id, image: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}` };
    },

    async check(captchaId, code) {
      if (isFixed(code)) return;
      const row = await repo.findUsable(db, captchaId, Date.now());
      if (row && safeEqual(row.code_hash, hashCode(captchaId, code))) return;
      if (row) await repo.countWrongCheck(db, captchaId, CAPTCHA_MAX_CHECKS, Date.now());
      throw new AppError('CAPTCHA_INVALID');
    },

    async consume(captchaId, code) {
      if (isFixed(code)) return;
      const hash = await repo.takeUsable(db, captchaId, Date.now());
      if (!hash || !safeEqual(hash, hashCode(captchaId, code))) throw new AppError('CAPTCHA_INVALID');
    },
  };
}
