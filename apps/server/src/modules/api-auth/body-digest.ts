import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { API_KEY_HEADER, API_SECRET_HEADER, MEDIA_MAX_BYTES } from '@wxc/contract';
import {
  errorCodes,
  type FastifyInstance,
  type FastifyRequest,
  type preParsingHookHandler,
  type RouteOptions,
} from 'fastify';
import { withRouteHook } from '../../lib/http.js';

/**
 * Signed API requests sign the SHA-256 of the exact body bytes, whatever the content type. The
 * bytes are read here, before any parser sees them, so that what is verified is what is parsed:
 *
 * - a `preParsing` hook of every route that accepts credentials takes each request in the signed
 *   scheme (an `x-app-key` without `x-app-secret`); it first runs the checks that need no body
 *   (a known key, well-formed headers, a fresh timestamp), so that strangers cannot make the server
 *   hold bodies, then reads the body into memory, bounded by the route's body limit (multipart: the
 *   media limit plus room for boundaries and small fields), and keeps its SHA-256 hex;
 * - the parsers then get those same bytes: JSON and the like through the hook's returned stream;
 *   multipart through the request stream, which @fastify/multipart pipes into busboy itself (it
 *   never reads the parser's payload), so its `pipe` is pointed at a replay of the bytes;
 * - the credential check (before validation and the handler) compares the signature against the
 *   digest: a multipart body is verified in full before a single part is read or stored.
 */

/** Room for multipart boundaries, part headers and the few small fields beside the largest file. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

const digests = new WeakMap<FastifyRequest, string>();

/** hex(SHA-256(bytes)): how a body enters the string to sign. */
export const bodyDigest = (bytes: Buffer | string): string =>
  createHash('sha256').update(bytes).digest('hex');

/** A request in the signed credential scheme: an app key, and no secret sent with it. */
export function isSignedRequest(req: FastifyRequest): boolean {
  const key = req.headers[API_KEY_HEADER];
  return typeof key === 'string' && key !== '' && req.headers[API_SECRET_HEADER] === undefined;
}

/** hex(SHA-256) of the body of a signed request as received; undefined for other requests. */
export const bodyDigestOf = (req: FastifyRequest): string | undefined => digests.get(req);

const isMultipart = (req: FastifyRequest) =>
  String(req.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/');

/** A route that takes API credentials (its OpenAPI security lists the appKey scheme). */
const takesCredentials = (route: RouteOptions) =>
  ((route.schema?.security ?? []) as Record<string, unknown>[]).some((s) => 'appKey' in s);

/**
 * Registers the hook on every route that takes API credentials; call before the routes are added.
 * `precheck` refuses (throws) a signed request on what can be checked before its body is read.
 * Other routes get no preParsing hook at all, so their requests (console calls, pages, files) skip
 * Fastify's preParsing runner. A route that takes credentials but missed the hook (added before this
 * ran) cannot pass a signed request unverified: service.ts refuses one without a digest.
 */
export function installBodyDigest(
  app: FastifyInstance,
  precheck: (req: FastifyRequest) => Promise<void>,
): void {
  const digestHook: preParsingHookHandler = (req, _reply, payload, done) => {
    // An unsigned request passes straight through (no promise per request).
    if (!isSignedRequest(req)) return done(null, payload);
    digestSigned(req, payload).then(
      (replay) => done(null, replay),
      (err: Error) => done(err),
    );
  };
  app.addHook('onRoute', (route) => {
    if (!takesCredentials(route)) return;
    // First: the body is read before any of the route's own preParsing hooks sees it.
    route.preParsing = withRouteHook(route.preParsing, digestHook, 'first');
  });
  async function digestSigned(req: FastifyRequest, payload: Readable) {
    await precheck(req);
    const multipart = isMultipart(req);
    const limit = multipart ? MEDIA_MAX_BYTES + MULTIPART_OVERHEAD_BYTES : req.routeOptions.bodyLimit;
    const bytes = await readAll(payload, limit, req.headers['content-length']);
    digests.set(req, bodyDigest(bytes));
    if (multipart) await replayInto(req.raw, bytes);
    const replay = new PassThrough();
    replay.end(bytes);
    return Object.assign(replay, { receivedEncodedLength: bytes.length });
  }
}

/** The whole stream, or Fastify's own 413 error past `limit` bytes. */
function readAll(stream: Readable, limit: number, declaredLength: string | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (declaredLength !== undefined && Number(declaredLength) > limit) {
      reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

/**
 * Makes the request stream, already read to its end, hand `bytes` to whoever pipes it next
 * (@fastify/multipart: `request.raw.pipe(busboy)`). Multipart takes a 'close' of the request for
 * the end of the parts, so that 'close' must be over before it starts: a server request closes
 * (autoDestroy) in the ticks right after its end, which one turn of the event loop lets pass; an
 * injected request (tests) never closes.
 */
async function replayInto(raw: IncomingMessage, bytes: Buffer): Promise<void> {
  if (!raw.closed) await new Promise((resolve) => setImmediate(resolve));
  const replay = new PassThrough();
  replay.end(bytes);
  raw.pipe = <T extends NodeJS.WritableStream>(dest: T, options?: { end?: boolean }): T =>
    replay.pipe(dest, options);
  raw.unpipe = (dest?: NodeJS.WritableStream) => {
    replay.unpipe(dest);
    return raw;
  };
}
