import {
  ErrorCatalogue,
  SHOWCASE_CODES,
  type ShowcaseCallDef,
  type ShowcaseCodeName,
  showcaseCalls,
  showcaseEnvelopeSchema,
} from '@wxc/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { isPoolWaitTimeout } from '../../db/index.js';
import { AppError } from '../../lib/errors.js';
import { type AuthContext, NO_STORE } from '../../lib/http.js';
import { RequestValidationError } from '../../lib/validation.js';
import { readFileField } from '../files/upload.js';
import { ShowcaseError, type ShowcaseService } from './service.js';

/** Every showcase address is under this (the template's mock prefix). */
export const SHOWCASE_PREFIX = '/vue-element-admin';

export interface ShowcaseRouteOptions {
  /** config.showcase: when off, every address under the prefix answers 404. */
  enabled: boolean;
  /** The console session of a request (the product's own sessions), or null. */
  session: (req: FastifyRequest) => Promise<AuthContext | null>;
  /** Requests per minute per IP and address (the product's API limit). */
  rateLimitPerMinute: number;
}

/** How the template's answers read in the OpenAPI document (the product's envelope is described there). */
const PROTOCOL_NOTE =
  '模板协议（不同于产品接口）：成功答 `{ code: 20000, data }`（code 为数字）；失败答 `{ code, message }`，如 40000 参数错误、40400 不存在、40900 冲突、50008 令牌无效、50012 已在别处登录、50014 令牌或登录过期、60204 账号或密码错误。需要控制台登录（Authorization）。';

const failure = (name: ShowcaseCodeName, message?: string) => ({
  code: SHOWCASE_CODES[name].code,
  message: message ?? SHOWCASE_CODES[name].message,
});

/** The code of our own class for a product AppError (none is expected here; kept total). */
function showcaseNameOf(status: number): ShowcaseCodeName {
  if (status === 401) return 'TOKEN_EXPIRED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'TOO_MANY_REQUESTS';
  return status < 500 ? 'BAD_INPUT' : 'INTERNAL';
}

/**
 * The showcase's own error handler (its addresses only): every failure becomes the template's
 * `{ code, message }` with the HTTP status of its class. The product's handler (lib/error-handler.ts)
 * keeps the product's envelope everywhere else.
 */
function showcaseErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const send = (status: number, body: { code: number; message: string }) => reply.status(status).send(body);
  if (err instanceof ShowcaseError) return send(err.status, failure(err.codeName, err.message));
  if (err instanceof RequestValidationError) return send(400, failure('BAD_INPUT', err.message));
  if (err instanceof AppError) {
    const name = showcaseNameOf(err.status);
    return send(SHOWCASE_CODES[name].status, failure(name, err.message));
  }
  if (err.statusCode === 429) return send(429, failure('TOO_MANY_REQUESTS'));
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
    return send(413, failure('BAD_INPUT', '请求内容过大'));
  }
  if (err.code?.startsWith('FST_ERR_CTP_') || err.code === 'FST_ERR_VALIDATION' || err.statusCode === 400) {
    const message = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? '不支持的请求内容类型' : '请求体格式错误';
    return send(
      err.statusCode && err.statusCode > 400 && err.statusCode < 500 ? err.statusCode : 400,
      failure('BAD_INPUT', message),
    );
  }
  if (typeof err.statusCode === 'number' && err.statusCode > 400 && err.statusCode < 500) {
    return send(err.statusCode, failure('BAD_INPUT', '请求格式错误'));
  }
  if (isPoolWaitTimeout(err) || err.code === 'SQLITE_BUSY') {
    req.log.warn({ err: err.message }, 'database busy: answered 503');
    return reply.header('retry-after', '1').status(503).send(failure('BUSY'));
  }
  req.log.error({ err }, 'unhandled error');
  return send(500, failure('INTERNAL', `${SHOWCASE_CODES.INTERNAL.message}（请求编号 ${req.id}）`));
}

/** Where the showcase keeps the caller's company between preValidation and the handler. */
const COMPANY = Symbol('wxc.showcase.company');

interface ShowcaseContext<Input, Params> {
  input: Input;
  params: Params;
  /** The caller's company: a customer's own id, or an operator's own id. */
  companyId: string;
  req: FastifyRequest;
}

type ParamsOf<C extends ShowcaseCallDef> = [NonNullable<C['params']>] extends [z.ZodType]
  ? z.output<NonNullable<C['params']>>
  : undefined;

/**
 * The showcase's route helper, the counterpart of lib/http.ts's `route` for the template protocol:
 * admits a logged-in console user (before the input is looked at), validates the path parameters,
 * query or body with the call's zod schemas (the app's validator compiler: a failure names the
 * field), calls the handler with the caller's company, and answers `{ code: 20000, data }`
 * serialized through the call's response schema (the app's serializer compiler), so nothing
 * undeclared leaves the service.
 */
function createShowcaseRouter(scope: FastifyInstance, opts: ShowcaseRouteOptions) {
  scope.decorateRequest(COMPANY, null);
  return function route<C extends ShowcaseCallDef>(
    def: C,
    handler: (
      ctx: ShowcaseContext<z.output<C['request']>, ParamsOf<C>>,
    ) => Promise<z.output<C['response']>> | z.output<C['response']>,
  ): void {
    if (!def.path.startsWith(`${SHOWCASE_PREFIX}/`))
      throw new Error(`showcase call outside ${SHOWCASE_PREFIX}: ${def.path}`);
    const inQuery = def.method === 'GET' || def.method === 'DELETE';
    scope.route({
      method: def.method,
      url: def.path.slice(SHOWCASE_PREFIX.length),
      schema: {
        operationId: def.id,
        tags: [def.tag],
        summary: def.summary,
        description: def.description ? `${def.description}\n\n${PROTOCOL_NOTE}` : PROTOCOL_NOTE,
        security: [{ session: [] }],
        ...(def.params ? { params: def.params } : {}),
        [inQuery ? 'querystring' : 'body']: def.request,
        response: { 200: showcaseEnvelopeSchema(def.response) },
      },
      // Counted like the product's API calls (the app's limiter lets every non-/api address through).
      config: { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000, exempt: () => false } },
      preValidation: async (req) => {
        const session = await opts.session(req);
        if (!session) throw new ShowcaseError('TOKEN_EXPIRED', ErrorCatalogue.UNAUTHENTICATED.message);
        (req as unknown as Record<symbol, unknown>)[COMPANY] = session.user.id;
      },
      handler: async (req) => {
        const data = await handler({
          input: (inQuery ? req.query : req.body) as z.output<C['request']>,
          params: req.params as ParamsOf<C>,
          companyId: (req as unknown as Record<symbol, string>)[COMPANY] as string,
          req,
        });
        return { code: SHOWCASE_CODES.OK.code, data };
      },
    });
  };
}

/**
 * `/vue-element-admin/*` (DESIGN.md §10): the template's endpoints in its own protocol, in a scope of
 * their own (error handler, 404, no-store). With SHOWCASE off only the 404 is there.
 */
export function registerShowcaseRoutes(
  app: FastifyInstance,
  showcase: ShowcaseService,
  opts: ShowcaseRouteOptions,
) {
  app.register(
    async (scope) => {
      scope.setErrorHandler(showcaseErrorHandler);
      scope.setNotFoundHandler((req, reply) => {
        reply.header('cache-control', NO_STORE);
        return reply
          .status(404)
          .send(failure('NOT_FOUND', `接口不存在：${req.method} ${req.url.split('?')[0]}`));
      });
      // Tokens and company data: never stored by browsers or proxies.
      scope.addHook('onSend', (_req, reply, payload, done) => {
        reply.header('cache-control', NO_STORE);
        done(null, payload);
      });
      if (!opts.enabled) return;

      const route = createShowcaseRouter(scope, opts);
      const c = showcaseCalls;
      route(c.login, ({ input, companyId }) => showcase.login(companyId, input));
      route(c.userInfo, ({ input, companyId }) => showcase.info(companyId, input.token));
      route(c.logout, ({ input, companyId, req }) => {
        // The template sends the token in the X-Token header; a body `token` is taken too.
        const header = req.headers['x-token'];
        const token =
          input.token ?? (typeof header === 'string' && header.length <= 512 ? header : undefined);
        return showcase.logout(companyId, token);
      });
      route(c.articleList, ({ input, companyId }) => showcase.listArticles(companyId, input));
      route(c.articleDetail, ({ input, companyId }) => showcase.articleDetail(companyId, input.id));
      route(c.articlePv, ({ input }) => showcase.articlePv(input.pv));
      route(c.articleCreate, ({ input, companyId }) => showcase.createArticle(companyId, input));
      route(c.articleUpdate, ({ input, companyId }) => showcase.updateArticle(companyId, input));
      route(c.searchUser, ({ input, companyId }) => showcase.searchUser(companyId, input.name));
      route(c.transactionList, ({ companyId }) => showcase.transactions(companyId));
      route(c.routes, () => showcase.routes());
      route(c.roles, ({ companyId }) => showcase.roles(companyId));
      route(c.roleCreate, ({ input, companyId }) => showcase.createRole(companyId, input));
      route(c.roleUpdate, ({ input, params, companyId }) =>
        showcase.updateRole(companyId, params.key, input),
      );
      route(c.roleDelete, ({ params, companyId }) => showcase.deleteRole(companyId, params.key));
      route(c.upload, async ({ companyId, req }) =>
        showcase.upload(companyId, await readFileField(req, c.SHOWCASE_UPLOAD_MAX_BYTES)),
      );
      route(c.avatar, ({ companyId }) => showcase.avatar(companyId));
      route(c.avatarUpdate, ({ input, companyId }) => showcase.updateAvatar(companyId, input.fileId));
      route(c.kanban, ({ companyId }) => showcase.kanban(companyId));
      route(c.kanbanSave, ({ input, companyId }) => showcase.saveKanban(companyId, input));
    },
    { prefix: SHOWCASE_PREFIX },
  );
}
