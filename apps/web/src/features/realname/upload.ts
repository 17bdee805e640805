import type { CallDef, CallResponse } from '@wxc/contract/call';
import { call } from '../../api/client';
import type { CallOptions } from '../../api/request';

export type OnProgress = (percent: number) => void;

/**
 * A `fetch` that sends `form` with XMLHttpRequest, so the upload's progress can be shown. The
 * requester (request.ts) still decides everything else: the stored token as `Authorization`, the
 * 50 s timeout (through the abort signal), the envelope and its error rules and toasts.
 */
export function xhrFetch(
  form: FormData,
  onProgress: OnProgress,
  makeXhr: () => XMLHttpRequest = () => new XMLHttpRequest(),
): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = makeXhr();
      xhr.open(init?.method ?? 'POST', String(input));
      // The browser sets the multipart Content-Type with its boundary; the JSON one must not be sent.
      new Headers(init?.headers).forEach((value, name) => {
        if (name.toLowerCase() !== 'content-type') xhr.setRequestHeader(name, value);
      });
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0)
          onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
      };
      xhr.onload = () => {
        onProgress(100);
        resolve(
          new Response(xhr.responseText, {
            status: xhr.status,
            headers: { 'content-type': xhr.getResponseHeader('content-type') ?? 'application/json' },
          }),
        );
      };
      xhr.onerror = () => reject(new TypeError('network error'));
      xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
      const signal = init?.signal;
      if (signal) {
        if (signal.aborted) return xhr.abort();
        signal.addEventListener('abort', () => xhr.abort(), { once: true });
      }
      xhr.send(form);
    });
}

/** Posts `form` to a multipart call, through the console's request rules, reporting progress. */
export function uploadForm<C extends CallDef>(
  def: C,
  form: FormData,
  onProgress: OnProgress,
  options: CallOptions = {},
): Promise<CallResponse<C>> {
  // The console's one requester: one re-login dialog, toasts shown once, for uploads too.
  return call(def, {} as never, { ...options, transport: xhrFetch(form, onProgress) });
}
