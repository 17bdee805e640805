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
import type { ApiCaller } from '../../lib/http.js';
import type { SubAccountDirectory } from '../api-accounts/service.js';
import { bodyDigestOf, isSignedRequest } from './body-digest.js';
import * as repo from './repo.js';

export { bodyDigest, installBodyDigest } from './body-digest.js';

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

export interface SignatureParts {
  /** The HTTP method, upper case (`POST`). */
  method: string;
  /** The call's path as the API reference names it, without the query (`/api/msg/sendMsgText`). */
  path: string;
  appKey: string;
  timestamp: string;
  nonce: string;
  /** hex(SHA-256) of the exact body bytes (of nothing, for an empty body). */
  bodySha256: string;
}

/**
 * What a signed request signs, one per line: method, path, appKey, timestamp, nonce and the body's
 * SHA-256. Method and path bind the signature to one call: a signed body cannot be replayed to another.
 */
export const stringToSign = (p: SignatureParts) =>
  `${p.method}\n${p.path}\n${p.appKey}\n${p.timestamp}\n${p.nonce}\n${p.bodySha256}`;

/** hex(HMAC-SHA256(key = hex(SHA-256(appSecret)), stringToSign)); the key is the stored secret hash. */
export function signRequest(secretHash: string, parts: SignatureParts) {
  return createHmac('sha256', secretHash).update(stringToSign(parts)).digest('hex');
}

export interface ApiAuthOptions {
  /**
   * Refuse the secret-in-a-header scheme unless the request came over HTTPS (`req.protocol`, which
   * follows X-Forwarded-Proto behind TRUST_PROXY). On in production; the signed scheme is unaffected.
   */
  secretNeedsHttps: boolean;
}

export interface ApiAuthDeps {
  db: Kysely<DB>;
  /** The sub-account behind an appKey, and its company's IP allow-list. */
  accounts: Pick<SubAccountDirectory, 'byAppKey' | 'getCompanyConfig'>;
}

export function createApiAuth(
  { db, accounts }: ApiAuthDeps,
  options: ApiAuthOptions = { secretNeedsHttps: false },
) {
  /**
   * Credentials, two schemes (see the API reference):
   * - simple: `x-app-key` + `x-app-secret`, over HTTPS only in production;
   * - signed: `x-app-key`, `x-timestamp` (unix s), `x-nonce`, `x-signature` = hex(HMAC-SHA256(
   *   key = hex(SHA-256(appSecret)), METHOD \n path \n appKey \n timestamp \n nonce \n hex(SHA-256(body bytes))));
   *   a nonce is accepted once. The body digest is taken before parsing (body-digest.ts), so it
   *   covers uploads too.
   */
  async function activeAccount(appKey: string) {
    const row = await accounts.byAppKey(appKey);
    if (row?.status !== 'active') throw new AppError('UNAUTHENTICATED', 'API 凭证无效或子账号已回收');
    return row;
  }

  /** The signature headers, well-formed and fresh. */
  function signatureHeaders(req: FastifyRequest) {
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
    return { timestamp, nonce, signature };
  }

  async function fromCredentials(req: FastifyRequest, appKey: string): Promise<ApiCaller> {
    const secret = header(req, API_SECRET_HEADER);
    if (secret !== undefined && options.secretNeedsHttps && req.protocol !== 'https') {
      // Checked first: over plain http the answer must not tell a right secret from a wrong one.
      throw new AppError(
        'UNAUTHENTICATED',
        'x-app-secret 只能通过 HTTPS 发送：请改用 https 地址，或改用签名方式（x-timestamp、x-nonce、x-signature，密钥不上传），并尽快重置已明文发送过的 appSecret',
      );
    }
    const row = await activeAccount(appKey);
    if (secret !== undefined) {
      if (!safeEqual(sha256(secret), row.secret_hash))
        throw new AppError('UNAUTHENTICATED', 'API 凭证无效或子账号已回收');
    } else {
      const { timestamp, nonce, signature } = signatureHeaders(req);
      const bodySha256 = bodyDigestOf(req);
      if (bodySha256 === undefined || !isSignedRequest(req)) {
        throw new Error('signed request without a body digest: installBodyDigest(app) is missing');
      }
      // The route's own path (as the reference names it), not the raw URL: /%61pi/… signs as /api/….
      const path = req.routeOptions.url ?? req.url.split('?')[0]!;
      const expected = signRequest(row.secret_hash, {
        method: req.method,
        path,
        appKey,
        timestamp,
        nonce,
        bodySha256,
      });
      if (!safeEqual(expected, signature.toLowerCase())) throw new AppError('UNAUTHENTICATED', '签名错误');
      if (!(await repo.useNonce(db, appKey, nonce, Date.now())))
        throw new AppError('UNAUTHENTICATED', '重复的请求（nonce 已使用）');
    }
    const list = (await accounts.getCompanyConfig(row.company_id)).ipAllowlist;
    if (list.length > 0 && !ipAllowed(req.ip, list)) {
      throw new AppError('FORBIDDEN', `来源 IP ${req.ip} 不在 API 白名单内`);
    }
    return { companyId: row.company_id, subAccountId: row.id, via: 'credentials' };
  }

  return {
    /** A signed request's checks that need no body (body-digest.ts runs them before reading it). */
    async precheckSigned(req: FastifyRequest): Promise<void> {
      await activeAccount(header(req, API_KEY_HEADER) ?? '');
      signatureHeaders(req);
    },

    /**
     * The sub-account behind a request's API credentials, or null when it carries none (the route
     * helper then falls back to the console session; who may call is decided there).
     */
    async fromCredentials(req: FastifyRequest): Promise<ApiCaller | null> {
      const appKey = header(req, API_KEY_HEADER);
      return appKey ? fromCredentials(req, appKey) : null;
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
