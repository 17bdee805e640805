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

/**
 * A change of state other processes keep copies of (module auth: sessions ended, users updated;
 * module api-accounts: sub-accounts and API settings), so that they drop those copies. Ids only.
 */
export interface StateChange {
  sessions?: string[];
  users?: string[];
  /** Module api-accounts: sub-accounts changed, and companies whose API settings changed. */
  subAccounts?: string[];
  companies?: string[];
  /** Module sim: accounts whose simulated contacts changed. */
  simContacts?: string[];
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
  /**
   * Announces a committed change to this process (synchronously) and to the others. Resolves once
   * every other live process has dropped its copies (PostgreSQL: each acknowledges; a process that
   * has not within 2 s is not waited for); rejects when it could not be sent (after retries).
   */
  announceChange(change: StateChange): Promise<void>;
  /**
   * Changes announced by any process; 'all' when this process may have missed some (its listener
   * was lost or silent) and must drop every copy. Returns the unsubscribe function.
   */
  onChange(listener: (change: StateChange | 'all') => void): () => void;
  /**
   * Whether the changes every process announces reach this one now: always in one process; with
   * PostgreSQL, while the listener is connected and hears its own heartbeat.
   */
  changesLive(): boolean;
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
  const changeListeners = new Set<(change: StateChange | 'all') => void>();
  const changed = (change: StateChange | 'all') => {
    for (const listener of changeListeners) listener(change);
  };
  return {
    publish: (event) => void emitter.emit(event.companyId, event),
    subscribe: (companyId, listener) => on(companyId, listener),
    async endSessions({ userId, sessionIds }) {
      if (sessionIds.length > 0) emitter.emit(`${ENDED}${userId}`, sessionIds);
    },
    onSessionsEnded: (userId, listener) => on(`${ENDED}${userId}`, listener),
    announceChange: async (change) => changed(change),
    onChange(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    changesLive: () => true,
    close: async () => {
      emitter.removeAllListeners();
      changeListeners.clear();
    },
  };
}

/** NOTIFY payloads are limited to 8000 bytes: ids (16 characters) go in batches well below that. */
const IDS_PER_NOTIFY = 200;
/** A batch of live events stays below this many bytes (of JSON), with room for the envelope. */
const MAX_BATCH_BYTES = 7000;

type Wire =
  | { o: string; e: BusEvent }
  | { o: string; b: BusEvent[] }
  | { o: string; s: SessionsEnded }
  /** A state change; `n` numbers it for the acknowledgements. */
  | { o: string; c: StateChange; n?: number }
  /** Process `o` has dropped its copies for change `n` of process `a`. */
  | { o: string; a: string; n: number }
  | { o: string; h: number }
  /** Process `o` stops (it will acknowledge nothing more). */
  | { o: string; bye: 1 };

/** How often each process notifies itself, to know its listener still hears. */
const HEARTBEAT_MS = 2_000;
/** Not heard its own heartbeat this long: changes may be missed, copies are not served. */
const SILENT_AFTER_MS = 3 * HEARTBEAT_MS;
/** Not heard this long: the listener connection is replaced. */
const RECONNECT_AFTER_MS = 5 * HEARTBEAT_MS;
const NOTIFY_ATTEMPTS = 3;
/**
 * Longest wait for the other processes to acknowledge a state change. A process that has not by then
 * is stuck or gone; if it still runs, it stops serving copies once its own heartbeat goes unheard.
 */
const ACK_WAIT_MS = 2_000;
/**
 * No other process heard for this long (its heartbeat, or anything else it sent): none is running,
 * so live events are not notified. A running process is heard every HEARTBEAT_MS, and replaces a
 * silent listener after RECONNECT_AFTER_MS, announcing itself once it listens again.
 */
const PEERS_GONE_AFTER_MS = RECONNECT_AFTER_MS + HEARTBEAT_MS;
/**
 * Once our listener starts, how long another process may be running unheard: every one heartbeats
 * every HEARTBEAT_MS, so two of them are a round with room to spare.
 */
const PEERS_UNHEARD_AFTER_START_MS = 2 * HEARTBEAT_MS;

export interface PostgresBusOptions {
  /** Tests: PEERS_GONE_AFTER_MS and PEERS_UNHEARD_AFTER_START_MS, shorter. */
  peersGoneAfterMs?: number;
  peersUnheardAfterStartMs?: number;
}

/**
 * Several processes sharing PostgreSQL: events travel by LISTEN/NOTIFY, so a console connected to
 * one process hears what happened in another. Each process also delivers its own events locally.
 *
 * State changes (`announceChange`) are what other processes' cached copies depend on, so this bus
 * also knows whether it hears everything: each process notifies itself every 2 s and counts as live
 * while it hears that heartbeat (silent for 6 s: not live). A lost or silent listener connection is
 * replaced; once the new one listens, every copy is dropped ('all'), since whatever was announced
 * meanwhile was not heard.
 *
 * A state change is acknowledged: every process that hears one drops its copies and answers, and
 * `announceChange` resolves once every other live process (heard within the silence limit: their
 * heartbeats tell who they are) has answered, or after ACK_WAIT_MS. So a logout that has answered has
 * ended the session in every process, not only on its way to them.
 */
export async function createPostgresBus(
  url: string,
  log: FastifyBaseLogger,
  opts: PostgresBusOptions = {},
): Promise<EventBus> {
  const peersGoneAfterMs = opts.peersGoneAfterMs ?? PEERS_GONE_AFTER_MS;
  const peersUnheardAfterStartMs = opts.peersUnheardAfterStartMs ?? PEERS_UNHEARD_AFTER_START_MS;
  const local = createLocalBus();
  const origin = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const changeListeners = new Set<(change: StateChange | 'all') => void>();
  const changed = (change: StateChange | 'all') => {
    for (const listener of changeListeners) listener(change);
  };

  let listener: pg.Client | null = null;
  let lastHeard = Date.now();
  /** The other processes, by origin: when each was last heard. */
  const peers = new Map<string, number>();
  /**
   * Until when another process may be listening (live events are notified only until then): a
   * while after another was last heard, and after our listener starts, until a heartbeat round
   * has gone by (a process running meanwhile may not have been heard yet).
   */
  let othersMayListenUntil = Date.now() + peersUnheardAfterStartMs;
  // Without a listener we hear nobody: the others are assumed.
  const othersMayListen = () => listener === null || Date.now() < othersMayListenUntil;
  const mayListenFor = (ms: number) => {
    othersMayListenUntil = Math.max(othersMayListenUntil, Date.now() + ms);
  };
  /** State changes of ours waiting for acknowledgements, by number: who has yet to answer. */
  const awaitingAcks = new Map<number, { waiting: Set<string>; done: () => void }>();
  let changeNumber = 0;
  const livePeers = () => {
    const now = Date.now();
    const live: string[] = [];
    for (const [peer, at] of peers) {
      if (now - at < SILENT_AFTER_MS) live.push(peer);
      else peers.delete(peer);
    }
    return live;
  };
  const peerGone = (peer: string) => {
    peers.delete(peer);
    for (const [n, pending] of awaitingAcks) {
      pending.waiting.delete(peer);
      if (pending.waiting.size === 0) {
        awaitingAcks.delete(n);
        pending.done();
      }
    }
  };
  let closed = false;
  let reconnecting = false;

  const onNotification = (msg: pg.Notification) => {
    if (!msg.payload) return;
    try {
      const wire = JSON.parse(msg.payload) as Wire;
      if (wire.o !== origin) mayListenFor(peersGoneAfterMs);
      if ('h' in wire) {
        if (wire.o === origin) heard();
        else peers.set(wire.o, Date.now());
        return;
      }
      if (wire.o === origin) return;
      peers.set(wire.o, Date.now());
      if ('bye' in wire) peerGone(wire.o);
      else if ('a' in wire) {
        const pending = wire.a === origin ? awaitingAcks.get(wire.n) : undefined;
        if (pending?.waiting.delete(wire.o) && pending.waiting.size === 0) {
          awaitingAcks.delete(wire.n);
          pending.done();
        }
      } else if ('b' in wire || 'e' in wire) {
        for (const raw of 'b' in wire ? wire.b : [wire.e]) {
          const event = busEventOf(raw);
          if (event) local.publish(event);
          else
            log.warn({ kind: (raw as { kind?: unknown })?.kind }, 'live event not in the contract, dropped');
        }
      } else if ('c' in wire) {
        changed(wire.c);
        if (wire.n !== undefined) {
          notifySurely({ o: origin, a: wire.o, n: wire.n }).catch((err) =>
            log.warn({ err }, 'state change acknowledgement failed'),
          );
        }
      } else void local.endSessions(wire.s);
    } catch (err) {
      log.warn({ err }, 'bad live event payload');
    }
  };
  /** Our own heartbeat came back. After a silence, copies kept from before it are dropped first. */
  function heard() {
    const now = Date.now();
    if (now - lastHeard >= SILENT_AFTER_MS) changed('all');
    lastHeard = now;
  }

  const notifier = new pg.Pool({ connectionString: url, max: 2 });
  const notify = (wire: Wire) => notifier.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(wire)]);

  async function listen() {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    client.on('notification', onNotification);
    const lost = (err?: Error) => {
      if (listener !== client) return;
      listener = null;
      if (err) log.error({ err }, 'live event listener failed');
      client.end().catch(() => {});
      void reconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
    mayListenFor(peersUnheardAfterStartMs);
    // Listening from now on; what was announced before was not heard.
    changed('all');
    lastHeard = Date.now();
    // Known to the others at once (not at the next heartbeat): their changes wait for our answer.
    notify({ o: origin, h: 1 }).catch((err) => log.warn({ err }, 'heartbeat notify failed'));
  }
  async function reconnect() {
    if (reconnecting || closed) return;
    reconnecting = true;
    for (let delay = 500; !closed && !listener; delay = Math.min(delay * 2, 30_000)) {
      await new Promise((r) => setTimeout(r, delay).unref());
      if (closed) break;
      try {
        await listen();
        log.info('live event listener reconnected');
      } catch (err) {
        log.warn({ err }, 'live event listener: reconnect failed');
      }
    }
    reconnecting = false;
  }
  await listen();

  async function notifySurely(wire: Wire) {
    for (let attempt = 1; ; attempt++) {
      try {
        await notify(wire);
        return;
      } catch (err) {
        if (attempt >= NOTIFY_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  }

  const heartbeat = setInterval(() => {
    if (listener && Date.now() - lastHeard >= RECONNECT_AFTER_MS) {
      log.warn('live event listener silent: reconnecting');
      const silent = listener;
      listener = null;
      silent.end().catch(() => {});
      void reconnect();
    }
    if (listener) notify({ o: origin, h: 1 }).catch((err) => log.warn({ err }, 'heartbeat notify failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  /**
   * Live events leave in batches: one NOTIFY carries every event published while the previous one
   * was on its way (each NOTIFY is a transaction that PostgreSQL serialises on its notification
   * queue, so one per event caps the whole deployment at a few hundred events a second). One batch
   * at a time, in order; each under the 8000-byte payload limit.
   *
   * A process that has heard no other for PEERS_GONE_AFTER_MS, or none in the heartbeat round since
   * its listener started, sends none: nobody would hear them (a process alone, WORKERS=1, spent CPU
   * on every one: bench/README.md, session 26). A process that starts announces itself as soon as it
   * listens, and is sent events once that is heard (live events are hints to re-read: what a view
   * missed before, it read when it opened).
   */
  let outgoing: { event: BusEvent; bytes: number }[] = [];
  let sending = false;
  async function sendEvents() {
    sending = true;
    while (outgoing.length > 0) {
      let size = 0;
      let n = 0;
      while (n < outgoing.length && (n === 0 || size + outgoing[n]!.bytes < MAX_BATCH_BYTES)) {
        size += outgoing[n]!.bytes + 1;
        n += 1;
      }
      const batch = outgoing.slice(0, n).map((o) => o.event);
      outgoing = outgoing.slice(n);
      await notify({ o: origin, b: batch }).catch((err) => log.warn({ err }, 'live event notify failed'));
    }
    sending = false;
  }

  return {
    publish(event) {
      local.publish(event);
      if (!othersMayListen()) return;
      outgoing.push({ event, bytes: Buffer.byteLength(JSON.stringify(event)) });
      if (!sending) void sendEvents();
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
    async announceChange(change) {
      changed(change);
      const acks: Promise<void>[] = [];
      for (const [kind, ids] of Object.entries(change) as [keyof StateChange, string[] | undefined][]) {
        for (let i = 0; i < (ids?.length ?? 0); i += IDS_PER_NOTIFY) {
          const n = ++changeNumber;
          const waiting = new Set(livePeers());
          if (waiting.size > 0) {
            acks.push(
              new Promise<void>((resolve) => {
                const timer = setTimeout(() => {
                  const pending = awaitingAcks.get(n);
                  awaitingAcks.delete(n);
                  if (pending)
                    log.warn({ processes: [...pending.waiting] }, 'state change not acknowledged in time');
                  resolve();
                }, ACK_WAIT_MS);
                timer.unref();
                awaitingAcks.set(n, {
                  waiting,
                  done: () => {
                    clearTimeout(timer);
                    resolve();
                  },
                });
              }),
            );
          }
          await notifySurely({ o: origin, c: { [kind]: ids!.slice(i, i + IDS_PER_NOTIFY) }, n });
        }
      }
      await Promise.all(acks);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    changesLive: () => listener !== null && Date.now() - lastHeard < SILENT_AFTER_MS,
    async close() {
      closed = true;
      clearInterval(heartbeat);
      // The others stop waiting for our answers.
      await notify({ o: origin, bye: 1 }).catch(() => {});
      for (const [, pending] of awaitingAcks) pending.done();
      awaitingAcks.clear();
      changeListeners.clear();
      await local.close();
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
      await notifier.end().catch(() => {});
    },
  };
}
