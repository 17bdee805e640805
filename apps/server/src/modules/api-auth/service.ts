import { createHmac } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import {
  API_KEY_HEADER,
  API_NONCE_HEADER,
  API_SECRET_HEADER,
  API_SIGNATURE_HEADER,
  API_SIGNATURE_WINDOW_SECONDS,
  API_TIMESTAMP_HEADER,
} from '@wxc/contract';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { safeEqual, sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import * as accounts from '../api-accounts/repo.js';
import type { AuthContext } from '../auth/sessions.js';
import * as repo from './repo.js';

/**
 * Who calls the messaging gateway: a customer's program with a sub-account's credentials (it sees
 * only that sub-account's messaging accounts), or the customer in the console (the whole company).
 */
export interface ApiCaller {
  companyId: string;
  /** Set when the caller used sub-account credentials. */
  subAccountId: string | null;
  via: 'credentials' | 'session';
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

export function signRequest(
  secretHash: string,
  parts: { appKey: string; timestamp: string; nonce: string; body: string },
) {
  return createHmac('sha256', secretHash)
    .update(`${parts.appKey}\n${parts.timestamp}\n${parts.nonce}\n${parts.body}`)
    .digest('hex');
}

export function createApiAuth(db: Kysely<DB>) {
  /**
   * Credentials, two schemes (see the API reference):
   * - simple: `x-app-key` + `x-app-secret` (over HTTPS);
   * - signed: `x-app-key`, `x-timestamp` (unix s), `x-nonce`, `x-signature` = hex(HMAC-SHA256(
   *   key = hex(SHA-256(appSecret)), appKey \n timestamp \n nonce \n rawBody)); a nonce is accepted once.
   */
  async function fromCredentials(req: FastifyRequest, appKey: string): Promise<ApiCaller> {
    const row = await accounts.findByAppKey(db, appKey);
    if (row?.status !== 'active') throw new AppError('UNAUTHENTICATED', 'API 凭证无效或子账号已回收');
    const secret = header(req, API_SECRET_HEADER);
    if (secret !== undefined) {
      if (!safeEqual(sha256(secret), row.secret_hash))
        throw new AppError('UNAUTHENTICATED', 'API 凭证无效或子账号已回收');
    } else {
      const timestamp = header(req, API_TIMESTAMP_HEADER) ?? '';
      const nonce = header(req, API_NONCE_HEADER) ?? '';
      const signature = header(req, API_SIGNATURE_HEADER) ?? '';
      if (!/^\d{10}$/.test(timestamp) || !/^[\w-]{8,64}$/.test(nonce) || !signature) {
        throw new AppError(
          'UNAUTHENTICATED',
          '缺少 x-app-secret，或签名所需的 x-timestamp / x-nonce / x-signature',
        );
      }
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > API_SIGNATURE_WINDOW_SECONDS) {
        throw new AppError('UNAUTHENTICATED', '请求时间戳与服务器时间相差超过 5 分钟');
      }
      const body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? {});
      const rawBody = (req as { rawBody?: string }).rawBody ?? body;
      const expected = signRequest(row.secret_hash, { appKey, timestamp, nonce, body: rawBody });
      if (!safeEqual(expected, signature.toLowerCase())) throw new AppError('UNAUTHENTICATED', '签名错误');
      if (!(await repo.useNonce(db, appKey, nonce, Date.now())))
        throw new AppError('UNAUTHENTICATED', '重复的请求（nonce 已使用）');
    }
    const allow = await accounts.findSettings(db, row.company_id);
    const list = allow ? (JSON.parse(allow.ip_allowlist) as string[]) : [];
    if (list.length > 0 && !ipAllowed(req.ip, list)) {
      throw new AppError('FORBIDDEN', `来源 IP ${req.ip} 不在 API 白名单内`);
    }
    return { companyId: row.company_id, subAccountId: row.id, via: 'credentials' };
  }

  return {
    /** The API caller of a request, or null when it carries neither credentials nor a session. */
    async resolve(req: FastifyRequest, session: AuthContext | null): Promise<ApiCaller | null> {
      const appKey = header(req, API_KEY_HEADER);
      if (appKey) return fromCredentials(req, appKey);
      if (!session) return null;
      if (session.user.role !== 'customer') throw new AppError('FORBIDDEN', '运营账号不能调用消息接口');
      return { companyId: session.user.id, subAccountId: null, via: 'session' };
    },
  };
}

export type ApiAuth = ReturnType<typeof createApiAuth>;

export function ipAllowed(ip: string, allowlist: string[]): boolean {
  const list = new BlockList();
  for (const entry of allowlist) {
    const [net, bits] = entry.split('/');
    if (!net || isIP(net) !== 4) continue;
    if (bits === undefined) list.addAddress(net, 'ipv4');
    else list.addSubnet(net, Number(bits), 'ipv4');
  }
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return isIP(v4) === 4 && list.check(v4, 'ipv4');
}
