import { isSignInPath, loginRedirect } from './redirects';

/**
 * Navigation from outside React (the request layer's dialogs). The router registers itself at
 * start; until then (or in tests, or on the sign-in screen) a full page load does the job.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => unknown;
let navigateImpl: Navigate | undefined;

export function registerNavigate(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(to: string, replace = false): void {
  // The sign-in screen is a page of its own (login.html): reached by a full page load.
  const toSignIn = isSignInPath(to.split(/[?#]/)[0] ?? '');
  if (navigateImpl && !toSignIn) void navigateImpl(to, { replace });
  else if (replace) location.replace(to);
  else location.assign(to);
}

/** To /login, remembering where the user was. */
export function goToLogin(): void {
  const here = location.pathname + location.search;
  navigateTo(isSignInPath(location.pathname) ? here : loginRedirect(here), true);
}
