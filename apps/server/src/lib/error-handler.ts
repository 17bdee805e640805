import type { Socket } from 'node:net';
import { ErrorCatalogue } from '@wxc/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPoolWaitTimeout } from '../db/index.js';
import { AppError } from './errors.js';
import { NO_STORE } from './http.js';
import { busy } from './overload.js';
import { RequestValidationError } from './validation.js';

const envelope = (code: string, message: string) => ({ code, message, data: null });

/**
 * What busboy (under @fastify/multipart) throws for a multipart body it cannot read: no or a bad
 * boundary, a body cut short. Plain errors without a status, recognised by their text.
 */
const MULTIPART_PARSE_ERROR =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|Unsupported Content-Type\.|Missing Content-Type-header\.|The needle cannot (be an empty String\/Buffer|have a length bigger than 256)\.)$/;

const UNREADABLE_UPLOAD = '上传内容无法解析：请以 multipart/form-data（含 boundary）重新上传';

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
    if (err.code === 'FST_FILES_LIMIT' || err.code === 'FST_FIELDS_LIMIT' || err.code === 'FST_PARTS_LIMIT') {
      return reply.status(413).send(envelope(ErrorCatalogue.BAD_REQUEST.code, '上传内容包含过多文件或字段'));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.status(413).send(envelope(ErrorCatalogue.BAD_REQUEST.code, '请求内容过大'));
    }
    if (err.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || err.code === 'FST_INVALID_JSON_FIELD_ERROR') {
      return reply.status(400).send(envelope(ErrorCatalogue.BAD_REQUEST.code, UNREADABLE_UPLOAD));
    }
    if (err.code?.startsWith('FST_ERR_CTP_') || err.code === 'FST_ERR_VALIDATION' || err.statusCode === 400) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? '不支持的请求内容类型' : '请求体格式错误';
      return reply.status(400).send(envelope(ErrorCatalogue.BAD_REQUEST.code, message));
    }
    if (err.statusCode === undefined && req.isMultipart?.() && MULTIPART_PARSE_ERROR.test(err.message)) {
      return reply.status(400).send(envelope(ErrorCatalogue.BAD_REQUEST.code, UNREADABLE_UPLOAD));
    }
    if (typeof err.statusCode === 'number' && err.statusCode > 400 && err.statusCode < 500) {
      // Any other client error a plugin raises (406, 415, ...): its status, the "400" envelope.
      return reply.status(err.statusCode).send(envelope(ErrorCatalogue.BAD_REQUEST.code, '请求格式错误'));
    }
    if (isPoolWaitTimeout(err) || err.code === 'SQLITE_BUSY') {
      // No database connection (or lock) came free in time: overloaded, not broken.
      req.log.warn({ err: err.message }, 'database busy: answered 503');
      return reply.send(busy(reply));
    }
    req.log.error({ err }, 'unhandled error');
    const { code, message } = ErrorCatalogue.INTERNAL;
    return reply.status(500).send(envelope(code, `${message}（请求编号 ${req.id}）`));
  });
}

/**
 * Fastify's `frameworkErrors`: failures found while routing, before any route, hook or the error
 * handler runs (a malformed percent-encoding, an over-long path parameter). Answered with the
 * envelope and the headers every error answer carries.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply
    .header('x-request-id', req.id)
    .header('cache-control', NO_STORE)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  if (err.code === 'FST_ERR_BAD_URL') {
    reply.status(400).send(envelope(ErrorCatalogue.BAD_REQUEST.code, '请求地址格式错误'));
    return;
  }
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(414).send(envelope(ErrorCatalogue.BAD_REQUEST.code, '请求地址过长'));
    return;
  }
  req.log.error({ err }, 'unhandled error');
  const { code, message } = ErrorCatalogue.INTERNAL;
  reply.status(500).send(envelope(code, `${message}（请求编号 ${req.id}）`));
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (a malformed request line
 * or header, headers too large, a timeout) never reaches Fastify; the envelope is written to the
 * socket directly, with the status Fastify would have used.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', '请求超时']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', '请求头过大']
        : [400, 'Bad Request', '请求格式错误'];
  const body = JSON.stringify(envelope(ErrorCatalogue.BAD_REQUEST.code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: ${NO_STORE}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(err);
}
