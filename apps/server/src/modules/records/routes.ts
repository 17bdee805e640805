import { recordCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { RecordService } from './service.js';

/** 账号记录: accounts ever logged in, login records, devices; remark and expiry of an account. */
export function registerRecordRoutes(route: Route, records: RecordService) {
  route(recordCalls.queryHistoryWx, ({ input, auth }) => records.accounts(auth.user.id, input));
  route(recordCalls.queryWxLoginRecord, ({ input, auth }) => records.logins(auth.user.id, input));
  route(recordCalls.queryDeviceRecord, ({ input, auth }) => records.devices(auth.user.id, input));
  route(recordCalls.updateRemarks, ({ input, auth }) =>
    records.setRemark(auth.user.id, input.wxid, input.remark),
  );
  route(recordCalls.updateExpireTime, ({ input, auth }) =>
    records.setExpireAt(auth.user.id, input.wxid, input.expireAt),
  );
}
