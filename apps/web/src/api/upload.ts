import * as msgCalls from '@wxc/contract/calls/msg';
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

/** POST /api/tools/getSourceUrl with the file in the field `file`: a URL the send calls accept. */
export function uploadSource(file: File | Blob, fileName?: string, options: CallOptions = {}) {
  const form = new FormData();
  form.append('file', file, fileName ?? (file instanceof File ? file.name : 'file'));
  const { call } = createRequester({
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
  return call(msgCalls.getSourceUrl, {}, options);
}
