import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { newId, safeEqual } from '../../lib/crypto.js';
import * as settings from '../settings/repo.js';
import type { FileStorage } from '../storage/local.js';
import * as repo from './repo.js';
import { sniffMime } from './sniff.js';

export interface StoredMedia {
  mediaId: string;
  mime: string;
  size: number;
  fileName: string;
}

const URL_KEY_SETTING = 'media_url_key';
const DEFAULT_TTL_MS = 24 * 3_600_000;

/**
 * Media files (uploads for sending, media contacts sent) and their links: `/media/<id>?exp=…&sig=…`,
 * signed with a key kept in the database (so every process signs alike) and expiring, so programs
 * and the network can fetch them without a session while nobody can guess or keep one forever.
 */
export function createMediaService(db: Kysely<DB>, storage: FileStorage, publicUrl: string) {
  let key: Promise<string> | undefined;
  const urlKey = () => {
    key ??= (async () => {
      const existing = await settings.get(db, URL_KEY_SETTING);
      if (existing) return existing;
      await settings.insertIfAbsent(db, URL_KEY_SETTING, randomBytes(32).toString('hex'), Date.now());
      return (await settings.get(db, URL_KEY_SETTING))!;
    })();
    return key;
  };
  const sign = async (id: string, exp: number) =>
    createHmac('sha256', await urlKey())
      .update(`${id}.${exp}`)
      .digest('hex');

  return {
    async save(
      companyId: string,
      origin: 'upload' | 'received',
      data: Buffer,
      fileName: string,
      mime = sniffMime(data),
    ) {
      const id = newId();
      const storageKey = `media/${id}`;
      await storage.put(storageKey, data);
      await repo.insert(db, {
        id,
        company_id: companyId,
        origin,
        mime,
        size: data.length,
        file_name: fileName,
        storage_key: storageKey,
        created_at: Date.now(),
      });
      return { mediaId: id, mime, size: data.length, fileName } satisfies StoredMedia;
    },

    async signedUrl(mediaId: string, ttlMs = DEFAULT_TTL_MS) {
      const exp = Date.now() + ttlMs;
      return {
        url: `${publicUrl}/media/${mediaId}?exp=${exp}&sig=${await sign(mediaId, exp)}`,
        expiresAt: exp,
      };
    },

    /** The file behind a signed link, or null when the link is wrong, expired or the file is gone. */
    async open(mediaId: string, exp: string, sig: string) {
      if (!/^\d{13}$/.test(exp) || Number(exp) < Date.now() || !/^[0-9a-f]{64}$/.test(sig)) return null;
      if (!safeEqual(await sign(mediaId, Number(exp)), sig)) return null;
      const row = await repo.find(db, mediaId);
      if (!row) return null;
      const data = await storage.get(row.storage_key);
      return data ? { row, data } : null;
    },

    find: (mediaId: string) => repo.find(db, mediaId),
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
