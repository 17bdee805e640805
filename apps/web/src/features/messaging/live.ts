import { LIVE_EVENTS_PATH } from '@wxc/contract/calls/events';
import { backoffMs, createSseParser, type LiveEvent, toLiveEvent } from './sse';

/**
 * One live-event connection per browser tab, shared by every page that listens: the first listener
 * opens `GET /api/events` (fetch + ReadableStream, authorised by the `Authorization` header), the
 * last one leaving closes it after a short linger (so switching pages does not reconnect). Dropped
 * connections come back with exponential backoff; a refused session (401/403) or a logout ends it.
 */
export type LiveStatus = 'idle' | 'connecting' | 'open' | 'retrying' | 'stopped';

export interface LiveDeps {
  fetch: typeof fetch;
  getToken(): string | undefined;
  url?: string;
  lingerMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (id: unknown) => void;
  random?: () => number;
}

export interface LiveConnection {
  subscribe(listener: (event: LiveEvent) => void): () => void;
  status(): LiveStatus;
  onStatus(listener: (status: LiveStatus) => void): () => void;
  /** Closes at once and forgets every listener's connection (logout). */
  stop(): void;
  /** Number of reconnects since the last successful open (for tests and the badge). */
  attempts(): number;
}

export function createLiveConnection(deps: LiveDeps): LiveConnection {
  const url = deps.url ?? LIVE_EVENTS_PATH;
  const lingerMs = deps.lingerMs ?? 15_000;
  const setT = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clearT = deps.clearTimeout ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>));
  const listeners = new Set<(event: LiveEvent) => void>();
  const statusListeners = new Set<(status: LiveStatus) => void>();
  let status: LiveStatus = 'idle';
  let controller: AbortController | null = null;
  let retryTimer: unknown = null;
  let lingerTimer: unknown = null;
  let attempt = 0;
  let generation = 0;

  function setStatus(next: LiveStatus) {
    if (status === next) return;
    status = next;
    for (const l of statusListeners) l(next);
  }

  function emit(event: LiveEvent) {
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch {
        // a listener's bug must not end the stream for the others
      }
    }
  }

  function close(next: LiveStatus) {
    generation += 1;
    controller?.abort();
    controller = null;
    if (retryTimer !== null) clearT(retryTimer);
    retryTimer = null;
    setStatus(next);
  }

  function scheduleRetry(serverRetryMs: number | undefined) {
    const delay = Math.max(
      serverRetryMs ?? 0,
      backoffMs(attempt, 1000, 30_000, (deps.random ?? Math.random)()),
    );
    attempt += 1;
    setStatus('retrying');
    retryTimer = setT(() => {
      retryTimer = null;
      void connect();
    }, delay);
  }

  async function connect() {
    const token = deps.getToken();
    if (!token || listeners.size === 0) {
      close(token ? 'idle' : 'stopped');
      return;
    }
    const mine = ++generation;
    controller = new AbortController();
    setStatus('connecting');
    const parser = createSseParser();
    try {
      const res = await deps.fetch(url, {
        headers: { Authorization: token, Accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (mine !== generation) return;
      if (res.status === 401 || res.status === 403) {
        // The session is gone (or this user has no live events): do not hammer the service. The next
        // listener after a new login connects again.
        close('stopped');
        return;
      }
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      setStatus('open');
      attempt = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || mine !== generation) break;
        for (const raw of parser.feed(value)) {
          const event = toLiveEvent(raw);
          if (event) emit(event);
        }
      }
      if (mine !== generation) return;
      scheduleRetry(parser.retryMs());
    } catch {
      if (mine !== generation) return;
      scheduleRetry(parser.retryMs());
    }
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (lingerTimer !== null) {
        clearT(lingerTimer);
        lingerTimer = null;
      }
      if (status === 'idle' || status === 'stopped') void connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0 || lingerTimer !== null) return;
        lingerTimer = setT(() => {
          lingerTimer = null;
          if (listeners.size === 0) close('idle');
        }, lingerMs);
      };
    },
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    stop() {
      if (lingerTimer !== null) clearT(lingerTimer);
      lingerTimer = null;
      attempt = 0;
      close('stopped');
    },
    attempts: () => attempt,
  };
}
