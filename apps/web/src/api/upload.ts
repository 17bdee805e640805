import * as fileCalls from '@wxc/contract/calls/files';
import * as systemCalls from '@wxc/contract/calls/system';
import { call } from './client';
import type { CallOptions } from './request';

/**
 * Multipart uploads through the console's one requester (client.ts), so the same rules apply: the
 * stored token as `Authorization`, the 50 s timeout, the envelope, the 403 / 秒没 / logged-out rules,
 * one dialog at a time and toasts shown once. The requester builds a JSON body; this transport sends
 * the form instead (the browser sets the multipart Content-Type with its boundary).
 */
export function formFetch(form: FormData, base: typeof fetch = (i, init) => fetch(i, init)): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('Content-Type');
    return base(input, { ...init, headers, body: form });
  };
}

/** POST /api/tools/getSourceUrl with the file in the field `file`: a URL the send calls accept. */
export function uploadSource(file: File | Blob, fileName?: string, options: CallOptions = {}) {
  const form = new FormData();
  form.append('file', file, fileName ?? (file instanceof File ? file.name : 'file'));
  return call(fileCalls.getSourceUrl, {}, { ...options, transport: formFetch(form) });
}

/** Operators: the customer-support QR image (field `img`, png/jpeg up to 2 MB). */
export function uploadSupportQr(file: File, options: CallOptions = {}) {
  const form = new FormData();
  form.append('img', file, file.name);
  return call(systemCalls.adminUploadSupportQr, {}, { ...options, transport: formFetch(form) });
}

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
