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
