import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

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

/**
 * Security headers of every answer (helmet, strict CSP; styles inline because antd writes them at
 * run time). `https` adds upgrade-insecure-requests and HSTS, only for requests that came over
 * https: over plain http (a LAN address, say) they would send the browser to an https origin that
 * does not exist, a blank console.
 */
export function securityHeaders(): { http: Record<string, string>; https: Record<string, string> } {
  return {
    http: headersOf({
      contentSecurityPolicy: { directives: { ...directives, upgradeInsecureRequests: null } },
      hsts: false,
      crossOriginEmbedderPolicy: false,
    }),
    https: headersOf({
      contentSecurityPolicy: { directives },
      hsts: { maxAge: 31_536_000, includeSubDomains: true },
      crossOriginEmbedderPolicy: false,
    }),
  };
}
