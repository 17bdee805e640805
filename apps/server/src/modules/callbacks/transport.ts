import { createHmac } from 'node:crypto';
import { CALLBACK_EVENT_HEADER, CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER } from '@wxc/contract';
import { Agent, type Dispatcher } from 'undici';
import { AppError } from '../../lib/errors.js';
import { assertCallbackUrlAllowed, guardedLookup, type Resolver } from '../../lib/url-guard.js';
import type { AttemptOutcome } from './repo.js';

/**
 * How one signed POST of an event reaches its receiver: the HTTP half of a delivery, with nothing
 * of the outbox in it (no database, no claims). The outbox (service.ts, worker.ts) decides what is
 * sent and settles what came back; a transport only sends. Two of them:
 * - inline (this file): on the calling thread;
 * - a thread of its own (thread-transport.ts, the default of a server): the same inline transport
 *   run on a worker thread, so connecting, TLS, writing, reading answers and signing do not take
 *   turns of the event loop that serves requests.
 */
export interface CallbackPost {
  url: string;
  eventId: string;
  /** The stored envelope: every attempt sends these exact bytes. */
  payload: string;
  /** The signing key: the sub-account's secret hash. */
  secretHash: string;
}

export interface CallbackTransport {
  /** One attempt; never rejects (a failure is an outcome with an error). */
  post(p: CallbackPost): Promise<AttemptOutcome>;
  /** Frees what it holds (connections, its thread); posts still under way end first. */
  close(): Promise<void>;
}

export interface TransportOptions {
  /** Callback URLs may reach private / loopback addresses (operator config). */
  allowPrivate: boolean;
  /** Per attempt. */
  timeoutMs: number;
  /** Name resolution for the URL check and the connection (default: the system's, cached by TTL). */
  resolve?: Resolver | undefined;
}

/** x-wx-signature: hex(HMAC-SHA256(key = the sub-account's secret hash, `${timestamp}.${body}`)). */
export function signCallback(secretHash: string, timestamp: number | string, body: string): string {
  return createHmac('sha256', secretHash).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * Connections a process opens to one receiver (scheme, host and port) at most; posts beyond them wait
 * in line for one. While the outbox catches up it may have hundreds of deliveries in flight
 * (service.ts, CATCH_UP_DELIVERY_CONCURRENCY), most of them waiting on this process rather than on the
 * receiver: a receiver sees at most this many requests at once.
 */
export const RECEIVER_CONNECTIONS = 64;
/**
 * A post ends within this many times its attempt's timeout, waiting in line included (one still in
 * line then is never sent). The attempt's own clock (connecting, then the answer's headers, then
 * each piece of its body) starts once it has a connection, so a slow receiver's line costs time, not
 * failed attempts. The outbox's claim outlasts it (service.ts `lockMs`), as does the callback
 * thread's watchdog.
 */
export const POST_CEILING_TIMEOUTS = 5;

/** An answer's body is read and dropped up to this size (the connection is kept); a larger one ends it. */
const ANSWER_BODY_LIMIT = 64 * 1024;

/** The reason a post is aborted when it reaches its ceiling (waiting in line included). */
class CallbackTimeout extends Error {
  override name = 'TimeoutError';
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A person-readable reason an attempt got no HTTP answer. */
function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof AppError) return err.message;
  const e = err as {
    name?: string;
    message?: string;
    code?: string;
    cause?: { code?: string; message?: string };
  };
  // undici hands over the system's or its own error; a wrapped one carries it in `cause`.
  const source = e?.code ? e : e?.cause;
  const code = source?.code;
  if (code && TIMEOUT_CODES.has(code)) return `超时：${timeoutMs / 1000} 秒内未响应`;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return `超时：${(timeoutMs * POST_CEILING_TIMEOUTS) / 1000} 秒内未完成（含等待空闲连接）`;
  if (code === 'ERR_CALLBACK_ADDRESS_BLOCKED') return String(source?.message);
  if (code === 'ECONNREFUSED') return '连接被拒绝（ECONNREFUSED），对方服务未启动或端口未开放';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '无法解析回调地址的域名';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return '连接被对方重置';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS 证书错误（${code}）`;
  return `请求失败：${code ?? e?.cause?.message ?? e?.message ?? String(err)}`.slice(0, 300);
}

/** Sends on the calling thread, over kept-alive connections of its own agent. */
export function createInlineTransport(o: TransportOptions): CallbackTransport {
  const { allowPrivate, timeoutMs, resolve } = o;
  /**
   * Callbacks connect through their own agent, whose connections resolve the host themselves and
   * refuse blocked addresses: the address checked is the address connected to (no DNS rebinding
   * between the URL check and the connection). `allowPrivate` lifts the rule here as well.
   */
  const newAgent = () =>
    new Agent({
      connections: RECEIVER_CONNECTIONS,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: allowPrivate ? { timeout: timeoutMs } : { timeout: timeoutMs, lookup: guardedLookup(resolve) },
    });
  let dispatcher = newAgent();

  async function post({ url, eventId, payload, secretHash }: CallbackPost): Promise<AttemptOutcome> {
    const at = Date.now();
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): AttemptOutcome => ({
      statusCode,
      error,
      durationMs: performance.now() - started,
      at,
    });
    let target: URL;
    try {
      // Again before every attempt: what the host resolves to may have changed since it was saved.
      // (The connection checks the address it gets once more; this check gives the clear reasons.)
      target = await assertCallbackUrlAllowed(url, { allowPrivate, resolve });
    } catch (err) {
      return done(null, describeError(err, timeoutMs));
    }
    const timestamp = Math.floor(Date.now() / 1000);
    return new Promise<AttemptOutcome>((settle) => {
      let controller: Dispatcher.DispatchController | undefined;
      let bodyBytes = 0;
      /** The outcome is known (the answer's status, or a failure): later news changes nothing. */
      let told = false;
      const tell = (outcome: AttemptOutcome) => {
        if (told) return;
        told = true;
        settle(outcome);
      };
      /** The exchange is over (answer read, or failed): its connection is free again. */
      const over = () => clearTimeout(ceiling);
      const fail = (err: unknown) => {
        over();
        tell(done(null, describeError(err, timeoutMs)));
      };
      // The ceiling ends the post where it is: still in line for a connection (it is aborted as it
      // gets one, before anything is written), waiting for its answer, or reading an answer's body
      // that does not end (the status told, the connection is given up).
      const ceiling = setTimeout(
        () => {
          const reason = new CallbackTimeout();
          controller?.abort(reason);
          fail(reason);
        },
        started + timeoutMs * POST_CEILING_TIMEOUTS - performance.now(),
      );
      // undici's dispatch() with a handler of our own rather than request(): no stream for an
      // answer that is only dropped, no AbortController a post.
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          if (told) c.abort(new CallbackTimeout());
        },
        // The status is the receiver's answer: told at once. The body is read and dropped, so the
        // connection can be kept for the next event; a larger one than the limit ends it.
        onResponseStart(_c, statusCode) {
          if (statusCode >= 200) tell(outcomeOf(statusCode)); // 1xx (103 Early Hints): the answer follows
        },
        onResponseData(c, chunk) {
          bodyBytes += chunk.length;
          if (bodyBytes > ANSWER_BODY_LIMIT) c.abort(new Error('callback answer body too large'));
        },
        onResponseEnd: over,
        onResponseError(_c, err) {
          fail(err);
        },
      };
      try {
        dispatcher.dispatch(
          {
            origin: target.origin,
            path: `${target.pathname}${target.search}`,
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'user-agent': 'wxc-callback/1',
              [CALLBACK_EVENT_HEADER]: eventId,
              [CALLBACK_TIMESTAMP_HEADER]: String(timestamp),
              [CALLBACK_SIGNATURE_HEADER]: signCallback(secretHash, timestamp, payload),
            },
            body: payload,
          },
          handler,
        );
      } catch (err) {
        fail(err); // refused at once (a closed dispatcher): an outcome, like any failure
      }
    });

    function outcomeOf(status: number): AttemptOutcome {
      if (status >= 300 && status < 400)
        return done(status, `HTTP ${status} 重定向：回调不跟随重定向，请直接填写最终地址`);
      return done(status, status >= 200 && status < 300 ? null : `HTTP ${status}`);
    }
  }

  return {
    post,
    // Its connections closed; a later post opens new ones.
    async close() {
      const closing = dispatcher;
      dispatcher = newAgent();
      await closing.close();
    },
  };
}
