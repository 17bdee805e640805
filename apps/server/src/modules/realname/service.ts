import { createHmac, randomBytes } from 'node:crypto';
import { type RealNameInfo, type RealNameReview, RealNameStatus } from '@wxc/contract';
import { REAL_NAME_LINK_TTL_SECONDS } from '@wxc/contract/calls/realname';
import type { Kysely } from 'kysely';
import type { DB, RealnameImageRow, ReviewStateValue } from '../../db/schema.js';
import { newId, safeEqual } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { AuditService } from '../audit/service.js';
import type { EventBus } from '../events/bus.js';
import * as settingsRepo from '../settings/repo.js';
import type { SettingsService } from '../settings/service.js';
import type { FileStorage } from '../storage/local.js';
import * as repo from './repo.js';
import type { ImageUpload } from './upload.js';

const URL_KEY_SETTING = 'realname_url_key';
/** uploadImg leftovers no submission uses are removed after this long. */
const ORPHAN_AFTER_MS = 24 * 3_600_000;
/** Image links: /realname/image/<id>?exp=<ms>&sig=<hex>. */
export const IMAGE_PATH = '/realname/image/';
const ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
const LINK_PATTERN = /\/realname\/image\/([A-Za-z0-9_-]{8,64})(?:[?#]|$)/;

export interface RealNameDeps {
  db: Kysely<DB>;
  storage: FileStorage;
  settings: SettingsService;
  audit: AuditService;
  bus: EventBus;
}

/**
 * Real-name verification (spec §3, §4): images in storage with a row each, one review per
 * submission, the company's status on its user row. Images are served only through short-lived
 * links signed here and handed out only to the owner and operators.
 */
export function createRealNameService({ db, storage, settings, audit, bus }: RealNameDeps) {
  let key: Promise<string> | undefined;
  const urlKey = () => {
    key ??= (async () => {
      await settingsRepo.insertIfAbsent(db, URL_KEY_SETTING, randomBytes(32).toString('hex'), Date.now());
      return (await settingsRepo.get(db, URL_KEY_SETTING))!;
    })();
    return key;
  };
  const sign = async (id: string, exp: number) =>
    createHmac('sha256', await urlKey())
      .update(`realname.${id}.${exp}`)
      .digest('hex');

  async function link(id: string) {
    const exp = Date.now() + REAL_NAME_LINK_TTL_SECONDS * 1000;
    return `${IMAGE_PATH}${id}?exp=${exp}&sig=${await sign(id, exp)}`;
  }

  async function imageViews(socialId: string, licenceId: string) {
    const rows = await repo.imagesByIds(db, [socialId, licenceId]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out = [];
    for (const [slot, id] of [
      ['social', socialId],
      ['licence', licenceId],
    ] as const) {
      const row = byId.get(id);
      if (row) out.push({ id, slot, url: await link(id), mime: row.mime, size: Number(row.size) });
    }
    return out;
  }

  async function companyRow(userId: string) {
    const user = await db
      .selectFrom('users')
      .select(['id', 'role', 'real_name_status'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (user?.role !== 'customer') throw new AppError('NOT_FOUND', '公司不存在');
    return user;
  }

  async function info(companyId: string): Promise<RealNameInfo> {
    const user = await companyRow(companyId);
    const review = await repo.latestReview(db, companyId);
    const images = review ? await imageViews(review.social_image_id, review.licence_image_id) : [];
    return {
      status: user.real_name_status,
      imgs: images.map((i) => i.url),
      images,
      refuseReason:
        user.real_name_status === RealNameStatus.REFUSED && review?.state === 'refused'
          ? review.refuse_reason
          : null,
      submittedAt: review ? Number(review.submitted_at) : null,
      decidedAt: review?.decided_at != null ? Number(review.decided_at) : null,
    };
  }

  async function assertMaySubmit(companyId: string) {
    const user = await companyRow(companyId);
    if (user.real_name_status === RealNameStatus.VERIFIED) {
      throw new AppError('CONFLICT', '已通过实名认证，无需重复提交');
    }
  }

  async function store(companyId: string, file: ImageUpload): Promise<RealnameImageRow> {
    const id = newId();
    const row = {
      id,
      company_id: companyId,
      mime: file.mime,
      size: file.data.length,
      file_name: file.fileName,
      storage_key: `realname/${id}`,
      created_at: Date.now(),
    };
    await storage.put(row.storage_key, file.data);
    try {
      await repo.insertImage(db, row);
    } catch (err) {
      await storage.delete(row.storage_key);
      throw err;
    }
    return row;
  }

  /** A new submission: the pending one (if any) is superseded; the company is under review. */
  async function submit(companyId: string, socialId: string, licenceId: string, ip: string) {
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      await repo.closePending(trx, companyId, { state: 'superseded' });
      await repo.insertReview(trx, {
        id: newId(),
        company_id: companyId,
        social_image_id: socialId,
        licence_image_id: licenceId,
        state: 'pending',
        refuse_reason: null,
        submitted_at: now,
        decided_at: null,
        decided_by: null,
      });
      await trx
        .updateTable('users')
        .set({ real_name_status: RealNameStatus.REVIEWING, updated_at: now })
        .where('id', '=', companyId)
        .execute();
    });
    await audit.record({ userId: companyId, action: 'realname.submit', ip, detail: { socialId, licenceId } });
    bus.publish({ kind: 'realname', companyId, status: RealNameStatus.REVIEWING });
    return info(companyId);
  }

  /** An image id from an id or a link this service issued; null when it is neither. */
  function imageIdOf(ref: string): string | null {
    if (ID_PATTERN.test(ref)) return ref;
    return LINK_PATTERN.exec(ref)?.[1] ?? null;
  }

  async function cleanOrphans(companyId: string) {
    for (const row of await repo.orphanImages(db, companyId, Date.now() - ORPHAN_AFTER_MS)) {
      await repo.deleteImage(db, row.id);
      await storage.delete(row.storage_key);
    }
  }

  return {
    info,

    /** getRealNameImgs: customers only their own company; operators any company. */
    async imagesFor(caller: { id: string; roles: string[] }, userId: string | undefined) {
      const isOperator = caller.roles.includes('admin');
      if (!isOperator) {
        if (userId !== undefined && userId !== caller.id) {
          throw new AppError('FORBIDDEN', '只能查看本公司的实名认证资料');
        }
        return info(caller.id);
      }
      if (!userId) throw new AppError('BAD_REQUEST', 'userId：请提供要查看的公司编号');
      return info(userId);
    },

    /** uploadRealNameSource: both images at once, already checked (nothing stored otherwise). */
    async submitUploads(companyId: string, files: [ImageUpload, ImageUpload], ip: string) {
      await assertMaySubmit(companyId);
      const social = await store(companyId, files[0]);
      const licence = await store(companyId, files[1]);
      return submit(companyId, social.id, licence.id, ip);
    },

    /** uploadImg: one image kept for a later updateRealNameImgs. */
    async uploadOne(companyId: string, file: ImageUpload) {
      await assertMaySubmit(companyId);
      await cleanOrphans(companyId);
      const row = await store(companyId, file);
      return { id: row.id, url: await link(row.id), mime: row.mime, size: row.size };
    },

    /** updateRealNameImgs: re-submits images this company uploaded before (ids or issued links). */
    async resubmit(companyId: string, refs: string[], ip: string) {
      await assertMaySubmit(companyId);
      const ids = refs.map(imageIdOf);
      if (ids.some((id) => id === null)) throw new AppError('BAD_REQUEST', 'imgs：图片地址无效，请重新上传');
      const rows = await repo.imagesByIds(db, ids as string[]);
      for (const id of ids) {
        if (!rows.some((r) => r.id === id && r.company_id === companyId)) {
          throw new AppError('NOT_FOUND', '图片不存在，请重新上传');
        }
      }
      return submit(companyId, ids[0]!, ids[1]!, ip);
    },

    /** An operator's decision on the company's pending submission. */
    async decide(
      operatorId: string,
      companyId: string,
      decision: { pass: true } | { pass: false; reason: string },
      ip: string,
    ) {
      await companyRow(companyId);
      const now = Date.now();
      const status = decision.pass ? RealNameStatus.VERIFIED : RealNameStatus.REFUSED;
      const closed = await db.transaction().execute(async (trx) => {
        const n = await repo.closePending(trx, companyId, {
          state: decision.pass ? 'passed' : 'refused',
          refuse_reason: decision.pass ? null : decision.reason,
          decided_at: now,
          decided_by: operatorId,
        });
        if (n === 0) return false;
        await trx
          .updateTable('users')
          .set({ real_name_status: status, updated_at: now })
          .where('id', '=', companyId)
          .execute();
        return true;
      });
      if (!closed) throw new AppError('CONFLICT', '该公司当前没有待审核的实名资料（可能已被其他运营处理）');
      await audit.record({
        userId: operatorId,
        action: decision.pass ? 'realname.pass' : 'realname.refuse',
        ip,
        detail: decision.pass ? { companyId } : { companyId, reason: decision.reason },
      });
      bus.publish({ kind: 'realname', companyId, status });
      return info(companyId);
    },

    async reviews(filter: repo.ReviewFilter, page: number, pageSize: number) {
      const { rows, total } = await repo.reviewPage(db, filter, page, pageSize);
      const list: RealNameReview[] = [];
      for (const r of rows) {
        list.push({
          id: r.id,
          userId: r.company_id,
          companyName: r.company_name,
          companyAccount: r.company_account,
          realNameStatus: r.real_name_status,
          state: r.state as ReviewStateValue,
          images: await imageViews(r.social_image_id, r.licence_image_id),
          refuseReason: r.refuse_reason,
          submittedAt: Number(r.submitted_at),
          decidedAt: r.decided_at != null ? Number(r.decided_at) : null,
          decidedBy: r.decided_by_name || r.decided_by_account || null,
        });
      }
      return { list, total, page, pageSize };
    },

    isRequired: () => settings.isOn('realName'),
    async setRequired(on: boolean, operatorId: string, ip: string) {
      await settings.setSwitch('realName', on);
      await audit.record({ userId: operatorId, action: 'settings.realName', ip, detail: { open: on } });
      return { open: on };
    },

    /** The file behind a signed link, or null when the link is wrong, expired or the file is gone. */
    async open(id: string, exp: string, sig: string) {
      if (!ID_PATTERN.test(id) || !/^\d{13}$/.test(exp) || Number(exp) < Date.now()) return null;
      if (!/^[0-9a-f]{64}$/.test(sig) || !safeEqual(await sign(id, Number(exp)), sig)) return null;
      const row = await repo.findImage(db, id);
      if (!row) return null;
      const data = await storage.get(row.storage_key);
      return data ? { row, data } : null;
    },
  };
}

export type RealNameService = ReturnType<typeof createRealNameService>;
