import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCatalogue } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';

const notFound = (method: string, url: string) => ({
  code: ErrorCatalogue.NOT_FOUND.code,
  message: `接口不存在：${method} ${url.split('?')[0]}`,
  data: null,
});

/**
 * Serves the built console at `/`. Hashed assets are cached for a year; any other GET that is not
 * an API address gets index.html so client routes survive a reload. API misses answer "404".
 */
export async function registerConsole(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url.startsWith('/api/') || req.url === '/api';
    if (req.method !== 'GET' || isApi || !built) {
      if (!built && req.method === 'GET' && !isApi) {
        return reply
          .status(404)
          .type('text/plain; charset=utf-8')
          .send('控制台尚未构建：请运行 npm run build');
      }
      return reply.status(404).send(notFound(req.method, req.url));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
