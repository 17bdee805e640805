/**
 * The sign-in hand-off protocol of /auth-redirect (spec §2), as pure functions.
 *
 * A sign-in finished somewhere else reaches the console in one of two ways:
 * - **Fragment**: the other page sends the browser to `/auth-redirect?redirect=<path>#token=<token>`.
 *   A fragment never reaches a server or its logs; a query parameter would, so `?token=` is ignored.
 * - **Opener**: a window of this site opens /auth-redirect (e.g. as a popup). The page tells its
 *   opener `{ type: 'wxc:auth-ready' }`; the opener answers `{ type: 'wxc:auth-token', token }`.
 *   Only a message from this origin, sent by that very opener window, is taken.
 *
 * Either way the page checks the token with refreshLoginInfo before storing it, then closes itself
 * when it is a popup (telling the opener `wxc:auth-done`, or `wxc:auth-failed`), or goes on to
 * `redirect` (paths of this site only) otherwise.
 */
export const HANDOFF_READY = 'wxc:auth-ready';
export const HANDOFF_TOKEN = 'wxc:auth-token';
export const HANDOFF_DONE = 'wxc:auth-done';
export const HANDOFF_FAILED = 'wxc:auth-failed';

/** Session tokens are opaque URL-safe strings; anything else is refused before it is sent anywhere. */
const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,512}$/;

export function isPlausibleToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

export type FragmentToken = { kind: 'none' } | { kind: 'token'; token: string } | { kind: 'invalid' };

/** `#token=<token>` (other fragment parameters are ignored). */
export function tokenFromFragment(hash: string): FragmentToken {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text) return { kind: 'none' };
  const params = new URLSearchParams(text);
  if (!params.has('token')) return { kind: 'none' };
  const token = params.get('token') ?? '';
  return isPlausibleToken(token) ? { kind: 'token', token } : { kind: 'invalid' };
}

export interface HandoffMessage {
  origin: string;
  source: unknown;
  data: unknown;
}

/** The token of an opener's hand-off message, or null for any other message. */
export function tokenFromMessage(
  event: HandoffMessage,
  expected: { origin: string; opener: unknown },
): string | null {
  if (event.origin !== expected.origin) return null;
  if (!expected.opener || event.source !== expected.opener) return null;
  const data = event.data as { type?: unknown; token?: unknown } | null;
  if (!data || typeof data !== 'object' || data.type !== HANDOFF_TOKEN) return null;
  return isPlausibleToken(data.token) ? data.token : null;
}
