import { loginRedirect } from './guard';

/**
 * Navigation from outside React (the request layer's dialogs). The router registers itself at
 * start; until then (or in tests) a full page load does the job.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => unknown;
let navigateImpl: Navigate | undefined;

export function registerNavigate(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(to: string, replace = false): void {
  if (navigateImpl) void navigateImpl(to, { replace });
  else location.assign(to);
}

/** To /login, remembering where the user was. */
export function goToLogin(): void {
  const here = location.pathname + location.search;
  const onLogin = location.pathname === '/login' || location.pathname === '/register';
  navigateTo(onLogin ? here : loginRedirect(here), true);
}
