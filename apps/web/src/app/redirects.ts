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
