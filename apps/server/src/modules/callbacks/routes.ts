import { callbackCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { CallbackService } from './service.js';

/** Delivery log, replay, test events, the callback URL, and the duplicate-delivery fault. */
export function registerCallbackRoutes(route: Route, callbacks: CallbackService) {
  route(callbackCalls.listDeliveries, ({ input, auth }) => callbacks.list(auth, input));
  route(callbackCalls.deliveryAttempts, ({ input, auth }) => callbacks.attempts(auth, input.eventId));
  route(callbackCalls.replayDelivery, ({ input, auth }) => callbacks.replay(auth, input.eventId));
  route(callbackCalls.sendTestEvent, ({ input, auth }) => callbacks.sendTest(auth, input.subAccountId));
  route(callbackCalls.resetCallbackUrl, ({ input, auth }) =>
    callbacks.resetCallbackUrl(auth, input.subAccountId, input.callbackUrl),
  );
  route(callbackCalls.duplicateCallback, ({ input, auth }) => callbacks.duplicate(auth, input.eventId));
}
