import type { CallAudience, CallDef, RoleValue } from '@wxc/contract';
import { envelopeSchema, OK_CODE, SUPPORT_VIEW_HEADER } from '@wxc/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { AppError } from './errors.js';

/** API answers (and every error answer) are never stored by browsers or proxies: they carry tokens. */
export const NO_STORE = 'no-store';

/** A console caller (a session), as the routes see it. */
export interface AuthContext {
  sessionId: string;
  user: {
    id: string;
    account: string;
    role: RoleValue;
    roles: RoleValue[];
  };
}

/**
 * Who calls the messaging gateway: a customer's program with a sub-account's credentials (it sees
 * only that sub-account's messaging accounts), or the customer in the console (the whole company).
 */
export interface ApiCaller {
  companyId: string;
  /** Set when the caller used sub-account credentials. */
  subAccountId: string | null;
  /** support: an operator's read-only view of the company (never a write). */
  via: 'credentials' | 'session' | 'support';
}

export interface CallContext<Input, Auth> {
  input: Input;
  /** The logged-in user; always present unless the call is public. */
  auth: Auth;
  ip: string;
  userAgent: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

type AuthFor<C extends CallDef> = C['audience'] extends 'customerOrApi'
  ? ApiCaller
  : C['audience'] extends 'public'
    ? AuthContext | null
    : AuthContext;

export interface Authenticators {
  session(req: FastifyRequest): Promise<AuthContext | null>;
  /** The sub-account behind the request's API credentials, or null when it carries none. */
  credentials(req: FastifyRequest): Promise<ApiCaller | null>;
  /** The customer company an operator's support view names, or null when there is none. */
  company(companyId: string): Promise<{ id: string; account: string } | null>;
  /** Writes one support-view read to the audit log. */
  audit(entry: { operatorId: string; companyId: string; call: string; ip: string }): Promise<void>;
}

const isOperator = (session: AuthContext) => session.user.roles.includes('admin');

/**
 * The one place that decides who may make a call (its contract `audience`). Answers the caller's
 * identity for the handler, or throws "403" (not logged in) / "40300" (logged in, not allowed).
 */
async function admit(
  def: CallDef,
  req: FastifyRequest,
  authenticate: Authenticators,
): Promise<AuthContext | ApiCaller | null> {
  const { audience } = def;
  if (audience === 'customerOrApi') {
    // Credentials win over a session: a program's request is judged by its own credentials.
    const caller = await authenticate.credentials(req);
    if (caller) return caller;
  }
  const session = await authenticate.session(req);
  const viewed = req.headers[SUPPORT_VIEW_HEADER];
  if (viewed !== undefined && !(session && isOperator(session))) {
    throw new AppError('FORBIDDEN', '只有运营账号可以查看其他公司的控制台');
  }
  switch (audience) {
    case 'public':
      return session;
    case 'user':
      if (!session) throw new AppError('UNAUTHENTICATED');
      return session;
    case 'customer':
      if (!session) throw new AppError('UNAUTHENTICATED');
      if (isOperator(session)) return supportView(def, req, session, authenticate);
      return session;
    case 'operator':
      if (!session) throw new AppError('UNAUTHENTICATED');
      if (!isOperator(session)) throw new AppError('FORBIDDEN');
      return session;
    case 'customerOrApi': {
      if (!session)
        throw new AppError(
          'UNAUTHENTICATED',
          '请登录控制台，或在请求头中提供 API 凭证（x-app-key 与 x-app-secret）',
        );
      if (isOperator(session)) {
        const view = await supportView(def, req, session, authenticate);
        return { companyId: view.user.id, subAccountId: null, via: 'support' } satisfies ApiCaller;
      }
      return { companyId: session.user.id, subAccountId: null, via: 'session' } satisfies ApiCaller;
    }
    default: {
      // A new audience must be enforced here before any call can use it.
      const unknown: never = audience;
      throw new Error(`call audience not enforced: ${String(unknown)}`);
    }
  }
}

/**
 * An operator on a customer call: allowed only for the contract's support reads, and only for the
 * company the request names (`x-view-company`). The handler then sees that company as the caller,
 * read-only by construction (writes never get here). Every such read is audited.
 */
async function supportView(
  def: CallDef,
  req: FastifyRequest,
  operator: AuthContext,
  authenticate: Authenticators,
): Promise<AuthContext> {
  const viewed = req.headers[SUPPORT_VIEW_HEADER];
  if (typeof viewed !== 'string' || viewed === '') throw new AppError('FORBIDDEN', CUSTOMERS_ONLY);
  if (!def.supportRead) throw new AppError('FORBIDDEN', '查看客户控制台时为只读：运营账号不能代客户操作');
  const company = await authenticate.company(viewed);
  if (!company) throw new AppError('NOT_FOUND', '要查看的公司不存在');
  await authenticate.audit({ operatorId: operator.user.id, companyId: company.id, call: def.id, ip: req.ip });
  return {
    sessionId: operator.sessionId,
    user: { id: company.id, account: company.account, role: 'customer', roles: ['customer'] },
  };
}

const CUSTOMERS_ONLY = '运营账号不能使用客户功能，请使用客户账号登录';

/** How the OpenAPI document describes who may call. */
function securityOf(audience: CallAudience): { security?: Record<string, string[]>[] } {
  if (audience === 'public') return {};
  if (audience === 'customerOrApi') return { security: [{ appKey: [], appSecret: [] }, { session: [] }] };
  return { security: [{ session: [] }] };
}

/**
 * A route's hooks of one kind as route options hold them (none, one, or a list), with `hook` added
 * first (it must see the request before the route's own) or last: for onRoute hooks that give some
 * routes a hook of their own instead of every request an app-wide one.
 */
export function withRouteHook<H>(hooks: H | H[] | undefined, hook: H, at: 'first' | 'last'): H[] {
  const own = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  return at === 'first' ? [hook, ...own] : [...own, hook];
}

/** Where the route helper keeps the admitted caller between preValidation and the handler. */
const CALLER = Symbol('wxc.caller');

export interface RouteExtras {
  /** Per-route rate limit (requests per minute per IP); the global limit applies otherwise. */
  rateLimitPerMinute?: number;
}

/**
 * Registers one contract call: the route handler receives parsed input and the caller's identity,
 * returns the `data`, and the envelope is added here. Nothing else belongs in a handler.
 */
export function createRouter(app: FastifyInstance, authenticate: Authenticators) {
  // The admitted caller travels on the request itself (a declared decoration: no WeakMap entry per
  // request for the garbage collector to trace).
  app.decorateRequest(CALLER, null);
  const callerOf = (req: FastifyRequest) =>
    (req as unknown as Record<symbol, AuthContext | ApiCaller | null>)[CALLER];
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
        ...securityOf(def.audience),
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
      // Who may call is decided before the input is validated: a caller who may not make the call
      // learns nothing about its parameters.
      preValidation: async (req) => {
        (req as unknown as Record<symbol, unknown>)[CALLER] = await admit(def, req, authenticate);
      },
      handler: async (req, reply) => {
        const auth = callerOf(req) ?? null;
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
