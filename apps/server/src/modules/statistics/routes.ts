import { statisticsCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { StatisticsService } from './service.js';

/** The dashboard figures (/api/statistic/*), the month series and the account details. */
export function registerStatisticsRoutes(route: Route, stats: StatisticsService) {
  const figure = async (value: Promise<number>) => ({ value: await value });
  route(statisticsCalls.getOnlineCountNow, ({ auth }) => figure(stats.onlineNow(auth.user.id)));
  route(statisticsCalls.getMaxOnlineCountNow, ({ auth }) => figure(stats.maxOnlineToday(auth.user.id)));
  route(statisticsCalls.getAddedToday, ({ auth }) => figure(stats.addedToday(auth.user.id)));
  route(statisticsCalls.onlineDays, ({ auth }) => figure(stats.onlineDays(auth.user.id)));
  route(statisticsCalls.getOnlineYesterday, ({ auth }) => figure(stats.onlineYesterday(auth.user.id)));
  route(statisticsCalls.getMaxOnlineCountYesterday, ({ auth }) =>
    figure(stats.maxOnlineYesterday(auth.user.id)),
  );
  route(statisticsCalls.getAddedYesterday, ({ auth }) => figure(stats.addedYesterday(auth.user.id)));
  route(statisticsCalls.getMaxOnline, ({ auth }) => figure(stats.maxOnlineEver(auth.user.id)));
  route(statisticsCalls.getTotalCount, ({ auth }) => figure(stats.totalAccounts(auth.user.id)));
  route(statisticsCalls.statisticsMonth, ({ input, auth }) => stats.month(auth.user.id, input.month));
  route(statisticsCalls.accountDetails, ({ input, auth }) => stats.accountDetails(auth.user.id, input));
}
