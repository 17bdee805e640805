import { EventEmitter } from 'node:events';
import { type LiveEvent, liveEventSchema } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/**
 * A live event on the bus: the contract's `LiveEvent` (what `GET /api/events` sends, thin on purpose:
 * it names what changed, details are read by id) and the company whose consoles hear it. Also how
 * work another process must notice travels.
 */
export type BusEvent = LiveEvent & { companyId: string };

/** A bus event read back from another process: checked against the contract, else null. */
function busEventOf(value: unknown): BusEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const { companyId, ...event } = value as Record<string, unknown>;
  const parsed = liveEventSchema.safeParse(event);
  return typeof companyId === 'string' && parsed.success ? { ...parsed.data, companyId } : null;
}

/**
 * Sessions that just ended (logout, password reset and phone change revoke them): the streams they
 * opened close at once, in every process. Session ids only, never tokens or their hashes.
 */
export interface SessionsEnded {
  userId: string;
  sessionIds: string[];
}

export interface EventBus {
  publish(event: BusEvent): void;
  /** Events of one company; returns the unsubscribe function. */
  subscribe(companyId: string, listener: (event: BusEvent) => void): () => void;
  /**
   * Announces ended sessions to this process (synchronously) and to the others. Resolves once every
   * process will hear it before anything published afterwards, so an event raised after a logout has
   * answered never reaches a stream of the revoked session. Never rejects (failures are logged; the
   * streams' own re-checks are the fallback).
   */
  endSessions(ended: SessionsEnded): Promise<void>;
  /** Ended sessions of one user, from any process; returns the unsubscribe function. */
  onSessionsEnded(userId: string, listener: (sessionIds: string[]) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'wxc_live';

/** Emitter keys: a company's live events under its id; a user's ended sessions under this prefix. */
const ENDED = 'ended:';

/** One process (embedded SQLite): an in-memory emitter. */
export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const on = <T>(key: string, listener: (value: T) => void) => {
    emitter.on(key, listener);
    return () => void emitter.off(key, listener);
  };
  return {
    publish: (event) => void emitter.emit(event.companyId, event),
    subscribe: (companyId, listener) => on(companyId, listener),
    async endSessions({ userId, sessionIds }) {
      if (sessionIds.length > 0) emitter.emit(`${ENDED}${userId}`, sessionIds);
    },
    onSessionsEnded: (userId, listener) => on(`${ENDED}${userId}`, listener),
    close: async () => void emitter.removeAllListeners(),
  };
}

/** NOTIFY payloads are limited to 8000 bytes: ids (16 characters) go in batches well below that. */
const IDS_PER_NOTIFY = 200;

type Wire = { o: string; e: BusEvent } | { o: string; s: SessionsEnded };

/**
 * Several processes sharing PostgreSQL: events travel by LISTEN/NOTIFY, so a console connected to
 * one process hears what happened in another. Each process also delivers its own events locally.
 */
export async function createPostgresBus(url: string, log: FastifyBaseLogger): Promise<EventBus> {
  const local = createLocalBus();
  const origin = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query(`LISTEN ${CHANNEL}`);
  listener.on('notification', (msg) => {
    if (!msg.payload) return;
    try {
      const wire = JSON.parse(msg.payload) as Wire;
      if (wire.o === origin) return;
      if ('e' in wire) {
        const event = busEventOf(wire.e);
        if (event) local.publish(event);
        else
          log.warn({ kind: (wire.e as { kind?: unknown })?.kind }, 'live event not in the contract, dropped');
      } else void local.endSessions(wire.s);
    } catch (err) {
      log.warn({ err }, 'bad live event payload');
    }
  });
  listener.on('error', (err) => log.error({ err }, 'live event listener failed'));
  const notifier = new pg.Pool({ connectionString: url, max: 2 });
  const notify = (wire: Wire) => notifier.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(wire)]);
  return {
    publish(event) {
      local.publish(event);
      notify({ o: origin, e: event }).catch((err) => log.warn({ err }, 'live event notify failed'));
    },
    subscribe: local.subscribe,
    async endSessions(ended) {
      await local.endSessions(ended);
      // Awaited, one batch after another: PostgreSQL delivers notifications in commit order, so every
      // listener hears this before any event notified after it returns.
      for (let i = 0; i < ended.sessionIds.length; i += IDS_PER_NOTIFY) {
        const sessionIds = ended.sessionIds.slice(i, i + IDS_PER_NOTIFY);
        try {
          await notify({ o: origin, s: { userId: ended.userId, sessionIds } });
        } catch (err) {
          log.warn({ err }, 'session end notify failed');
        }
      }
    },
    onSessionsEnded: local.onSessionsEnded,
    async close() {
      await local.close();
      await listener.end().catch(() => {});
      await notifier.end().catch(() => {});
    },
  };
}
