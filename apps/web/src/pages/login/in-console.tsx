import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';

// Only under the Vite dev server: a built console never carries the sign-in screen (see below).
const SignInPage = import.meta.env.DEV ? lazy(() => import('./index')) : null;

/**
 * /login and /register inside the console's router. In a built console the server answers those
 * addresses with the sign-in screen's own prerendered page (login.html), so reaching them here (the
 * guard, a link) reloads into it; under the Vite dev server it renders the same screen in place.
 */
export default function SignInInConsole() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!SignInPage) location.replace(pathname + search);
  }, [pathname, search]);
  if (!SignInPage) return null;
  return (
    <Suspense fallback={null}>
      <SignInPage path={pathname} search={search} />
    </Suspense>
  );
}
