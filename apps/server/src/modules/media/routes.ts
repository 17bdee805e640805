import type { FastifyInstance } from 'fastify';
import type { MediaService } from './service.js';
import { isImage } from './sniff.js';

/**
 * GET /media/<id>?exp=…&sig=…: a signed, expiring link to a media file. Files are served so a
 * browser never runs them: nosniff, a sandboxing CSP, and anything but plain images as downloads.
 */
export function registerMediaRoutes(app: FastifyInstance, media: MediaService) {
  app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(
    '/media/:id',
    { schema: { hide: true } },
    async (req, reply) => {
      const found = await media.open(req.params.id, String(req.query.exp ?? ''), String(req.query.sig ?? ''));
      if (!found) return reply.status(404).type('text/plain; charset=utf-8').send('链接无效或已过期');
      const { row, data } = found;
      const inline = isImage(row.mime) || row.mime === 'image/svg+xml' || row.mime === 'video/mp4';
      return reply
        .header('content-type', row.mime)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.file_name)}`,
        )
        .send(data);
    },
  );
}
