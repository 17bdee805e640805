import { getToken, logoutLocal, resetToken } from '../stores/session';
import { goToLogin } from '../utils/navigate';
import { createRequester, type RequestUi } from './request';

/**
 * How the requester talks to people. The console sets antd's toasts and dialogs at start
 * (`setRequestUi(lazyUi)`); the sign-in screen, a page of its own without antd, keeps this plain
 * one: the browser's own dialog, and errors into the console log (its forms show errors inline).
 */
let ui: RequestUi = {
  error(text) {
    console.warn(text);
  },
  confirm: async ({ content }) => window.confirm(content),
};

export function setRequestUi(next: RequestUi): void {
  ui = next;
}

/**
 * The console's one client: `call(def, input)` with a call definition from @wxc/contract.
 * Pages never build URLs or payloads by hand.
 */
export const { call } = createRequester({
  fetch: (input, init) => fetch(input, init),
  ui: {
    error: (text, durationMs) => ui.error(text, durationMs),
    confirm: (options) => ui.confirm(options),
  },
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

export { ApiError } from './request';
