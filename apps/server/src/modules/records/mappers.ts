import type { recordCalls } from '@wxc/contract';
import type { z } from 'zod';
import type { WxDeviceRow, WxLoginRow } from '../../db/schema.js';

export type LoginRecord = z.infer<typeof recordCalls.loginRecordSchema>;
export type DeviceRecord = z.infer<typeof recordCalls.deviceSchema>;

/** A `wx_logins` row (with the account's nickname, when it logged in) as a login record. */
export function toLoginRecord(row: WxLoginRow & { nickname: string | null }): LoginRecord {
  return {
    id: row.id,
    wxid: row.wxid,
    nickname: row.nickname,
    subAccountId: row.api_account_id,
    deviceId: row.device_id,
    proxy: row.proxy,
    result: row.result,
    startedAt: row.started_at,
    loggedInAt: row.logged_in_at,
    endedAt: row.ended_at,
    logoutReason: row.logout_reason,
  };
}

/** A `wx_devices` row (with the nickname of the account that last used it) as a device record. */
export function toDeviceRecord(row: WxDeviceRow & { nickname: string | null }): DeviceRecord {
  return {
    deviceId: row.id,
    name: row.name,
    subAccountId: row.api_account_id,
    wxid: row.wxid,
    nickname: row.nickname,
    proxy: row.proxy,
    loginCount: row.login_count,
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
  };
}
