/**
 * A bounded map of in-process copies of rows, for the caches that rest on announced invalidation
 * (modules/auth/cache.ts, modules/api-accounts/cache.ts): a copy is served only while it is younger
 * than `maxAgeMs` and `live()` says every process's announcements reach this one; past `maxEntries`
 * the oldest copy goes.
 */
export function createCopies<T>(opts: {
  maxEntries: number;
  maxAgeMs: number;
  live: () => boolean;
  /** Told of a copy pushed out by the size bound (to drop an index that points at it). */
  evicted?: (value: T) => void;
}) {
  const map = new Map<string, { value: T; readAt: number }>();
  return {
    /** The copy, when it may be served now. */
    get(key: string, now: number): T | undefined {
      const entry = map.get(key);
      if (!entry || now - entry.readAt >= opts.maxAgeMs || !opts.live()) return undefined;
      return entry.value;
    },
    /** The copy whatever its age (to find what an invalidation must also drop). */
    peek: (key: string): T | undefined => map.get(key)?.value,
    put(key: string, value: T, now: number) {
      // Re-inserted at the end: a map keeps insertion order, so the first key is the oldest copy.
      map.delete(key);
      map.set(key, { value, readAt: now });
      if (map.size > opts.maxEntries) {
        const [oldestKey, oldest] = map.entries().next().value as [string, { value: T }];
        map.delete(oldestKey);
        opts.evicted?.(oldest.value);
      }
    },
    delete: (key: string) => void map.delete(key),
    clear: () => map.clear(),
  };
}

/** How announced changes travel between processes (the event bus; wired in services.ts). */
export interface Changes<C> {
  /**
   * Announces a change to this process (synchronously, before anything else runs) and to the others;
   * resolves once every other process will hear it, rejects when it could not be sent.
   */
  announce(change: C): Promise<void>;
  /** Changes announced by any process; 'all' when some may have been missed. Returns the unsubscribe. */
  listen(listener: (change: C | 'all') => void): () => void;
  /** Whether the announcements of every process reach this one now. */
  live(): boolean;
}

/** One process: announcements are synchronous calls, always live (tests, and the bus-less default). */
export function localChanges<C>(): Changes<C> {
  const listeners = new Set<(change: C | 'all') => void>();
  return {
    async announce(change) {
      for (const listener of listeners) listener(change);
    },
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    live: () => true,
  };
}
