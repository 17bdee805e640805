import type { WxAccount } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import {
  type DeviceRecord,
  type LoginRecord,
  toDeviceRecord,
  toLoginRecord,
  toWxAccount,
} from './mappers.js';
import * as repo from './repo.js';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Records of the messaging gateway as the console reads them: accounts, login sessions, devices. */
export function createRecordService(db: Kysely<DB>, now: () => number = Date.now) {
  async function account(companyId: string, wxid: string): Promise<WxAccount> {
    const row = await repo.findAccountView(db, companyId, wxid);
    if (!row) throw new AppError('NOT_FOUND', '微信账号不存在');
    return toWxAccount(row);
  }

  async function update(
    companyId: string,
    wxid: string,
    patch: { remark?: string; expire_at?: number | null },
  ) {
    const found = await repo.updateAccount(db, companyId, wxid, { ...patch, updated_at: now() });
    if (!found) throw new AppError('NOT_FOUND', '微信账号不存在');
    return account(companyId, wxid);
  }

  return {
    account,

    async accounts(
      companyId: string,
      q: { page: number; pageSize: number } & repo.AccountFilter,
    ): Promise<Page<WxAccount>> {
      const { rows, total } = await repo.accountPage(db, companyId, q, q.page, q.pageSize);
      return { list: rows.map(toWxAccount), total, page: q.page, pageSize: q.pageSize };
    },

    async logins(
      companyId: string,
      q: { page: number; pageSize: number; wxid?: string },
    ): Promise<Page<LoginRecord>> {
      const { rows, total } = await repo.loginPage(db, companyId, q.wxid, q.page, q.pageSize);
      return { list: rows.map(toLoginRecord), total, page: q.page, pageSize: q.pageSize };
    },

    async devices(
      companyId: string,
      q: { page: number; pageSize: number; wxid?: string },
    ): Promise<Page<DeviceRecord>> {
      const { rows, total } = await repo.devicePage(db, companyId, q.wxid, q.page, q.pageSize);
      return { list: rows.map(toDeviceRecord), total, page: q.page, pageSize: q.pageSize };
    },

    setRemark: (companyId: string, wxid: string, remark: string) => update(companyId, wxid, { remark }),

    /** A time in the past is allowed: the gateway's expiry sweep then logs the account out. */
    setExpireAt: (companyId: string, wxid: string, expireAt: number | null) =>
      update(companyId, wxid, { expire_at: expireAt }),
  };
}

export type RecordService = ReturnType<typeof createRecordService>;
