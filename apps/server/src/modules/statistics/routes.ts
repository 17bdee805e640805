import { recordCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { StatisticsService } from './service.js';

/** The dashboard figures (/api/statistic/*), the month series and the account details. */
export function registerStatisticsRoutes(route: Route, stats: StatisticsService) {
  const figure = async (value: Promise<number>) => ({ value: await value });
  route(recordCalls.getOnlineCountNow, ({ auth }) => figure(stats.onlineNow(auth.user.id)));
  route(recordCalls.getMaxOnlineCountNow, ({ auth }) => figure(stats.maxOnlineToday(auth.user.id)));
  route(recordCalls.getAddedToday, ({ auth }) => figure(stats.addedToday(auth.user.id)));
  route(recordCalls.onlineDays, ({ auth }) => figure(stats.onlineDays(auth.user.id)));
  route(recordCalls.getOnlineYesterday, ({ auth }) => figure(stats.onlineYesterday(auth.user.id)));
  route(recordCalls.getMaxOnlineCountYesterday, ({ auth }) => figure(stats.maxOnlineYesterday(auth.user.id)));
  route(recordCalls.getAddedYesterday, ({ auth }) => figure(stats.addedYesterday(auth.user.id)));
  route(recordCalls.getMaxOnline, ({ auth }) => figure(stats.maxOnlineEver(auth.user.id)));
  route(recordCalls.getTotalCount, ({ auth }) => figure(stats.totalAccounts(auth.user.id)));
  route(recordCalls.statisticsMonth, ({ input, auth }) => stats.month(auth.user.id, input.month));
  route(recordCalls.accountDetails, ({ input, auth }) => stats.accountDetails(auth.user.id, input));
}
