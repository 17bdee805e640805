import { describe, expect, it, vi } from 'vitest';
import { createLiveConnection } from './live';
import type { LiveEvent } from './sse';

/** A response whose body streams the given chunks, then ends (or stays open). */
function streamResponse(chunks: string[], keepOpen = false): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      if (!keepOpen) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function fakeTimers() {
  const timers: Array<{ fn: () => void; ms: number; id: number }> = [];
  let next = 1;
  return {
    timers,
    setTimeout: (fn: () => void, ms: number) => {
      const id = next++;
      timers.push({ fn, ms, id });
      return id;
    },
    clearTimeout: (id: unknown) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
    runAll() {
      const due = timers.splice(0);
      for (const t of due) t.fn();
    },
  };
}

describe('createLiveConnection', () => {
  it('connects on the first listener with the token, delivers events to every listener', async () => {
    const fetch = vi.fn(async () =>
      streamResponse(['event: account\ndata: {"wxid":"w","status":"online"}\n\n'], true),
    );
    const t = fakeTimers();
    const live = createLiveConnection({ fetch, getToken: () => 'tok', ...t });
    const a: LiveEvent[] = [];
    const b: LiveEvent[] = [];
    live.subscribe((e) => a.push(e));
    live.subscribe((e) => b.push(e));
    await flush();
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/events');
    expect((init.headers as Record<string, string>).Authorization).toBe('tok');
    expect(live.status()).toBe('open');
    expect(a).toEqual([{ kind: 'account', wxid: 'w', status: 'online' }]);
    expect(b).toEqual(a);
    live.stop();
  });

  it('reconnects with backoff when the stream ends, and stops for a refused session', async () => {
    let n = 0;
    const fetch = vi.fn(async () => {
      n += 1;
      if (n === 1) return streamResponse([': hi\n\n']);
      if (n === 2) throw new TypeError('Failed to fetch');
      return new Response('{"code":"403"}', { status: 401 });
    });
    const t = fakeTimers();
    const live = createLiveConnection({ fetch, getToken: () => 'tok', random: () => 0, ...t });
    live.subscribe(() => {});
    await flush();
    await flush();
    expect(live.status()).toBe('retrying');
    expect(t.timers[0]?.ms).toBe(1000);
    t.runAll();
    await flush();
    expect(live.status()).toBe('retrying');
    expect(t.timers[0]?.ms).toBe(2000);
    t.runAll();
    await flush();
    await flush();
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(live.status()).toBe('stopped');
    expect(t.timers).toHaveLength(0);
  });

  it('does not connect without a token; closes after the last listener leaves and lingers', async () => {
    const none = createLiveConnection({ fetch: vi.fn(), getToken: () => undefined, ...fakeTimers() });
    none.subscribe(() => {});
    expect(none.status()).toBe('stopped');

    const fetch = vi.fn(async (_u: RequestInfo | URL, init?: RequestInit) => {
      const res = streamResponse([], true);
      init?.signal?.addEventListener('abort', () => void res.body?.cancel().catch(() => {}));
      return res;
    });
    const t = fakeTimers();
    const live = createLiveConnection({ fetch, getToken: () => 'tok', lingerMs: 5000, ...t });
    const off = live.subscribe(() => {});
    await flush();
    off();
    expect(live.status()).toBe('open');
    expect(t.timers.map((x) => x.ms)).toEqual([5000]);
    // Back within the linger: the same connection serves.
    const off2 = live.subscribe(() => {});
    expect(t.timers).toHaveLength(0);
    off2();
    t.runAll();
    expect(live.status()).toBe('idle');
    expect(fetch).toHaveBeenCalledTimes(1);
    const init = fetch.mock.calls[0]?.[1] as RequestInit;
    const signal = init.signal as AbortSignal;
    expect(signal.aborted).toBe(true);
  });
});
