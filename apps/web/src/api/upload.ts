import * as msgCalls from '@wxc/contract/calls/msg';
import * as systemCalls from '@wxc/contract/calls/system';
import { goToLogin } from '../app/navigate';
import { getToken, logoutLocal, resetToken } from '../stores/session';
import { type CallOptions, createRequester } from './request';
import { lazyUi } from './ui';

/**
 * Multipart uploads through the same request rules as every call (request.ts): the stored token as
 * `Authorization`, the 50 s timeout, the envelope, the 403 / 秒没 / logged-out rules and toasts.
 * The requester builds a JSON body; the `fetch` handed to it sends the form instead (the browser sets
 * the multipart Content-Type with its boundary).
 */
export function formFetch(form: FormData, base: typeof fetch = (i, init) => fetch(i, init)): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('Content-Type');
    return base(input, { ...init, headers, body: form });
  };
}

/** A requester that sends `form` as the body of a multipart call, under every request rule. */
function formRequester(form: FormData) {
  return createRequester({
    fetch: formFetch(form),
    ui: lazyUi,
    session: {
      getToken,
      relogin: () => {
        logoutLocal();
        goToLogin();
      },
      resetAndReload: () => {
        resetToken();
        location.reload();
      },
    },
  });
}

/** POST /api/tools/getSourceUrl with the file in the field `file`: a URL the send calls accept. */
export function uploadSource(file: File | Blob, fileName?: string, options: CallOptions = {}) {
  const form = new FormData();
  form.append('file', file, fileName ?? (file instanceof File ? file.name : 'file'));
  return formRequester(form).call(msgCalls.getSourceUrl, {}, options);
}

/** Operators: the customer-support QR image (field `img`, png/jpeg up to 2 MB). */
export function uploadSupportQr(file: File, options: CallOptions = {}) {
  const form = new FormData();
  form.append('img', file, file.name);
  return formRequester(form).call(systemCalls.adminUploadSupportQr, {}, options);
}
