import { fileCalls } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';
import type { FileKind, FileRow } from '../../db/schema.js';
import type { Route } from '../../lib/http.js';
import { FILE_KINDS, type FileService } from './service.js';
import { isImage } from './sniff.js';
import { readMediaUpload } from './upload.js';

const SANDBOX = "default-src 'none'; sandbox";

/**
 * How each kind is served. Always `nosniff` and the stored (sniffed) type; signed kinds with a
 * sandboxing CSP so a browser never runs a file, and anything but plain images and video as downloads.
 */
const SERVED: Record<FileKind, { headers(row: FileRow): Record<string, string>; notFound: string }> = {
  media: {
    notFound: '链接无效或已过期',
    headers: (row) => {
      const inline = isImage(row.mime) || row.mime === 'image/svg+xml' || row.mime === 'video/mp4';
      return {
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        'cache-control': 'private, max-age=3600',
        'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.file_name)}`,
      };
    },
  },
  // Issued only to the owner and operators, living minutes: never kept by any cache.
  realname: {
    notFound: '链接无效或已过期',
    headers: () => ({
      'content-security-policy': SANDBOX,
      'cache-control': 'private, no-store',
      'content-disposition': 'inline',
    }),
  },
  // Showcase uploads: images shown in the console (the avatar, rich text), PDFs as downloads.
  showcase: {
    notFound: '链接无效或已过期',
    headers: (row) => ({
      'content-security-policy': SANDBOX,
      'cache-control': 'private, max-age=3600',
      'content-disposition': `${isImage(row.mime) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.file_name)}`,
    }),
  },
  // Public; a new upload gets a new name, so it is cached for good.
  support: {
    notFound: '图片不存在',
    headers: () => ({ 'cache-control': 'public, max-age=31536000, immutable' }),
  },
};

/**
 * GET <kind path><id>[?exp=…&sig=…]: one handler serves every kind of file (the links are made by
 * files/service.ts); nothing is listable. POST /api/tools/getSourceUrl stores media for sending.
 */
export function registerFileRoutes(app: FastifyInstance, route: Route, files: FileService) {
  for (const kind of Object.keys(FILE_KINDS) as FileKind[]) {
    app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(
      `${FILE_KINDS[kind].path}:id`,
      { schema: { hide: true } },
      async (req, reply) => {
        const found = await files.open(
          kind,
          req.params.id,
          String(req.query.exp ?? ''),
          String(req.query.sig ?? ''),
        );
        if (!found) return reply.status(404).type('text/plain; charset=utf-8').send(SERVED[kind].notFound);
        return reply
          .headers(SERVED[kind].headers(found.row))
          .header('content-type', found.row.mime)
          .header('x-content-type-options', 'nosniff')
          .send(found.data);
      },
    );
  }

  route(fileCalls.getSourceUrl, async ({ req, auth }) =>
    files.uploadMedia(auth.companyId, await readMediaUpload(req)),
  );
}
