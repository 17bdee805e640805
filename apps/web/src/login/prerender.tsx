import { renderToString } from 'preact-render-to-string';
import SignInPage from '../pages/login';

/**
 * Build time (scripts/prerender-login.mjs): the sign-in screen's markup for one address and version
 * flag (the 正式版 label changes the markup). Facts that are text are placeholders the server fills
 * in at start (web.ts), so one build serves every configuration.
 */
export function renderSignIn(path: '/login' | '/register', serverFlag: string): string {
  const site = { productTitle: '__PRODUCT_TITLE__', serverFlag, year: '__YEAR__' };
  return renderToString(<SignInPage path={path} search="" site={site} />);
}
