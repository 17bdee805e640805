import type { CallbackEventType } from '@wxc/contract';

/** An event for a sub-account's callback URL, as the gateway hands it over. */
export interface CallbackEventInput {
  companyId: string;
  subAccountId: string;
  /** The messaging account the event is about ('' for test events). */
  wxid: string;
  type: CallbackEventType;
  data: Record<string, unknown>;
}

/**
 * Where the gateway hands events for customers' callback URLs. The callbacks module implements it
 * with a persisted outbox; events of a sub-account without any callback URL are not stored.
 */
export interface CallbackSink {
  /** Stores the event for delivery (at least once) and returns its eventId, or null if no URL is set. */
  emit(event: CallbackEventInput): Promise<string | null>;
}
