import { describe, expect, it, vi } from 'vitest';
import { formFetch, xhrFetch } from './upload';

describe('formFetch', () => {
  it('sends the form instead of the JSON body, without the JSON content type, keeping the rest', async () => {
    const base = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response('{}'));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await formFetch(form, base)('/api/tools/getSourceUrl', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'tok', Accept: 'application/json' },
      body: '{}',
    });
    const init = base.mock.calls[0]?.[1] as unknown as RequestInit;
    const headers = init.headers as Headers;
    expect(init.body).toBe(form);
    expect(headers.get('content-type')).toBeNull();
    expect(headers.get('authorization')).toBe('tok');
    expect(init.method).toBe('POST');
  });
});

/** A fake XMLHttpRequest recording what was sent and letting the test finish the request. */
function fakeXhr() {
  const x = {
    method: '',
    url: '',
    headers: {} as Record<string, string>,
    body: undefined as unknown,
    status: 0,
    responseText: '',
    upload: {
      onprogress: null as ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null,
    },
    onload: null as (() => void) | null,
    onerror: null as (() => void) | null,
    onabort: null as (() => void) | null,
    aborted: false,
    open(method: string, url: string) {
      x.method = method;
      x.url = url;
    },
    setRequestHeader(name: string, value: string) {
      x.headers[name.toLowerCase()] = value;
    },
    getResponseHeader: () => 'application/json',
    send(body: unknown) {
      x.body = body;
    },
    abort() {
      x.aborted = true;
      x.onabort?.();
    },
  };
  return x;
}

describe('xhrFetch', () => {
  it('sends the form with the headers but no JSON content type, reports progress, answers a Response', async () => {
    const x = fakeXhr();
    const progress = vi.fn();
    const form = new FormData();
    const f = xhrFetch(form, progress, () => x as unknown as XMLHttpRequest);
    const pending = f('/api/uploadImg', {
      method: 'POST',
      headers: { Authorization: 'tok', 'Content-Type': 'application/json', Accept: 'application/json' },
      body: '{}',
    });
    expect(x.method).toBe('POST');
    expect(x.url).toBe('/api/uploadImg');
    expect(x.headers).toEqual({ authorization: 'tok', accept: 'application/json' });
    expect(x.body).toBe(form);
    x.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
    expect(progress).toHaveBeenLastCalledWith(25);
    x.status = 400;
    x.responseText = '{"code":"400","message":"上传文件最大为2M","data":null}';
    x.onload?.();
    const res = await pending;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: '400', message: '上传文件最大为2M', data: null });
    expect(progress).toHaveBeenLastCalledWith(100);
  });

  it('network errors reject; an abort signal aborts the request', async () => {
    const x = fakeXhr();
    const failing = xhrFetch(
      new FormData(),
      () => {},
      () => x as unknown as XMLHttpRequest,
    )('/u', {});
    x.onerror?.();
    await expect(failing).rejects.toThrow(TypeError);

    const y = fakeXhr();
    const controller = new AbortController();
    const aborted = xhrFetch(
      new FormData(),
      () => {},
      () => y as unknown as XMLHttpRequest,
    )('/u', {
      signal: controller.signal,
    });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(y.aborted).toBe(true);
  });
});
