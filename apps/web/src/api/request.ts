import type { CallDef, CallRequest, CallResponse } from '@wxc/contract/call';
import { ERROR_TOAST_MS, REQUEST_TIMEOUT_MS } from '@wxc/contract/constants';
import { ErrorCatalogue, LOGGED_OUT_CODES, OK_CODE } from '@wxc/contract/errors';

/**
 * The request rules of spec §7 and §8, in one place. Everything with a side effect (HTTP, toasts,
 * dialogs, the session) is handed in, so every branch is unit-tested with fakes (request.test.ts).
 *
 * - empty base URL, 50 000 ms timeout, `Authorization: <token>` when a token is stored;
 * - envelope `{code, message, data}`; only the string "200" is success (the body is read whatever
 *   the HTTP status, since the service answers errors with a matching 4xx/5xx status);
 * - "403": one re-login confirm at a time; confirm logs out and goes to /login; the promise rejects
 *   (no confirm when the call was sent without a token, or with one that is no longer the stored one);
 * - a message containing 秒没: a 5 s error saying the code was sniped;
 * - 50008/50012/50014: the message toast plus one "you have been logged out" confirm; confirm resets
 *   the token and reloads;
 * - other codes: the message (or 请求失败) as a 5 s error toast, and the promise rejects;
 * - network errors, timeouts and unreadable answers: their message as a 5 s toast;
 * - a call its caller cancelled (a page left, a query refetched) rejects quietly, even when the
 *   cancel lands while the answer's body is still being read;
 * - an identical toast is shown at most once while it is still on screen (5 s), however many calls
 *   fail with the same message: the one place that dedupes every error toast of the console;
 * - extra headers per call come from one registered source (`setHeaderSource`): the operator's
 *   support view names the company it reads (`x-view-company`) on every customer call, whichever
 *   requester sends it (the client, uploads).
 */

export const TEXT = {
  reloginTitle: '提示',
  reloginContent: '登录超时，是否重新登录？',
  reloginOk: '重新登录',
  cancel: '取消',
  loggedOutTitle: '确认登出',
  loggedOutContent: '您已被登出，可以取消继续留在该页面，或者重新登录',
  sniped: '已被抢先扫码，请换一种方式获取',
  snipedMarker: '秒没',
  fallback: '请求失败',
  network: '网络异常，请检查网络连接后重试',
  timeout: `请求超时（${REQUEST_TIMEOUT_MS / 1000} 秒），请稍后重试`,
  badInput: '请求参数有误',
} as const;

export const UNAUTHENTICATED_CODE = ErrorCatalogue.UNAUTHENTICATED.code;

export type ApiErrorKind = 'business' | 'network' | 'timeout' | 'invalid-input' | 'invalid-response';

/** Every failed call rejects with this. `code` is the envelope code, or '' when none came back. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly code: string = '',
    readonly status = 0,
  ) {
    super(message);
  }
}

export interface ConfirmOptions {
  title: string;
  content: string;
  okText: string;
  cancelText: string;
}

/** How the request layer talks to people: a toast and a confirm dialog. */
export interface RequestUi {
  error(text: string, durationMs: number): void;
  /** Resolves true on OK, false on cancel or close. */
  confirm(options: ConfirmOptions): Promise<boolean>;
}

export interface RequestSession {
  getToken(): string | undefined;
  /** "403" confirmed: log out locally and go to /login. */
  relogin(): void | Promise<void>;
  /** 50008/50012/50014 confirmed: reset the token and reload the page. */
  resetAndReload(): void | Promise<void>;
}

/** Extra headers for one call (or none). */
export type HeaderSource = (def: CallDef) => Record<string, string> | undefined;

let sharedHeaders: HeaderSource | undefined;
/** Headers the rules above decide; an extra source never sets them. */
const RULED_HEADERS = new Set(['authorization', 'accept', 'content-type']);

/**
 * Registers the console's one source of extra headers, used by every requester that has no `headers`
 * of its own (stores/support-view.ts registers the support view's company header at start).
 */
export function setHeaderSource(source: HeaderSource | undefined): void {
  sharedHeaders = source;
}

export interface RequestDeps {
  fetch: typeof fetch;
  ui: RequestUi;
  session: RequestSession;
  /** Spec §7: empty, so calls go to the origin that served the console. */
  baseUrl?: string;
  timeoutMs?: number;
  /** Clock for the toast dedupe (tests). */
  now?: () => number;
  /** Extra headers per call; defaults to the registered source (`setHeaderSource`). */
  headers?: HeaderSource;
}

export interface CallOptions {
  /**
   * No toast and no dialog: the caller handles every failure itself (the navigation guard does, to
   * show its own message and redirect).
   */
  quiet?: boolean;
  signal?: AbortSignal;
  /** Send this token instead of the stored one (logout sends the token it is giving up). */
  token?: string;
  /**
   * How this one call goes over the wire (an upload sends a form, with progress): the same rules,
   * dialogs and toasts as every other call of this requester.
   */
  transport?: typeof fetch;
}

export type Call = <C extends CallDef>(
  def: C,
  input: CallRequest<C>,
  options?: CallOptions,
) => Promise<CallResponse<C>>;

function isEnvelope(value: unknown): value is { code: unknown; message?: unknown; data?: unknown } {
  return typeof value === 'object' && value !== null && 'code' in value;
}

function toQuery(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function createRequester(deps: RequestDeps): { call: Call } {
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const baseUrl = deps.baseUrl ?? '';
  // One dialog of each kind at a time, however many calls fail together.
  let reloginOpen = false;
  let loggedOutOpen = false;
  // Toasts on screen now: text -> when it disappears.
  const onScreen = new Map<string, number>();
  const now = deps.now ?? Date.now;

  function toast(text: string) {
    const at = now();
    for (const [shown, until] of onScreen) if (until <= at) onScreen.delete(shown);
    if (onScreen.has(text)) return;
    onScreen.set(text, at + ERROR_TOAST_MS);
    deps.ui.error(text, ERROR_TOAST_MS);
  }

  async function askRelogin() {
    if (reloginOpen) return;
    reloginOpen = true;
    try {
      const ok = await deps.ui.confirm({
        title: TEXT.reloginTitle,
        content: TEXT.reloginContent,
        okText: TEXT.reloginOk,
        cancelText: TEXT.cancel,
      });
      if (ok) await deps.session.relogin();
    } finally {
      reloginOpen = false;
    }
  }

  async function askLoggedOut() {
    if (loggedOutOpen) return;
    loggedOutOpen = true;
    try {
      const ok = await deps.ui.confirm({
        title: TEXT.loggedOutTitle,
        content: TEXT.loggedOutContent,
        okText: TEXT.reloginOk,
        cancelText: TEXT.cancel,
      });
      if (ok) await deps.session.resetAndReload();
    } finally {
      loggedOutOpen = false;
    }
  }

  /** Applies the error rules to a non-"200" envelope and returns the error to reject with. */
  function businessError(
    code: string,
    message: string,
    status: number,
    quiet: boolean,
    sentToken: string | undefined,
  ): ApiError {
    const text = message || TEXT.fallback;
    if (quiet) return new ApiError(text, 'business', code, status);
    if (code === UNAUTHENTICATED_CODE) {
      // Only a session that was live when the call left can have timed out: a call sent without a
      // token, or with one given up since (logout, another login), has nothing to ask.
      if (sentToken && sentToken === deps.session.getToken()) void askRelogin();
    } else if (text.includes(TEXT.snipedMarker)) {
      toast(TEXT.sniped);
      return new ApiError(TEXT.sniped, 'business', code, status);
    } else {
      toast(text);
      if ((LOGGED_OUT_CODES as readonly string[]).includes(code)) void askLoggedOut();
    }
    return new ApiError(text, 'business', code, status);
  }

  function fail(error: ApiError, quiet: boolean): never {
    if (!quiet) toast(error.message);
    throw error;
  }

  const call: Call = async (def, input, options = {}) => {
    const quiet = options.quiet === true;
    const parsed = def.request.safeParse(input);
    if (!parsed.success) {
      fail(new ApiError(parsed.error.issues[0]?.message ?? TEXT.badInput, 'invalid-input'), quiet);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries((deps.headers ?? sharedHeaders)?.(def) ?? {})) {
      if (!RULED_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    headers.Accept = 'application/json';
    const token = options.token ?? deps.session.getToken();
    if (token) headers.Authorization = token;
    let url = baseUrl + def.path;
    let body: string | undefined;
    if (def.method === 'GET') {
      url += toQuery(parsed.data);
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(parsed.data ?? {});
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    let status = 0;
    let payload: unknown;
    try {
      const response = await (options.transport ?? deps.fetch)(url, {
        method: def.method,
        headers,
        body,
        signal: controller.signal,
      });
      status = response.status;
      // An unreadable body is an invalid answer, unless the call was aborted while reading it (a
      // cancelled query, a timeout): that is the abort, handled below, not a bad answer.
      payload = await response.json().catch((cause: unknown) => {
        if (controller.signal.aborted) throw cause;
        return undefined;
      });
    } catch (cause) {
      if (timedOut) fail(new ApiError(TEXT.timeout, 'timeout'), quiet);
      // Cancelled by the caller (a page unmounted): reject without bothering anyone.
      if (options.signal?.aborted) throw new ApiError('请求已取消', 'network');
      const message =
        cause instanceof Error && cause.message && !/fetch|network/i.test(cause.message)
          ? cause.message
          : TEXT.network;
      fail(new ApiError(message, 'network'), quiet);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }

    if (!isEnvelope(payload)) {
      fail(new ApiError(`服务器响应异常（HTTP ${status}）`, 'invalid-response', '', status), quiet);
    }
    const code = String(payload.code);
    const message = typeof payload.message === 'string' ? payload.message : '';
    // Spec §8: anything but the *string* "200" is an error (a numeric 200 is not success).
    if (payload.code !== OK_CODE) throw businessError(code, message || TEXT.fallback, status, quiet, token);

    const data = def.response.safeParse(payload.data ?? null);
    if (!data.success) {
      fail(new ApiError('服务器返回的数据格式不正确', 'invalid-response', code, status), quiet);
    }
    return data.data as never;
  };

  return { call };
}
