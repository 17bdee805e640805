import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

/** What the prerendered sign-in page leaves for the running server to fill in. */
export interface SiteFacts {
  productTitle: string;
  serverFlag: string;
}

interface Representation {
  body: Buffer;
  etag: string;
}
type Encoded = Record<'identity' | 'gzip' | 'br', Representation>;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

/**
 * /login and /register: the sign-in screen's own page, prerendered at build time for each address
 * and version flag (apps/web/scripts/prerender-login.mjs), finished here with this server's product
 * title and year, compressed once (brotli and gzip) and served from memory with validators, so the
 * form paints from the first response. Answers false when the build has no such pages.
 */
export function registerSignInPages(app: FastifyInstance, distDir: string, site: SiteFacts): boolean {
  const variant = (address: string) =>
    path.join(distDir, `${address}${site.serverFlag === 'formal' ? '.formal' : ''}.html`);
  const addresses = ['login', 'register'];
  if (!addresses.every((a) => fs.existsSync(variant(a)))) return false;

  const templates = new Map(addresses.map((a) => [a, fs.readFileSync(variant(a), 'utf8')]));
  // Finished per year, so a server running across New Year shows the new one.
  let builtFor = -1;
  const pages = new Map<string, Encoded>();
  const finish = (template: string, year: number): Encoded => {
    const html = Buffer.from(
      template
        .replaceAll('__PRODUCT_TITLE__', escapeHtml(site.productTitle))
        .replaceAll('__YEAR__', String(year)),
    );
    const tag = createHash('sha256').update(html).digest('base64url').slice(0, 20);
    return {
      identity: { body: html, etag: `"${tag}"` },
      gzip: { body: gzipSync(html, { level: 9 }), etag: `"${tag}-gz"` },
      br: {
        body: brotliCompressSync(html, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        }),
        etag: `"${tag}-br"`,
      },
    };
  };
  const page = (address: string): Encoded => {
    const year = new Date().getFullYear();
    if (year !== builtFor) {
      for (const [a, template] of templates) pages.set(a, finish(template, year));
      builtFor = year;
    }
    return pages.get(address)!;
  };

  for (const address of addresses) {
    app.get(`/${address}`, { schema: { hide: true } }, async (req, reply) => {
      const accept = req.headers['accept-encoding'];
      const encoding = (typeof accept === 'string' && encodings.negotiate(accept)) || 'identity';
      const chosen = page(address)[encoding];
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'Accept-Encoding')
        .header('etag', chosen.etag);
      if (req.headers['if-none-match'] === chosen.etag) return reply.status(304).send();
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(chosen.body);
    });
  }
  return true;
}
