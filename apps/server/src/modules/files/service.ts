import { createHmac } from 'node:crypto';
import { DAY_MS, realNameCalls } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB, FileKind, FileRow } from '../../db/schema.js';
import { newId, safeEqual } from '../../lib/crypto.js';
import type { SettingsService } from '../settings/service.js';
import type { FileStorage } from '../storage/local.js';
import * as repo from './repo.js';
import { sniffMime } from './sniff.js';

/**
 * How links to each kind of file look. Signed kinds: `<path><id>?exp=<ms>&sig=<hex>`, expiring, so
 * programs, the network and the console can fetch a file without a session while nobody can guess
 * a link or keep one forever; the public kind is served by its (random) id alone.
 */
export const FILE_KINDS: Record<
  FileKind,
  { path: string; signed: boolean; absolute: boolean; linkTtlMs: number }
> = {
  /** Uploads for sending and media contacts sent; fetched by programs and the network. */
  media: { path: '/media/', signed: true, absolute: true, linkTtlMs: DAY_MS },
  /** Real-name material: links only for the owner and operators, relative, living minutes. */
  realname: {
    path: '/realname/image/',
    signed: true,
    absolute: false,
    linkTtlMs: realNameCalls.REAL_NAME_LINK_TTL_SECONDS * 1000,
  },
  /** The support QR: a contact card meant to be shared, public under a random name. */
  support: { path: '/support-qr/', signed: false, absolute: false, linkTtlMs: 0 },
  /** Template showcase uploads (rich text images, the avatar, dropzone): the console shows them. */
  showcase: { path: '/showcase-file/', signed: true, absolute: false, linkTtlMs: DAY_MS },
};

const ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export interface NewFile {
  companyId: string | null;
  data: Buffer;
  /** The client's name for it: a label only (storage names are random). */
  fileName: string;
  origin?: 'upload' | 'received';
  /** Default: sniffed from the bytes (never taken from the name or the client's word). */
  mime?: string;
}

export interface FileServiceDeps {
  db: Kysely<DB>;
  storage: FileStorage;
  settings: Pick<SettingsService, 'secret'>;
  publicUrl: string;
}

/**
 * Every stored file (one table, `files`), its links and their check: one place that signs and
 * verifies, with a key kept in the database so every process signs alike. Files are served by
 * files/routes.ts.
 */
export function createFileService({ db, storage, settings, publicUrl }: FileServiceDeps) {
  const sign = async (id: string, exp: number) =>
    createHmac('sha256', await settings.secret('fileUrlKey'))
      .update(`${id}.${exp}`)
      .digest('hex');

  /** Stores the bytes under a random key, then the row; no row without its bytes. */
  async function save(kind: FileKind, file: NewFile): Promise<FileRow> {
    const id = newId();
    const row: FileRow = {
      id,
      kind,
      company_id: file.companyId,
      origin: file.origin ?? 'upload',
      mime: file.mime ?? sniffMime(file.data),
      size: file.data.length,
      file_name: file.fileName,
      storage_key: `${kind}/${id}`,
      created_at: Date.now(),
    };
    await storage.put(row.storage_key, file.data);
    try {
      await repo.insert(db, row);
    } catch (err) {
      await storage.delete(row.storage_key);
      throw err;
    }
    return row;
  }

  /** A link to the file: signed and expiring for signed kinds (default lifetime by kind). */
  async function link(file: { id: string; kind: FileKind }, ttlMs?: number) {
    const rules = FILE_KINDS[file.kind];
    const base = `${rules.absolute ? publicUrl : ''}${rules.path}${file.id}`;
    if (!rules.signed) return { url: base, expiresAt: null };
    const exp = Date.now() + (ttlMs ?? rules.linkTtlMs);
    return { url: `${base}?exp=${exp}&sig=${await sign(file.id, exp)}`, expiresAt: exp };
  }

  return {
    save,
    link,

    /** The id in a link this service issued for `kind` (or an id given as such); null otherwise. */
    idOf(kind: FileKind, ref: string): string | null {
      if (ID_PATTERN.test(ref)) return ref;
      const at = ref.indexOf(FILE_KINDS[kind].path);
      if (at < 0) return null;
      const id = ref.slice(at + FILE_KINDS[kind].path.length).split(/[?#]/)[0]!;
      return ID_PATTERN.test(id) ? id : null;
    },

    /**
     * The file of `kind` behind a link, or null when the link is wrong (another kind, a bad or
     * expired signature) or the file is gone.
     */
    async open(kind: FileKind, id: string, exp: string, sig: string) {
      if (!ID_PATTERN.test(id)) return null;
      if (FILE_KINDS[kind].signed) {
        if (!/^\d{13}$/.test(exp) || Number(exp) < Date.now() || !/^[0-9a-f]{64}$/.test(sig)) return null;
        if (!safeEqual(await sign(id, Number(exp)), sig)) return null;
      }
      const row = await repo.find(db, id);
      if (row?.kind !== kind) return null;
      const data = await storage.get(row.storage_key);
      return data ? { row, data } : null;
    },

    /** getSourceUrl: an upload for sending, and the link programs send it by. */
    async uploadMedia(companyId: string, upload: { fileName: string; data: Buffer }) {
      const row = await save('media', { companyId, ...upload });
      const { url } = await link(row);
      return { url, mediaId: row.id, mime: row.mime, size: row.size, fileName: row.file_name };
    },

    find: (id: string) => repo.find(db, id),
    findMany: (ids: readonly string[]) => repo.findMany(db, ids),
    /** A company's files of one kind beyond its newest `keep` (for caps), oldest first. */
    beyondNewest: (kind: FileKind, companyId: string, keep: number) =>
      repo.beyondNewest(db, kind, companyId, keep),
    /** A company's files of one kind stored before `before` (for clean-ups). */
    olderThan: (kind: FileKind, companyId: string, before: number) =>
      repo.olderThan(db, kind, companyId, before),

    /** Deletes the row, then the bytes. */
    async remove(file: { id: string; storage_key: string }) {
      await repo.remove(db, file.id);
      await storage.delete(file.storage_key);
    },
  };
}

export type FileService = ReturnType<typeof createFileService>;
