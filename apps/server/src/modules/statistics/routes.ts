import { recordCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import { customerCompany } from '../records/service.js';
import type { StatisticsService } from './service.js';

/** The dashboard figures (/api/statistic/*), the month series and the account details. */
export function registerStatisticsRoutes(route: Route, stats: StatisticsService) {
  const figure = async (value: Promise<number>) => ({ value: await value });
  route(recordCalls.getOnlineCountNow, ({ auth }) => figure(stats.onlineNow(customerCompany(auth))));
  route(recordCalls.getMaxOnlineCountNow, ({ auth }) => figure(stats.maxOnlineToday(customerCompany(auth))));
  route(recordCalls.getAddedToday, ({ auth }) => figure(stats.addedToday(customerCompany(auth))));
  route(recordCalls.onlineDays, ({ auth }) => figure(stats.onlineDays(customerCompany(auth))));
  route(recordCalls.getOnlineYesterday, ({ auth }) => figure(stats.onlineYesterday(customerCompany(auth))));
  route(recordCalls.getMaxOnlineCountYesterday, ({ auth }) =>
    figure(stats.maxOnlineYesterday(customerCompany(auth))),
  );
  route(recordCalls.getAddedYesterday, ({ auth }) => figure(stats.addedYesterday(customerCompany(auth))));
  route(recordCalls.getMaxOnline, ({ auth }) => figure(stats.maxOnlineEver(customerCompany(auth))));
  route(recordCalls.getTotalCount, ({ auth }) => figure(stats.totalAccounts(customerCompany(auth))));
  route(recordCalls.statisticsMonth, ({ input, auth }) => stats.month(customerCompany(auth), input.month));
  route(recordCalls.accountDetails, ({ input, auth }) => stats.accountDetails(customerCompany(auth), input));
}
