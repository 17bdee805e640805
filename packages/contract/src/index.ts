export * from './call.js';
export * as apiAccountCalls from './calls/api-accounts.js';
export * as authCalls from './calls/auth.js';
export { type SmsScene, smsScene } from './calls/auth.js';
export * as callbackCalls from './calls/callbacks.js';
export * as catalogueCalls from './calls/catalogue.js';
export * as clientErrorCalls from './calls/client-errors.js';
export { CLIENT_ERROR_KINDS, type ClientError, type ClientErrorKind } from './calls/client-errors.js';
export { LIVE_EVENTS_PATH, type LiveEvent, type LiveEventKind, liveEventSchema } from './calls/events.js';
export * as fileCalls from './calls/files.js';
export * as messagingCalls from './calls/messaging.js';
export { ACTIVE_QR_STATES, isActiveQrState } from './calls/messaging.js';
export * as onboardingCalls from './calls/onboarding.js';
export { ONBOARDING_STEPS, type OnboardingStep } from './calls/onboarding.js';
export * as operatorCalls from './calls/operator.js';
export * as orderCalls from './calls/orders.js';
export * as packageCalls from './calls/packages.js';
export * as realNameCalls from './calls/realname.js';
export * as recordCalls from './calls/records.js';
export * as showcaseCalls from './calls/showcase.js';
export {
  allShowcaseCalls,
  type KanbanBoard,
  SHOWCASE_CODES,
  SHOWCASE_LOGGED_OUT_CODES,
  type ShowcaseArticle,
  type ShowcaseCallDef,
  type ShowcaseCodeName,
  type ShowcaseEnvelope,
  type ShowcaseFile,
  type ShowcaseRequest,
  type ShowcaseResponse,
  type ShowcaseRole,
  type ShowcaseRoute,
  showcaseEnvelopeSchema,
} from './calls/showcase.js';
export * as simCalls from './calls/sim.js';
export * as statisticsCalls from './calls/statistics.js';
export * as systemCalls from './calls/system.js';
export * as visitorCalls from './calls/visitors.js';
export * from './constants.js';
export * from './domain.js';
export * from './errors.js';
export * from './fields.js';

import type { CallDef } from './call.js';
import * as apiAccounts from './calls/api-accounts.js';
import * as auth from './calls/auth.js';
import * as callbacks from './calls/callbacks.js';
import * as catalogue from './calls/catalogue.js';
import * as clientErrors from './calls/client-errors.js';
import * as files from './calls/files.js';
import * as messaging from './calls/messaging.js';
import * as onboarding from './calls/onboarding.js';
import * as operator from './calls/operator.js';
import * as orders from './calls/orders.js';
import * as packages from './calls/packages.js';
import * as realName from './calls/realname.js';
import * as records from './calls/records.js';
import * as sim from './calls/sim.js';
import * as statistics from './calls/statistics.js';
import * as system from './calls/system.js';
import * as visitors from './calls/visitors.js';

function callsOf(module: Record<string, unknown>): CallDef[] {
  return Object.values(module).filter(
    (v): v is CallDef => typeof v === 'object' && v !== null && 'path' in v && 'method' in v,
  );
}

/**
 * Every call of the API, once each, for the OpenAPI document and the online tester's catalogue.
 */
export const allCalls: CallDef[] = [
  ...new Set([
    ...callsOf(system),
    ...callsOf(visitors),
    ...callsOf(auth),
    ...callsOf(packages),
    ...callsOf(orders),
    ...callsOf(apiAccounts),
    ...callsOf(messaging),
    ...callsOf(files),
    ...callsOf(records),
    ...callsOf(statistics),
    ...callsOf(onboarding),
    ...callsOf(callbacks),
    ...callsOf(sim),
    ...callsOf(catalogue),
    ...callsOf(realName),
    ...callsOf(operator),
    ...callsOf(clientErrors),
  ]),
];

export type { ApiAccount } from './calls/api-accounts.js';
export type { CallbackEnvelope, CallbackEventType } from './calls/callbacks.js';
export type { ApiParam } from './calls/catalogue.js';
export type { Contact, Message, QrState, WxAccount } from './calls/messaging.js';
export type { Company, PackageState } from './calls/operator.js';
export type { Order } from './calls/orders.js';
export type { Package, Subscription } from './calls/packages.js';
export type { RealNameInfo, RealNameReview, RealNameSlot, ReviewState } from './calls/realname.js';
