/**
 * Where sign-in sends people, as pure functions with no imports: the sign-in screen (its own small
 * bundle) and the console's guard both use them.
 */

export function loginRedirect(fullPath: string): string {
  return fullPath && fullPath !== '/' ? `/login?redirect=${encodeURIComponent(fullPath)}` : '/login';
}

/**
 * Where to go after login: the `redirect` query if it is a path of this site (never another
 * origin, never back to the login screen), else home.
 */
export function safeRedirect(redirect: string | null | undefined): string {
  if (!redirect?.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  const path = redirect.split(/[?#]/)[0] ?? '';
  if (path === '/login' || path === '/register') return '/';
  return redirect;
}

/** The sign-in screen is its own page (login.html): the console reaches it by a full page load. */
export const isSignInPath = (pathname: string) => pathname === '/login' || pathname === '/register';

const NOTICE_KEY = 'wxc-sign-in-notice';

/**
 * Why the console sent someone to sign in (an expired session, say): it travels to the sign-in
 * page, a full page load away, in this tab's session storage (never in the URL, where anyone could
 * write a message for the page to show).
 */
export function leaveSignInNotice(text: string): void {
  try {
    sessionStorage.setItem(NOTICE_KEY, text);
  } catch {
    // storage unavailable (private mode): the sign-in page just shows no reason
  }
}

/** The notice left for the sign-in page, once. */
export function takeSignInNotice(): string | null {
  try {
    const text = sessionStorage.getItem(NOTICE_KEY);
    sessionStorage.removeItem(NOTICE_KEY);
    return text;
  } catch {
    return null;
  }
}
