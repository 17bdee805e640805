import { ErrorCatalogue } from '@wxc/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './errors.js';
import { RequestValidationError } from './validation.js';

const envelope = (code: string, message: string) => ({ code, message, data: null });

/**
 * The one place where failures become answers. Known failures keep their code and message;
 * anything unexpected is logged in full and answered with "500" and the request id only.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).send(envelope(err.code, err.message));
    }
    if (err instanceof RequestValidationError) {
      return reply.status(400).send(envelope(ErrorCatalogue.BAD_REQUEST.code, err.message));
    }
    if (err.statusCode === 429) {
      const { code, message } = ErrorCatalogue.TOO_MANY_REQUESTS;
      return reply.status(429).send(envelope(code, message));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.status(413).send(envelope(ErrorCatalogue.BAD_REQUEST.code, '请求内容过大'));
    }
    if (err.code?.startsWith('FST_ERR_CTP_') || err.code === 'FST_ERR_VALIDATION' || err.statusCode === 400) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? '不支持的请求内容类型' : '请求体格式错误';
      return reply.status(400).send(envelope(ErrorCatalogue.BAD_REQUEST.code, message));
    }
    req.log.error({ err }, 'unhandled error');
    const { code, message } = ErrorCatalogue.INTERNAL;
    return reply.status(500).send(envelope(code, `${message}（请求编号 ${req.id}）`));
  });
}
