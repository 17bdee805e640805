import { recordCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import { customerCompany, type RecordService } from './service.js';

/** 账号记录: accounts ever logged in, login records, devices; remark and expiry of an account. */
export function registerRecordRoutes(route: Route, records: RecordService) {
  route(recordCalls.queryHistoryWx, ({ input, auth }) => records.accounts(customerCompany(auth), input));
  route(recordCalls.queryWxLoginRecord, ({ input, auth }) => records.logins(customerCompany(auth), input));
  route(recordCalls.queryDeviceRecord, ({ input, auth }) => records.devices(customerCompany(auth), input));
  route(recordCalls.updateRemarks, ({ input, auth }) =>
    records.setRemark(customerCompany(auth), input.wxid, input.remark),
  );
  route(recordCalls.updateExpireTime, ({ input, auth }) =>
    records.setExpireAt(customerCompany(auth), input.wxid, input.expireAt),
  );
}
