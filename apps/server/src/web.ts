import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCatalogue } from '@wxc/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerSignInPages, type SiteFacts } from './sign-in-page.js';

const notFound = (method: string, url: string) => ({
  code: ErrorCatalogue.NOT_FOUND.code,
  message: `接口不存在：${method} ${url.split('?')[0]}`,
  data: null,
});

/** An API address: `/api` and everything under it (case-sensitive, as the router is). */
export const isApiPath = (p: string) => p === '/api' || p.startsWith('/api/');

/**
 * Whether a request is for the API: by the route it matched, or, for a miss, by its path decoded
 * the way the router decodes it, so `/%61pi/...` is an API address like `/api/...`. The router is
 * case-sensitive, and so is this: `/API/...` is a console address (no call answers it).
 */
export function isApiRequest(req: FastifyRequest): boolean {
  // The common case first: a raw `/api/` address decodes to one too (and no route option is read).
  if (req.url.startsWith('/api/')) return true;
  const route = req.routeOptions.url;
  if (route !== undefined) return isApiPath(route);
  const rawPath = req.url.split('?')[0] ?? '';
  try {
    return isApiPath(decodeURIComponent(rawPath));
  } catch {
    return isApiPath(rawPath);
  }
}

/** Hashed build output (`assets/name-<hash>.js`): the name changes with the content. */
const isHashedAsset = (filePath: string) => filePath.includes(`${path.sep}assets${path.sep}`);

const SUBRESOURCE = /^\/assets\/[^/]+\.(js|css)$/;

/** A request for one of the console's scripts or style sheets (answered without page-only headers). */
export const isSubresourceRequest = (url: string) =>
  url.startsWith('/assets/') && SUBRESOURCE.test(url.split('?')[0] ?? '');

/**
 * Serves the built console at `/`. Every text file has brotli and gzip siblings written by the build
 * (apps/web/scripts/precompress.mjs), chosen by Accept-Encoding. Hashed assets are cached for a
 * year, immutable; index.html and other files are revalidated every time (no-cache, with ETag and
 * Last-Modified). Any other GET (or HEAD) that is not an API address gets index.html so client
 * routes survive a reload. API misses answer "404".
 */
export async function registerConsole(app: FastifyInstance, distDir: string, site: SiteFacts): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Our own Cache-Control below; @fastify/static's would overwrite it.
      cacheControl: false,
      setHeaders(res, filePath) {
        res.setHeader(
          'cache-control',
          isHashedAsset(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }

  if (built) registerSignInPages(app, distDir, site);

  app.setNotFoundHandler((req, reply) => {
    const isApi = isApiRequest(req);
    // HEAD is GET without the body: the same status and headers for every console address.
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    if (!isRead || isApi || !built) {
      if (!built && isRead && !isApi) {
        return reply
          .status(404)
          .type('text/plain; charset=utf-8')
          .send('控制台尚未构建：请运行 npm run build');
      }
      return reply.status(404).send(notFound(req.method, req.url));
    }
    return reply.sendFile('index.html');
  });
}
