import * as authCalls from '@wxc/contract/calls/auth';
import * as systemCalls from '@wxc/contract/calls/system';
import { ERROR_TOAST_MS, REQUEST_TIMEOUT_MS } from '@wxc/contract/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ConfirmOptions, createRequester, setHeaderSource, TEXT } from './request';

const userInfo = {
  id: 'u1',
  companyName: '测试公司',
  companyAccount: '13800000000',
  userName: '张三',
  accountType: 1,
  realNameUser: 0,
  serverFlag: 'formal',
  roles: ['customer'],
};

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function setup(options: { token?: string; confirmAnswer?: boolean; now?: () => number } = {}) {
  const fetch = vi.fn<typeof globalThis.fetch>();
  const errors: Array<[string, number]> = [];
  const confirms: ConfirmOptions[] = [];
  let resolveConfirm: ((ok: boolean) => void) | undefined;
  const ui = {
    error: vi.fn((text: string, ms: number) => {
      errors.push([text, ms]);
    }),
    confirm: vi.fn((o: ConfirmOptions) => {
      confirms.push(o);
      if (options.confirmAnswer !== undefined) return Promise.resolve(options.confirmAnswer);
      return new Promise<boolean>((resolve) => {
        resolveConfirm = resolve;
      });
    }),
  };
  const session = {
    getToken: vi.fn(() => options.token),
    relogin: vi.fn(),
    resetAndReload: vi.fn(),
  };
  const { call } = createRequester({ fetch, ui, session, ...(options.now ? { now: options.now } : {}) });
  return { call, fetch, ui, session, errors, confirms, answer: (ok: boolean) => resolveConfirm?.(ok) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('request: sending', () => {
  it('POSTs JSON to the contract path with an empty base URL and no Authorization without a token', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '成功', data: { open: true } }));
    await expect(t.call(authCalls.isAutoRegiste, {})).resolves.toEqual({ open: true });
    const [url, init] = t.fetch.mock.calls[0]!;
    expect(url).toBe('/api/normal/isAutoRegiste');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{}');
    expect((init?.headers ?? {}) as Record<string, string>).not.toHaveProperty('Authorization');
  });

  it('sends the stored token raw in the Authorization header', async () => {
    const t = setup({ token: 'tok-123' });
    t.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '', data: userInfo }));
    await expect(t.call(authCalls.refreshLoginInfo, {})).resolves.toEqual(userInfo);
    const init = t.fetch.mock.calls[0]![1];
    expect((init?.headers ?? {}) as Record<string, string>).toHaveProperty('Authorization', 'tok-123');
  });

  it('puts GET input in the query string, with no body', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(
      jsonResponse({ code: '200', message: '', data: { captchaId: 'c1', image: 'data:image/svg+xml,x' } }),
    );
    await t.call(authCalls.getVerifyCode, { t: '42' });
    const [url, init] = t.fetch.mock.calls[0]!;
    expect(url).toBe('/api/normal/tools/getVerifyCode?t=42');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
  });

  it('rejects bad input before sending, with the contract message as a toast', async () => {
    const t = setup();
    const error = await t.call(authCalls.modUserName, { userName: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('invalid-input');
    expect(t.fetch).not.toHaveBeenCalled();
    expect(t.errors).toEqual([['请输入用户名', ERROR_TOAST_MS]]);
  });
});

describe('request: answers', () => {
  it('treats only the string "200" as success', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: 200, message: '数字码', data: null }));
    await expect(t.call(authCalls.logout, {})).rejects.toMatchObject({ code: '200', kind: 'business' });
    expect(t.errors).toEqual([['数字码', 5000]]);
  });

  it('rejects other codes with the message as a 5 s toast', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: '40013', message: '账号或密码错误', data: null }, 400));
    const error = (await t
      .call(authCalls.login, { companyAccount: 'a', password: 'b', captchaId: 'c', captchaCode: '1234' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: '40013', message: '账号或密码错误', status: 400 });
    expect(t.errors).toEqual([['账号或密码错误', 5000]]);
    expect(t.ui.confirm).not.toHaveBeenCalled();
  });

  it('falls back to 请求失败 when the message is empty', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: '500', message: '', data: null }, 500));
    await expect(t.call(authCalls.logout, {})).rejects.toMatchObject({ message: TEXT.fallback });
    expect(t.errors).toEqual([[TEXT.fallback, 5000]]);
  });

  it('shows the sniped text for a message containing 秒没', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: '40099', message: '二维码秒没了', data: null }, 400));
    await expect(t.call(authCalls.logout, {})).rejects.toMatchObject({ message: TEXT.sniped });
    expect(t.errors).toEqual([[TEXT.sniped, 5000]]);
  });

  it('rejects an answer whose data does not match the contract', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '', data: { open: 'yes' } }));
    await expect(t.call(authCalls.isAutoRegiste, {})).rejects.toMatchObject({ kind: 'invalid-response' });
    expect(t.errors).toHaveLength(1);
  });

  it('rejects a body that is not an envelope (e.g. a proxy error page)', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(t.call(systemCalls.siteInfo, {})).rejects.toMatchObject({
      kind: 'invalid-response',
      status: 502,
    });
    expect(t.errors[0]![0]).toContain('502');
  });
});

describe('request: "403" session expired', () => {
  it('shows one re-login confirm however many calls fail together, and releases it after', async () => {
    const t = setup({ token: 'old' });
    t.fetch.mockImplementation(async () =>
      jsonResponse({ code: '403', message: '登录已过期，请重新登录', data: null }, 401),
    );
    const results = await Promise.allSettled([
      t.call(authCalls.refreshLoginInfo, {}),
      t.call(authCalls.isAutoRegiste, {}),
      t.call(authCalls.logout, {}),
    ]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: '403' });
    expect(t.ui.confirm).toHaveBeenCalledTimes(1);
    expect(t.confirms[0]).toEqual({
      title: '提示',
      content: '登录超时，是否重新登录？',
      okText: '重新登录',
      cancelText: '取消',
    });
    expect(t.errors).toEqual([]); // the dialog alone, no toast

    // Cancel: nothing happens, and the next 403 may ask again.
    t.answer(false);
    await flush();
    expect(t.session.relogin).not.toHaveBeenCalled();
    await t.call(authCalls.logout, {}).catch(() => undefined);
    expect(t.ui.confirm).toHaveBeenCalledTimes(2);

    // Confirm: log out and go to /login.
    t.answer(true);
    await flush();
    expect(t.session.relogin).toHaveBeenCalledTimes(1);
  });
});

describe('request: a call with its own transport (uploads)', () => {
  it('goes over that transport, under the same rules: one re-login dialog with the other calls', async () => {
    const t = setup({ token: 'old' });
    const expired = () => jsonResponse({ code: '403', message: '登录已过期，请重新登录', data: null }, 401);
    t.fetch.mockImplementation(async () => expired());
    const upload = vi.fn<typeof globalThis.fetch>(async () => expired());
    const results = await Promise.allSettled([
      t.call(authCalls.refreshLoginInfo, {}),
      t.call(systemCalls.adminUploadSupportQr, {}, { transport: upload }),
    ]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(upload).toHaveBeenCalledTimes(1);
    expect(upload.mock.calls[0]![0]).toBe(systemCalls.adminUploadSupportQr.path);
    expect((upload.mock.calls[0]![1]?.headers ?? {}) as Record<string, string>).toHaveProperty(
      'Authorization',
      'old',
    );
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.ui.confirm).toHaveBeenCalledTimes(1);
  });
});

describe('request: "403" for a token already given up', () => {
  it('rejects without asking when the stored token changed while the call was in flight', async () => {
    const t = setup({ token: 'old' });
    t.fetch.mockImplementation(async () => {
      t.session.getToken.mockReturnValue(undefined); // logged out meanwhile
      return jsonResponse({ code: '403', message: '登录已过期', data: null }, 401);
    });
    await expect(t.call(authCalls.refreshLoginInfo, {})).rejects.toMatchObject({ code: '403' });
    await flush();
    expect(t.ui.confirm).not.toHaveBeenCalled();
    expect(t.errors).toEqual([]);
  });
});

describe('request: "403" without a session', () => {
  it('rejects without asking when no token was sent', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: '403', message: '请先登录', data: null }, 401));
    await expect(t.call(authCalls.refreshLoginInfo, {})).rejects.toMatchObject({ code: '403' });
    await flush();
    expect(t.ui.confirm).not.toHaveBeenCalled();
  });

  it('sends an explicit token instead of the stored one', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '', data: null }));
    await t.call(authCalls.logout, {}, { token: 'given-up' });
    const init = t.fetch.mock.calls[0]![1];
    expect((init?.headers ?? {}) as Record<string, string>).toHaveProperty('Authorization', 'given-up');
  });
});

describe('request: logged-out codes 50008/50012/50014', () => {
  for (const code of ['50008', '50012', '50014']) {
    it(`${code}: toast and one logged-out confirm; confirm resets the token and reloads`, async () => {
      const t = setup({ confirmAnswer: true });
      t.fetch.mockImplementation(async () => jsonResponse({ code, message: '非法令牌', data: null }, 200));
      await Promise.allSettled([t.call(authCalls.logout, {}), t.call(authCalls.logout, {})]);
      await flush();
      // Both calls failed with the same message: one toast (see "toast dedupe" below).
      expect(t.errors).toEqual([['非法令牌', 5000]]);
      expect(t.ui.confirm).toHaveBeenCalledTimes(1);
      expect(t.confirms[0]).toMatchObject({
        title: TEXT.loggedOutTitle,
        okText: '重新登录',
        cancelText: '取消',
      });
      expect(t.session.resetAndReload).toHaveBeenCalledTimes(1);
    });
  }

  it('cancel keeps the user on the page', async () => {
    const t = setup({ confirmAnswer: false });
    t.fetch.mockResolvedValue(jsonResponse({ code: '50012', message: '', data: null }));
    await expect(t.call(authCalls.logout, {})).rejects.toMatchObject({ code: '50012' });
    await flush();
    expect(t.session.resetAndReload).not.toHaveBeenCalled();
  });
});

describe('request: network', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('toasts a network failure', async () => {
    const t = setup();
    t.fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(t.call(authCalls.logout, {})).rejects.toMatchObject({
      kind: 'network',
      message: TEXT.network,
    });
    expect(t.errors).toEqual([[TEXT.network, 5000]]);
  });

  it('keeps a meaningful network error message as it is', async () => {
    const t = setup();
    t.fetch.mockRejectedValue(new Error('连接被重置'));
    await expect(t.call(authCalls.logout, {})).rejects.toMatchObject({ message: '连接被重置' });
    expect(t.errors).toEqual([['连接被重置', 5000]]);
  });

  it('aborts after 50 000 ms and toasts a timeout', async () => {
    const t = setup();
    t.fetch.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = t.call(authCalls.logout, {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(t.errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ kind: 'timeout', message: TEXT.timeout });
    expect(t.errors).toEqual([[TEXT.timeout, 5000]]);
  });
});

describe('request: quiet calls', () => {
  it('never toasts nor asks, for the caller to handle', async () => {
    const t = setup();
    t.fetch.mockResolvedValueOnce(jsonResponse({ code: '403', message: '登录已过期', data: null }, 401));
    await expect(t.call(authCalls.refreshLoginInfo, {}, { quiet: true })).rejects.toMatchObject({
      code: '403',
    });
    t.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(t.call(authCalls.refreshLoginInfo, {}, { quiet: true })).rejects.toMatchObject({
      kind: 'network',
    });
    expect(t.errors).toEqual([]);
    expect(t.ui.confirm).not.toHaveBeenCalled();
  });
});

describe('request: cancelled calls', () => {
  /** A response whose body never finishes until the request is aborted (a slow body). */
  function slowBody(init: RequestInit | undefined): Response {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"code":"200","mess'));
        init?.signal?.addEventListener('abort', () =>
          controller.error(new DOMException('The operation was aborted.', 'AbortError')),
        );
      },
    });
    return new Response(stream, { status: 200, headers: { 'Content-Type': 'application/json' } });
  }

  it('rejects quietly when the caller cancels while the body is being read (no "HTTP 200" toast)', async () => {
    const t = setup({ token: 'tok' });
    t.fetch.mockImplementation(async (_url, init) => slowBody(init));
    const caller = new AbortController();
    const pending = t
      .call(authCalls.refreshLoginInfo, {}, { signal: caller.signal })
      .catch((e: unknown) => e);
    await flush();
    caller.abort();
    const error = (await pending) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('network');
    expect(error.message).not.toContain('HTTP 200');
    expect(t.errors).toEqual([]);
    expect(t.ui.confirm).not.toHaveBeenCalled();
  });

  it('rejects quietly when the caller cancels before the answer', async () => {
    const t = setup();
    t.fetch.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const caller = new AbortController();
    const pending = t.call(authCalls.logout, {}, { signal: caller.signal }).catch((e: unknown) => e);
    caller.abort();
    expect(await pending).toMatchObject({ kind: 'network' });
    expect(t.errors).toEqual([]);
  });

  it('still reports a body that is not JSON when nobody cancelled', async () => {
    const t = setup();
    t.fetch.mockResolvedValue(new Response('not json', { status: 200 }));
    await expect(t.call(authCalls.logout, {})).rejects.toMatchObject({
      kind: 'invalid-response',
      status: 200,
    });
    expect(t.errors).toHaveLength(1);
  });
});

describe('request: toast dedupe', () => {
  it('shows an identical message once while it is on screen, and again after it is gone', async () => {
    let clock = 1_000;
    const t = setup({ now: () => clock });
    t.fetch.mockImplementation(async () =>
      jsonResponse({ code: '500', message: '服务繁忙', data: null }, 500),
    );
    await Promise.allSettled([
      t.call(authCalls.logout, {}),
      t.call(authCalls.logout, {}),
      t.call(authCalls.logout, {}),
    ]);
    expect(t.errors).toEqual([['服务繁忙', ERROR_TOAST_MS]]);

    clock += ERROR_TOAST_MS - 1; // still on screen
    await t.call(authCalls.logout, {}).catch(() => undefined);
    expect(t.errors).toHaveLength(1);

    clock += 1; // gone: a new failure is worth a new toast
    await t.call(authCalls.logout, {}).catch(() => undefined);
    expect(t.errors).toEqual([
      ['服务繁忙', ERROR_TOAST_MS],
      ['服务繁忙', ERROR_TOAST_MS],
    ]);
  });

  it('keeps different messages apart', async () => {
    const t = setup({ now: () => 0 });
    t.fetch
      .mockResolvedValueOnce(jsonResponse({ code: '500', message: '服务繁忙', data: null }, 500))
      .mockResolvedValueOnce(jsonResponse({ code: '40013', message: '账号或密码错误', data: null }, 400))
      .mockResolvedValueOnce(jsonResponse({ code: '500', message: '服务繁忙', data: null }, 500));
    for (let i = 0; i < 3; i++) await t.call(authCalls.logout, {}).catch(() => undefined);
    expect(t.errors.map(([text]) => text)).toEqual(['服务繁忙', '账号或密码错误']);
  });

  it('dedupes across kinds: network failures of several calls at once toast once', async () => {
    const t = setup();
    t.fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    await Promise.allSettled([t.call(authCalls.logout, {}), t.call(authCalls.isAutoRegiste, {})]);
    expect(t.errors).toEqual([[TEXT.network, ERROR_TOAST_MS]]);
  });
});

describe('request: extra headers', () => {
  afterEach(() => setHeaderSource(undefined));

  it('adds the registered source’s headers per call, for every requester without its own', async () => {
    const seen: string[] = [];
    setHeaderSource((def) => {
      seen.push(def.id);
      return def.audience === 'user' ? { 'x-view-company': 'c-1' } : undefined;
    });
    const t = setup({ token: 'tok' });
    t.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '', data: userInfo }));
    await t.call(authCalls.refreshLoginInfo, {});
    t.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '', data: { open: true } }));
    await t.call(authCalls.isAutoRegiste, {});
    const first = t.fetch.mock.calls[0]![1]?.headers as Record<string, string>;
    const second = t.fetch.mock.calls[1]![1]?.headers as Record<string, string>;
    expect(first).toMatchObject({ 'x-view-company': 'c-1', Authorization: 'tok' });
    expect(second).not.toHaveProperty('x-view-company');
    expect(seen).toEqual([authCalls.refreshLoginInfo.id, authCalls.isAutoRegiste.id]);
  });

  it('never sets the headers the rules own (Authorization, Accept, Content-Type)', async () => {
    setHeaderSource(() => ({ Authorization: 'forged', Accept: 'text/html' }));
    const t = setup({ token: 'tok' });
    t.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '', data: userInfo }));
    await t.call(authCalls.refreshLoginInfo, {});
    const headers = t.fetch.mock.calls[0]![1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('tok');
    expect(headers.Accept).toBe('application/json');
    const anonymous = setup();
    anonymous.fetch.mockResolvedValue(jsonResponse({ code: '200', message: '', data: { open: true } }));
    await anonymous.call(authCalls.isAutoRegiste, {});
    expect(anonymous.fetch.mock.calls[0]![1]?.headers).not.toHaveProperty('Authorization');
  });
});
