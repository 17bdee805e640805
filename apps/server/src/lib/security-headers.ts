import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { NO_STORE } from './http.js';

const directives = {
  defaultSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  styleSrc: ["'self'", "'unsafe-inline'"], // antd writes its styles at run time
  scriptSrc: ["'self'"],
  connectSrc: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The headers helmet sets with these options, worked out once (helmet is a pure function of them). */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** An API answer's policy: it is data, never a page: nothing may load from it, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Headers that only mean something on a document (a page, or a file opened as one). A script or
 * style sheet never becomes a document (nosniff, its own type), so they are left off those: over
 * HTTP/1.1 they cost about 0.6 KB a file, and a page loads dozens.
 */
const DOCUMENT_ONLY_HEADERS = new Set([
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

const without = (headers: Record<string, string>, names: Set<string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name)));

/**
 * An API answer's headers, from a page's: the CSP that allows nothing, framing denied, and without
 * the headers that only mean something on a document (as for scripts and styles). A JSON answer
 * opened in a tab is locked down at least as tightly (OWASP's advice for REST answers), and every
 * answer is ~0.5 KB smaller. API answers carry tokens and personal data: never stored (errors and
 * misses included).
 */
function apiHeadersOf(page: Record<string, string>): Record<string, string> {
  return {
    ...without(page, DOCUMENT_ONLY_HEADERS),
    'content-security-policy': API_CSP,
    'x-frame-options': 'DENY',
    'cache-control': NO_STORE,
  };
}

/** What an answer is, for its headers: an API call's, a script's or style sheet's, or a page's. */
export type AnswerKind = 'api' | 'subresource' | 'page';

/**
 * Security headers of every answer (helmet, strict CSP; styles inline because antd writes them at
 * run time), by the answer's kind, worked out once at start. `https` adds upgrade-insecure-requests
 * and HSTS, only for requests that came over https: over plain http (a LAN address, say) they would
 * send the browser to an https origin that does not exist, a blank console.
 */
export function securityHeaders(): Record<
  AnswerKind,
  { http: Record<string, string>; https: Record<string, string> }
> {
  const http = headersOf({
    contentSecurityPolicy: { directives: { ...directives, upgradeInsecureRequests: null } },
    hsts: false,
    crossOriginEmbedderPolicy: false,
  });
  const https = headersOf({
    contentSecurityPolicy: { directives },
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
    crossOriginEmbedderPolicy: false,
  });
  return {
    page: { http, https },
    subresource: { http: without(http, DOCUMENT_ONLY_HEADERS), https: without(https, DOCUMENT_ONLY_HEADERS) },
    api: { http: apiHeadersOf(http), https: apiHeadersOf(https) },
  };
}
