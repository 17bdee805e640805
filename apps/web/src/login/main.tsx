import { createRoot, hydrateRoot } from 'react-dom/client';
import { trackVisit } from '../features/visit';
import SignInPage from '../pages/login';
import { getToken } from '../stores/session';
import { useSite } from '../stores/site';
import { safeRedirect } from '../utils/redirects';
import '../styles/base.css';

/**
 * The sign-in screen (/login, /register) as a page of its own: its HTML is prerendered at build
 * time (scripts/prerender-login.mjs) and finished by the server at start (title, version flag,
 * year), so the form paints before any script runs; this small bundle (Preact with its React
 * compatibility layer, see vite.login.config.ts) then takes the form over in place. Signing in
 * goes on to the console by a full page load.
 */
const redirect = new URLSearchParams(location.search).get('redirect');
if (getToken()) {
  // Spec §2: with a token, the sign-in screen goes on to the console.
  location.replace(safeRedirect(redirect));
} else {
  const root = document.getElementById('root')!;
  const { productTitle, serverFlag, year, prerendered } = root.dataset;
  useSite.setState({
    ...(productTitle ? { productTitle } : {}),
    serverFlag: serverFlag ?? '',
    year: Number(year) || new Date().getFullYear(),
  });
  const page = <SignInPage path={location.pathname} search={location.search} />;
  // The server sends the page prerendered for the address it answers; anything else renders anew.
  if (prerendered === location.pathname) hydrateRoot(root, page);
  else createRoot(root).render(page);
  trackVisit(location.pathname);
}
