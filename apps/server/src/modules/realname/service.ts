import { DAY_MS, type RealNameInfo, type RealNameReview, RealNameStatus } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB, FileRow, ReviewStateValue } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import type { AuditService } from '../audit/service.js';
import type { UserDirectory } from '../auth/users.js';
import type { EventBus } from '../events/bus.js';
import type { FileService } from '../files/service.js';
import type { ImageUpload } from '../files/upload.js';
import type { SettingsService } from '../settings/service.js';
import * as repo from './repo.js';

/** uploadImg leftovers no submission uses are removed after this long. */
const ORPHAN_AFTER_MS = DAY_MS;

export interface RealNameDeps {
  db: Kysely<DB>;
  /** The images: files of kind `realname`, with short-lived links. */
  files: Pick<FileService, 'save' | 'link' | 'idOf' | 'findMany' | 'olderThan' | 'remove'>;
  /** The company's status lives on its user row. */
  users: Pick<UserDirectory, 'customer' | 'setRealNameStatus' | 'changed'>;
  settings: Pick<SettingsService, 'isOn' | 'setSwitch'>;
  audit: AuditService;
  bus: EventBus;
}

/**
 * Real-name verification (spec §3, §4): images are files (kind `realname`), one review per
 * submission, the company's status on its user row. Image links live minutes and are handed out
 * only to the owner and operators.
 */
export function createRealNameService({ db, files, users, settings, audit, bus }: RealNameDeps) {
  async function imageViews(socialId: string, licenceId: string) {
    const rows = await files.findMany([socialId, licenceId]);
    const byId = new Map(rows.filter((r) => r.kind === 'realname').map((r) => [r.id, r]));
    const out = [];
    for (const [slot, id] of [
      ['social', socialId],
      ['licence', licenceId],
    ] as const) {
      const row = byId.get(id);
      if (row)
        out.push({ id, slot, url: (await files.link(row)).url, mime: row.mime, size: Number(row.size) });
    }
    return out;
  }

  async function companyRow(userId: string) {
    const company = await users.customer(userId);
    if (!company) throw new AppError('NOT_FOUND', '公司不存在');
    return company;
  }

  async function info(companyId: string): Promise<RealNameInfo> {
    const user = await companyRow(companyId);
    const review = await repo.latestReview(db, companyId);
    const images = review ? await imageViews(review.social_image_id, review.licence_image_id) : [];
    return {
      status: user.realNameStatus,
      imgs: images.map((i) => i.url),
      images,
      refuseReason:
        user.realNameStatus === RealNameStatus.REFUSED && review?.state === 'refused'
          ? review.refuse_reason
          : null,
      submittedAt: review ? Number(review.submitted_at) : null,
      decidedAt: review?.decided_at != null ? Number(review.decided_at) : null,
    };
  }

  async function assertMaySubmit(companyId: string) {
    const user = await companyRow(companyId);
    if (user.realNameStatus === RealNameStatus.VERIFIED) {
      throw new AppError('CONFLICT', '已通过实名认证，无需重复提交');
    }
  }

  const store = (companyId: string, file: ImageUpload): Promise<FileRow> =>
    files.save('realname', { companyId, data: file.data, fileName: file.fileName, mime: file.mime });

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
      await users.setRealNameStatus(companyId, RealNameStatus.REVIEWING, trx);
    });
    await users.changed(companyId);
    await audit.record({ userId: companyId, action: 'realname.submit', ip, detail: { socialId, licenceId } });
    bus.publish({ kind: 'realname', companyId, status: RealNameStatus.REVIEWING });
    return info(companyId);
  }

  async function cleanOrphans(companyId: string) {
    const old = await files.olderThan('realname', companyId, Date.now() - ORPHAN_AFTER_MS);
    const used = await repo.usedImageIds(
      db,
      old.map((f) => f.id),
    );
    for (const file of old) if (!used.has(file.id)) await files.remove(file);
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
    async submitUploads(companyId: string, images: [ImageUpload, ImageUpload], ip: string) {
      await assertMaySubmit(companyId);
      const social = await store(companyId, images[0]);
      const licence = await store(companyId, images[1]);
      return submit(companyId, social.id, licence.id, ip);
    },

    /** uploadImg: one image kept for a later updateRealNameImgs. */
    async uploadOne(companyId: string, file: ImageUpload) {
      await assertMaySubmit(companyId);
      await cleanOrphans(companyId);
      const row = await store(companyId, file);
      return { id: row.id, url: (await files.link(row)).url, mime: row.mime, size: row.size };
    },

    /** updateRealNameImgs: re-submits images this company uploaded before (ids or issued links). */
    async resubmit(companyId: string, refs: string[], ip: string) {
      await assertMaySubmit(companyId);
      const ids = refs.map((ref) => files.idOf('realname', ref));
      if (ids.some((id) => id === null)) throw new AppError('BAD_REQUEST', 'imgs：图片地址无效，请重新上传');
      const rows = await files.findMany(ids as string[]);
      for (const id of ids) {
        if (!rows.some((r) => r.id === id && r.kind === 'realname' && r.company_id === companyId)) {
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
        await users.setRealNameStatus(companyId, status, trx);
        return true;
      });
      if (!closed) throw new AppError('CONFLICT', '该公司当前没有待审核的实名资料（可能已被其他运营处理）');
      await users.changed(companyId);
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
  };
}

export type RealNameService = ReturnType<typeof createRealNameService>;
