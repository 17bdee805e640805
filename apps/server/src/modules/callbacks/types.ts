import type { CallbackEventType } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { ShapedStatement } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';

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
  /**
   * The event with where it goes (the sub-account's URL, else the company default), or null when it
   * goes nowhere (no URL set, unknown sub-account). Looked up before a transaction opens: `store`
   * then writes it inside it.
   */
  address(event: CallbackEventInput): Promise<AddressedEvent | null>;
  /**
   * Stores an addressed event within the caller's transaction, so it is kept together with what it
   * tells, or not at all. Call `ended` once that transaction has ended: committed, the event is
   * delivered at once (a free delivery slot was taken for it, so it needs no claim); rolled back,
   * the slot is given back.
   */
  store(event: AddressedEvent, within: Kysely<DB>): Promise<StoredEvent>;
  /**
   * PostgreSQL only: runs `change` (a data-modifying query returning the "id" of each row it
   * changed) and stores the events about those rows (`about`: the row's id), each only if its row
   * was changed, all in one statement; they are then delivered as after `store` and a commit.
   * Returns the ids of the rows changed.
   */
  storeAbout(
    change: ShapedStatement<{ id: string }>,
    events: ReadonlyArray<{ about: string; event: AddressedEvent }>,
  ): Promise<Set<string>>;
}

export type AddressedEvent = CallbackEventInput & { url: string };

export interface StoredEvent {
  id: string;
  ended(committed: boolean): void;
}
