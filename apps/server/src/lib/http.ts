import type { CallDef } from '@wxc/contract';
import { envelopeSchema, OK_CODE } from '@wxc/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { ApiCaller } from '../modules/api-auth/service.js';
import type { AuthContext } from '../modules/auth/sessions.js';
import { AppError } from './errors.js';

export interface CallContext<Input, Auth> {
  input: Input;
  /** The logged-in user; always present unless the call is public. */
  auth: Auth;
  ip: string;
  userAgent: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

type AuthFor<C extends CallDef> = C['auth'] extends 'api'
  ? ApiCaller
  : C['auth'] extends 'public'
    ? AuthContext | null
    : AuthContext;

export interface Authenticators {
  session(req: FastifyRequest): Promise<AuthContext | null>;
  /** Sub-account credentials, or a customer's console session. */
  api(req: FastifyRequest, session: AuthContext | null): Promise<ApiCaller | null>;
}

export interface RouteExtras {
  /** Per-route rate limit (requests per minute per IP); the global limit applies otherwise. */
  rateLimitPerMinute?: number;
}

/**
 * Registers one contract call: the route handler receives parsed input and the caller's identity,
 * returns the `data`, and the envelope is added here. Nothing else belongs in a handler.
 */
export function createRouter(app: FastifyInstance, authenticate: Authenticators) {
  return function route<C extends CallDef>(
    def: C,
    handler: (ctx: CallContext<z.output<C['request']>, AuthFor<C>>) => Promise<z.output<C['response']>>,
    extras: RouteExtras = {},
  ): void {
    const inputKey = def.method === 'GET' ? 'querystring' : 'body';
    const options: RouteShorthandOptions = {
      schema: {
        operationId: def.id,
        tags: [def.tag],
        summary: def.summary,
        ...(def.description ? { description: def.description } : {}),
        ...(def.auth === 'public'
          ? {}
          : def.auth === 'api'
            ? { security: [{ appKey: [], appSecret: [] }, { session: [] }] }
            : { security: [{ session: [] }] }),
        [inputKey]: def.request,
        response: { 200: envelopeSchema(def.response) },
      },
      ...(extras.rateLimitPerMinute
        ? { config: { rateLimit: { max: extras.rateLimitPerMinute, timeWindow: 60_000 } } }
        : {}),
    };
    app.route({
      method: def.method,
      url: def.path,
      ...options,
      handler: async (req, reply) => {
        const session = await authenticate.session(req);
        let auth: AuthContext | ApiCaller | null = session;
        if (def.auth === 'api') {
          auth = await authenticate.api(req, session);
          if (!auth)
            throw new AppError(
              'UNAUTHENTICATED',
              '请登录控制台，或在请求头中提供 API 凭证（x-app-key 与 x-app-secret）',
            );
        } else if (def.auth !== 'public' && !session) {
          throw new AppError('UNAUTHENTICATED');
        }
        if (def.auth === 'admin' && !session?.user.roles.includes('admin')) throw new AppError('FORBIDDEN');
        const input = (def.method === 'GET' ? req.query : req.body) as z.output<C['request']>;
        const data = await handler({
          input,
          auth: auth as AuthFor<C>,
          ip: req.ip,
          userAgent: String(req.headers['user-agent'] ?? '').slice(0, 255),
          req,
          reply,
        });
        return { code: OK_CODE, message: def.successMessage ?? '成功', data: data ?? null };
      },
    });
  };
}

export type Route = ReturnType<typeof createRouter>;
