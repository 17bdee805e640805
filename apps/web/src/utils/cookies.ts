import { DAY_MS } from '@wxc/contract/constants';

/** A tiny cookie helper (the template used js-cookie): session cookies on path `/`, SameSite=Lax. */

export function getCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split('; ')) {
    if (part.startsWith(prefix)) {
      try {
        return decodeURIComponent(part.slice(prefix.length));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function setCookie(name: string, value: string, options: { days?: number } = {}): void {
  if (typeof document === 'undefined') return;
  let cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
  if (options.days !== undefined) {
    cookie += `; expires=${new Date(Date.now() + options.days * DAY_MS).toUTCString()}`;
  }
  if (typeof location !== 'undefined' && location.protocol === 'https:') cookie += '; Secure';
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps the token and UI state in cookies.
  document.cookie = cookie;
}

export function removeCookie(name: string): void {
  if (typeof document === 'undefined') return;
  // biome-ignore lint/suspicious/noDocumentCookie: see setCookie.
  document.cookie = `${encodeURIComponent(name)}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
}
