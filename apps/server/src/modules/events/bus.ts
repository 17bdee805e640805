import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/**
 * Live events for consoles (SSE) and for work another process must notice. Thin on purpose, like
 * wechaty's events: they name what changed; details are read from the database by id.
 */
export type LiveEvent =
  | { kind: 'qr'; companyId: string; instanceId: string; state: string }
  | { kind: 'account'; companyId: string; wxid: string; status: 'online' | 'offline' }
  | {
      kind: 'message';
      companyId: string;
      wxid: string;
      msgId: string;
      direction: 'in' | 'out';
      status: string;
    }
  | { kind: 'callback'; companyId: string; eventId: string; status: string }
  | { kind: 'realname'; companyId: string; status: number };

export interface EventBus {
  publish(event: LiveEvent): void;
  /** Events of one company; returns the unsubscribe function. */
  subscribe(companyId: string, listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'wxc_live';

/** One process (embedded SQLite): an in-memory emitter. */
export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (event) => void emitter.emit(event.companyId, event),
    subscribe(companyId, listener) {
      emitter.on(companyId, listener);
      return () => emitter.off(companyId, listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}

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
      const { o, e } = JSON.parse(msg.payload) as { o: string; e: LiveEvent };
      if (o !== origin) local.publish(e);
    } catch (err) {
      log.warn({ err }, 'bad live event payload');
    }
  });
  listener.on('error', (err) => log.error({ err }, 'live event listener failed'));
  const notifier = new pg.Pool({ connectionString: url, max: 2 });
  return {
    publish(event) {
      local.publish(event);
      notifier
        .query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ o: origin, e: event })])
        .catch((err) => log.warn({ err }, 'live event notify failed'));
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      await listener.end().catch(() => {});
      await notifier.end().catch(() => {});
    },
  };
}
