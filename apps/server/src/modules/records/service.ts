import type { WxAccount } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { toWxAccount } from '../messaging/mappers.js';
import type { Gateway } from '../messaging/service.js';
import { type DeviceRecord, type LoginRecord, toDeviceRecord, toLoginRecord } from './mappers.js';
import * as repo from './repo.js';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface RecordDeps {
  db: Kysely<DB>;
  /** The customer's fields of an account are written by the gateway, which owns the accounts. */
  accounts: Pick<Gateway, 'updateAccount'>;
}

/** Records of the messaging gateway as the console reads them: accounts, login sessions, devices. */
export function createRecordService({ db, accounts }: RecordDeps) {
  async function update(
    companyId: string,
    wxid: string,
    patch: { remark?: string; expire_at?: number | null },
  ): Promise<WxAccount> {
    const account = await accounts.updateAccount(companyId, wxid, patch);
    if (!account) throw new AppError('NOT_FOUND', '微信账号不存在');
    return account;
  }

  return {
    /** A page of the company's accounts as rows (statistics adds today's message counts to them). */
    accountRows: (companyId: string, filter: repo.AccountFilter, page: number, pageSize: number) =>
      repo.accountPage(db, companyId, filter, page, pageSize),

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
