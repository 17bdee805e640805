// Callbacks posted from a worker thread of their own (modules/callbacks/thread-transport.ts): the
// server's default. The other API tests post inline (helpers.ts says why); the outbox's rules are
// the same either way, so here: what the thread itself adds (batching both ways, its ending, its
// silence, a program that cannot start, closing) and the server's delivery journeys through it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CALLBACK_EVENT_HEADER, callbackCalls } from '@wxc/contract';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createThreadTransport,
  type ThreadTransportOptions,
} from '../src/modules/callbacks/thread-transport.js';
import { signCallback } from '../src/modules/callbacks/transport.js';
import {
  company,
  emitMessage,
  eventRow,
  FAST,
  PRIVATE_OK,
  type Receiver,
  receiver,
  verifySigned,
  waitFor,
} from './callback-helpers.js';
import { setUpCatalogue } from './commerce-helpers.js';
import { createTestApp, dialects } from './helpers.js';

/** What the transport logged, so a test can tell the thread ran (a failed start is logged). */
function logSpy() {
  const lines: Array<{ level: string; msg: string }> = [];
  const at =
    (level: string) =>
    (a: unknown, b?: unknown): void => {
      lines.push({ level, msg: String(typeof a === 'string' ? a : b) });
    };
  return { lines, log: { warn: at('warn'), error: at('error') } as ThreadTransportOptions['log'] };
}

/** The stand-in programs' directories, removed when the file's tests end. */
const standInDirs: string[] = [];
afterAll(() => {
  for (const dir of standInDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A stand-in thread program (plain JavaScript, run as it is): ready at once (or after `loadMs` of
 * work, as a program slow to load; or never: it hangs while starting); a post to a URL ending in /exit ends the thread, one
 * ending in /silent is never answered, any other is answered 299.
 */
function standInProgram({ loadMs = 0, ready = true } = {}): URL {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wxc-thread-'));
  standInDirs.push(dir);
  const file = path.join(dir, 'program.mjs');
  writeFileSync(
    file,
    `import { parentPort } from 'node:worker_threads';
for (const end = Date.now() + ${loadMs}; Date.now() < end;);
${ready ? '' : 'setInterval(() => {}, 1000); await new Promise(() => {}); // hangs while starting'}
parentPort.on('message', (posts) => {
  for (const [id, post] of posts) {
    if (post.url.endsWith('/exit')) process.exit(3);
    if (post.url.endsWith('/silent')) continue;
    parentPort.postMessage([[id, { statusCode: 299, error: null, durationMs: 1, at: Date.now() }]]);
  }
});
parentPort.postMessage([]);
`,
  );
  return pathToFileURL(file);
}

/** A thread transport running the stand-in program, and what it logged. */
function standIn(
  options: Partial<ThreadTransportOptions> = {},
  program: Parameters<typeof standInProgram>[0] = {},
) {
  const spy = logSpy();
  const transport = createThreadTransport({
    allowPrivate: true,
    timeoutMs: 1_000,
    log: spy.log,
    program: standInProgram(program),
    ...options,
  });
  return { transport, spy };
}

const post = (url: string, eventId = 'evt_1') => ({
  url,
  eventId,
  payload: '{"a":1}',
  secretHash: 'k'.repeat(64),
});

describe('the callback thread', () => {
  const receivers: Receiver[] = [];
  const recv = async () => {
    const r = await receiver();
    receivers.push(r);
    return r;
  };
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('posts many events at once from its thread, each signed and answered with its own outcome', async () => {
    const ok = await recv();
    const refusing = await recv();
    refusing.setMode(503);
    const spy = logSpy();
    const transport = createThreadTransport({ allowPrivate: true, timeoutMs: 5_000, log: spy.log });
    try {
      const posts = Array.from({ length: 40 }, (_, i) => post(i % 2 ? refusing.url : ok.url, `evt_${i}`));
      const outcomes = await Promise.all(posts.map((p) => transport.post(p)));
      outcomes.forEach((o, i) => {
        if (i % 2) expect(o).toMatchObject({ statusCode: 503, error: 'HTTP 503' });
        else expect(o).toMatchObject({ statusCode: 200, error: null });
        expect(o.durationMs).toBeGreaterThanOrEqual(0);
      });
      expect(ok.got).toHaveLength(20);
      expect(refusing.got).toHaveLength(20);
      for (const got of ok.got) {
        const ts = String(got.headers['x-wx-timestamp']);
        expect(got.body).toBe('{"a":1}');
        expect(got.headers['x-wx-signature']).toBe(signCallback('k'.repeat(64), ts, got.body));
      }
      expect(ok.got.map((g) => g.headers[CALLBACK_EVENT_HEADER]).sort()).toEqual(
        posts
          .filter((_, i) => i % 2 === 0)
          .map((p) => p.eventId)
          .sort(),
      );
      expect(spy.lines).toEqual([]); // the thread started: a failed start would have been logged
    } finally {
      await transport.close();
    }
  });

  it('keeps the address rules on its thread: a loopback URL is refused without a connection', async () => {
    const r = await recv();
    const transport = createThreadTransport({ allowPrivate: false, timeoutMs: 5_000, log: logSpy().log });
    try {
      const outcome = await transport.post(post(r.url));
      expect(outcome.statusCode).toBeNull();
      expect(outcome.error).toContain('不能指向本机');
      expect(r.got).toHaveLength(0);
    } finally {
      await transport.close();
    }
  });

  it('gives up on a receiver that never answers after the timeout', async () => {
    const r = await recv();
    r.setMode('hang');
    const transport = createThreadTransport({ allowPrivate: true, timeoutMs: 300, log: logSpy().log });
    try {
      const outcome = await transport.post(post(r.url));
      expect(outcome).toMatchObject({ statusCode: null, error: '超时：0.3 秒内未响应' });
      expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    } finally {
      await transport.close();
    }
  });

  it('a thread that ends mid-post fails that post as an attempt; the next post starts a new thread', async () => {
    const { transport, spy } = standIn();
    try {
      expect(await transport.post(post('http://127.0.0.1:9/first'))).toMatchObject({ statusCode: 299 });
      const ended = await transport.post(post('http://127.0.0.1:9/exit'));
      expect(ended).toMatchObject({ statusCode: null, error: '回调投递线程意外结束，将按计划重试' });
      expect(await transport.post(post('http://127.0.0.1:9/again'))).toMatchObject({ statusCode: 299 });
      expect(spy.lines.filter((l) => l.msg.includes('could not start'))).toEqual([]);
    } finally {
      await transport.close();
    }
  });

  it('a thread that stops answering is ended once a post is overdue; what it held fails, and it is started again', async () => {
    const { transport, spy } = standIn({ timeoutMs: 100, stuckAfterMs: 200 });
    try {
      const started = Date.now();
      const silent = await transport.post(post('http://127.0.0.1:9/silent'));
      expect(silent).toMatchObject({ statusCode: null, error: '回调投递线程无响应，将按计划重试' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(spy.lines.some((l) => l.level === 'error' && l.msg.includes('stopped answering'))).toBe(true);
      expect(await transport.post(post('http://127.0.0.1:9/after'))).toMatchObject({ statusCode: 299 });
    } finally {
      await transport.close();
    }
  });

  it('a post waits for a thread slow to start without counting it against the post; one that never starts is ended', async () => {
    // Loading takes longer than a post may stay unanswered once the thread has it.
    const slow = standIn({ timeoutMs: 100, stuckAfterMs: 200 }, { loadMs: 600 });
    try {
      expect(await slow.transport.post(post('http://127.0.0.1:9/slow'))).toMatchObject({ statusCode: 299 });
      expect(slow.spy.lines.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await slow.transport.close();
    }
    const never = standIn({ timeoutMs: 100, stuckAfterMs: 200, startupMs: 300 }, { ready: false });
    try {
      const started = Date.now();
      expect(await never.transport.post(post('http://127.0.0.1:9/never'))).toMatchObject({
        statusCode: null,
        error: '回调投递线程无响应，将按计划重试',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(never.spy.lines.some((l) => l.msg.includes('did not start in time'))).toBe(true);
    } finally {
      await never.transport.close();
    }
  });

  it.each([
    [
      'a missing file (the thread fails to load it)',
      pathToFileURL(path.join(os.tmpdir(), 'wxc-no-such-program.mjs')),
    ],
    ['a URL no thread can run (refused at once)', new URL('https://callbacks.invalid/program.mjs')],
  ])('a program that cannot start, %s: posts go inline from then on, and arrive', async (_, program) => {
    const r = await recv();
    const spy = logSpy();
    const transport = createThreadTransport({ allowPrivate: true, timeoutMs: 5_000, log: spy.log, program });
    try {
      const outcomes = await Promise.all([
        transport.post(post(r.url, 'a')),
        transport.post(post(r.url, 'b')),
      ]);
      expect(outcomes.map((o) => o.statusCode)).toEqual([200, 200]);
      expect(await transport.post(post(r.url, 'c'))).toMatchObject({ statusCode: 200 });
      expect(r.got.map((g) => g.headers[CALLBACK_EVENT_HEADER])).toEqual(
        expect.arrayContaining(['a', 'b', 'c']),
      );
      expect(spy.lines.filter((l) => l.msg.includes('could not start'))).toHaveLength(1);
    } finally {
      await transport.close();
    }
  });

  it('close waits for the posts under way; a post after it starts the thread again', async () => {
    const r = await recv();
    r.setMode('hang');
    const transport = createThreadTransport({ allowPrivate: true, timeoutMs: 300, log: logSpy().log });
    const underWay = transport.post(post(r.url));
    await waitFor('the post arrived', () => r.got.length === 1);
    let settled = false;
    void underWay.then(() => {
      settled = true;
    });
    await transport.close();
    expect(settled).toBe(true);
    r.setMode(200);
    expect(await transport.post(post(r.url))).toMatchObject({ statusCode: 200 });
    await transport.close();
  });
});

describe.each(dialects)('a server posting callbacks from its thread (%s)', (dialect) => {
  it('tests the URL, delivers, duplicates and settles events through the thread, signed with the secret', async () => {
    const t = await createTestApp(dialect, { ...PRIVATE_OK, CALLBACK_THREAD: 'true' }, { app: FAST });
    const r = await receiver();
    try {
      const x = await company(t, (await setUpCatalogue(t)).basic.id);
      const sub = await x.sub();
      // The URL's test event goes through the thread too.
      const reset = await t.call(callbackCalls.resetCallbackUrl, { callbackUrl: r.url }, sub.creds);
      expect(reset).toMatchObject({ code: '200', data: { test: { statusCode: 200 } } });
      expect(r.got).toHaveLength(1);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        ids.push(
          await emitMessage(t, { companyId: x.companyId, subAccountId: sub.id }, { text: `第 ${i} 条` }),
        );
      }
      await waitFor('all delivered', async () => {
        const rows = await Promise.all(ids.map((id) => eventRow(t, id)));
        return rows.every((row) => row?.status === 'delivered');
      });
      expect(r.got).toHaveLength(11);
      for (const got of r.got) verifySigned(got, sub.appSecret);
      expect(
        r.got
          .slice(1)
          .map((g) => g.headers[CALLBACK_EVENT_HEADER])
          .sort(),
      ).toEqual([...ids].sort());

      const res = await t.call(callbackCalls.duplicateCallback, { eventId: ids[0]! }, sub.creds);
      expect(res).toMatchObject({ code: '200' });
      await waitFor('the duplicate', () => r.got.length === 12);
      expect(r.got[11]!.headers[CALLBACK_EVENT_HEADER]).toBe(ids[0]);
      await waitFor('its attempt logged', async () => (await eventRow(t, ids[0]!))!.attempts === 2);
    } finally {
      await r.close();
      await t.close();
    }
  });

  it('retries a receiver that answered 500, then settles delivered', async () => {
    const t = await createTestApp(dialect, { ...PRIVATE_OK, CALLBACK_THREAD: 'true' }, { app: FAST });
    const r = await receiver();
    try {
      const x = await company(t, (await setUpCatalogue(t)).basic.id);
      const sub = await x.sub(r.url);
      r.setMode(500);
      const id = await emitMessage(t, { companyId: x.companyId, subAccountId: sub.id }, { text: '重试' });
      await waitFor('the failed attempt', async () => (await eventRow(t, id))!.attempts >= 1);
      expect(await eventRow(t, id)).toMatchObject({
        status: 'pending',
        last_status_code: 500,
        last_error: 'HTTP 500',
      });
      r.setMode(200);
      await waitFor('delivered', async () => (await eventRow(t, id))!.status === 'delivered');
    } finally {
      await r.close();
      await t.close();
    }
  });
});
