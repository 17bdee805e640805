import { goToLogin } from '../app/navigate';
import { getToken, logoutLocal, resetToken } from '../stores/session';
import { createRequester } from './request';
import { lazyUi } from './ui';

/**
 * The console's one client: `call(def, input)` with a call definition from @wxc/contract.
 * Pages never build URLs or payloads by hand.
 */
export const { call } = createRequester({
  fetch: (input, init) => fetch(input, init),
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

export { ApiError } from './request';
