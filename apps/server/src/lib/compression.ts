import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Answers smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });
/** Text worth compressing: JSON, scripts, styles, pages, SVG. Never event streams, never images. */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml)\b|[^;]*\+(?:json|xml)\b)/;
/** Brotli at 4: most of its gain over gzip at a fraction of the CPU of its default 11. */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

const compressor = (encoding: string) =>
  encoding === 'br' ? zlib.createBrotliCompress(BROTLI) : zlib.createGzip();
const compressWhole = (
  encoding: string,
  body: Buffer | string,
  done: (err: Error | null, out: Buffer) => void,
) => (encoding === 'br' ? zlib.brotliCompress(body, BROTLI, done) : zlib.gzip(body, done));

/**
 * Whether an answer is too small to be worth compressing: a string is measured without encoding it
 * when it is short; a stream (a static file) by the length it declares, if it does.
 */
function tooSmall(payload: unknown, reply: FastifyReply): boolean {
  if (typeof payload === 'string') {
    return payload.length < COMPRESS_THRESHOLD_BYTES && Buffer.byteLength(payload) < COMPRESS_THRESHOLD_BYTES;
  }
  if (Buffer.isBuffer(payload)) return payload.length < COMPRESS_THRESHOLD_BYTES;
  if (!(payload instanceof Readable)) return true;
  const declared = reply.getHeader('content-length');
  return declared !== undefined && Number(declared) < COMPRESS_THRESHOLD_BYTES;
}

/**
 * Large answers compressed on the fly (brotli or gzip, as the client accepts): the OpenAPI document,
 * long lists, the API reference page's scripts. The console's own files come precompressed from the
 * build (web.ts) and the sign-in page is compressed once (sign-in-page.ts): both say their
 * Content-Encoding, and are left alone.
 *
 * Written here rather than with @fastify/compress: that plugin adds three hooks to every route
 * (onRequest, preParsing, onSend) and negotiates the encoding before it looks at the size, which came
 * to 6.7 % of an authenticated read's instructions (bench/instructions.mjs), for answers that are
 * almost all a few hundred bytes. This is one onSend hook whose first test is the size. Request
 * bodies are not decompressed (the API takes plain JSON; app.ts refuses an encoded body).
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (tooSmall(payload, reply) || reply.hasHeader('content-encoding')) return done(null, payload);
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
    const vary = reply.getHeader('vary');
    if (!vary) reply.header('vary', 'accept-encoding');
    else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
    const accept = req.headers['accept-encoding'];
    const encoding = typeof accept === 'string' ? encodings.negotiate(accept) : null;
    if (!encoding) return done(null, payload);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    if (payload instanceof Readable) {
      return done(
        null,
        pipeline(payload, compressor(encoding), (err) => {
          if (err) req.log.debug({ err }, 'compressed answer ended early');
        }),
      );
    }
    compressWhole(encoding, payload as Buffer | string, (err, body) => (err ? done(err) : done(null, body)));
  });
}
