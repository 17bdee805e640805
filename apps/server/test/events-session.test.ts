import { authCalls, type UserInfo } from '@wxc/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto.js';
import { createPostgresBus } from '../src/modules/events/bus.js';
import {
  ageSms,
  createPgSchema,
  createTestApp,
  dialects,
  loginToken,
  registerCompany,
  sendCode,
  type TestApp,
  uniquePhone,
} from './helpers.js';

/**
 * The live-event stream ends the moment its session ends (logout, password reset, phone change,
 * idle or absolute expiry), in this process and in others, and nothing is written to it after that.
 */

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** GET /api/events over real HTTP, read with fetch like the console does. */
async function openStream(address: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${address}/api/events`, {
    headers: { authorization: token },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let endedByServer = false;
  const done = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
      }
      endedByServer = true;
    } catch {
      // aborted by the test
    }
  })();
  return {
    text: () => text,
    /** True when the server ends the stream within `ms`. */
    async endsWithin(ms: number): Promise<boolean> {
      await Promise.race([done, sleep(ms)]);
      return endedByServer;
    },
    async waitFor(fragment: string, ms = 3000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!text.includes(fragment)) {
        if (Date.now() > deadline) throw new Error(`no "${fragment}" in the stream: ${JSON.stringify(text)}`);
        await sleep(10);
      }
    },
    close() {
      controller.abort();
    },
  };
}
type Stream = Awaited<ReturnType<typeof openStream>>;

/** A thin real-name event with a marker status, as the real-name service publishes them. */
const realname = (user: UserInfo, status: number) =>
  ({ kind: 'realname', companyId: user.id, status }) as const;

describe.each(dialects)('live events end with their session (%s)', (dialect) => {
  let t: TestApp;
  let address: string;
  const streams: Stream[] = [];
  const open = async (token: string) => {
    const s = await openStream(address, token);
    streams.push(s);
    return s;
  };
  beforeAll(async () => {
    // One-minute idle timeout, so an idle expiry can be staged by moving last_seen_at.
    t = await createTestApp(dialect, { SESSION_IDLE_MINUTES: '1' });
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  const setSession = (token: string, patch: { expires_at?: number; last_seen_at?: number }) =>
    t.database.db.updateTable('sessions').set(patch).where('token_hash', '=', sha256(token)).execute();

  it('logout ends the stream at once; an event published right after it is not delivered', async () => {
    const c = await registerCompany(t);
    const s = await open(c.token);
    t.app.services.bus.publish(realname(c.user, 101));
    await s.waitFor('"status":101');

    const out = await t.call(authCalls.logout, {}, { token: c.token });
    expect(out.code).toBe('200');
    t.app.services.bus.publish(realname(c.user, 102));
    expect(await s.endsWithin(1000)).toBe(true);
    expect(s.text()).not.toContain('"status":102');
    expect(s.text()).not.toContain('session');
  });

  it('a password change from another session ends the first session’s stream, not the caller’s', async () => {
    const c = await registerCompany(t);
    const other = (await loginToken(t, c.phone, c.password)).data.token as string;
    const first = await open(c.token);
    const caller = await open(other);

    const res = await t.call(
      authCalls.resetPassword,
      { oldPassword: c.password, password: 'newSecret456', checkPassword: 'newSecret456' },
      { token: other },
    );
    expect(res.code).toBe('200');
    t.app.services.bus.publish(realname(c.user, 201));
    expect(await first.endsWithin(1000)).toBe(true);
    expect(first.text()).not.toContain('"status":201');
    await caller.waitFor('"status":201');
    expect(await caller.endsWithin(100)).toBe(false);
  });

  it('a password reset by SMS (no session) ends every stream of the account', async () => {
    const c = await registerCompany(t);
    const other = (await loginToken(t, c.phone, c.password)).data.token as string;
    const a = await open(c.token);
    const b = await open(other);
    await ageSms(t, c.phone, 61_000); // past the resend wait after the registration code
    const verifyCode = await sendCode(t, c.phone, 'resetPassword', { ip: '10.77.0.1' });
    const res = await t.call(authCalls.resetPassword, {
      companyAccount: c.phone,
      verifyCode,
      password: 'newSecret789',
      checkPassword: 'newSecret789',
    });
    expect(res.code).toBe('200');
    t.app.services.bus.publish(realname(c.user, 301));
    expect(await a.endsWithin(1000)).toBe(true);
    expect(await b.endsWithin(1000)).toBe(true);
    expect(a.text() + b.text()).not.toContain('"status":301');
  });

  it('a phone change ends the other sessions’ streams, not the caller’s', async () => {
    const c = await registerCompany(t);
    const other = (await loginToken(t, c.phone, c.password)).data.token as string;
    const stale = await open(other);
    const caller = await open(c.token);
    const phone = uniquePhone();
    const verifyCode = await sendCode(t, phone, 'changePhone', { token: c.token, ip: '10.77.0.2' });
    const res = await t.call(authCalls.changePhone, { phone, verifyCode }, { token: c.token });
    expect(res.code).toBe('200');
    t.app.services.bus.publish(realname(c.user, 401));
    expect(await stale.endsWithin(1000)).toBe(true);
    expect(stale.text()).not.toContain('"status":401');
    await caller.waitFor('"status":401');
  });

  it('ends at the session’s absolute expiry, without waiting for a heartbeat', async () => {
    const c = await registerCompany(t);
    // 2 s: room for the stream to open first on a slow machine (the heartbeat is 25 s away).
    await setSession(c.token, { expires_at: Date.now() + 2_000 });
    const s = await open(c.token);
    expect(await s.endsWithin(3_500)).toBe(true);
    t.app.services.bus.publish(realname(c.user, 501));
    await sleep(50);
    expect(s.text()).not.toContain('"status":501');
  });

  it('ends at the session’s idle expiry', async () => {
    const c = await registerCompany(t);
    // Idle timeout is one minute: last used 58 s ago, so it lapses in 2 s.
    await setSession(c.token, { last_seen_at: Date.now() - 58_000 });
    const s = await open(c.token);
    expect(await s.endsWithin(3_500)).toBe(true);
  });

  it('re-evaluates the idle deadline: use of the session elsewhere keeps the stream open', async () => {
    const c = await registerCompany(t);
    await setSession(c.token, { last_seen_at: Date.now() - 58_000 }); // lapses in 2 s
    const s = await open(c.token);
    // Another request (here or in another process) records a use of the session.
    await setSession(c.token, { last_seen_at: Date.now() });
    expect(await s.endsWithin(3_000)).toBe(false); // past the old deadline
    t.app.services.bus.publish(realname(c.user, 601));
    await s.waitFor('"status":601');
  });

  it('only the company’s own streams end: another company’s logout leaves this one open', async () => {
    const a = await registerCompany(t);
    const b = await registerCompany(t);
    const s = await open(a.token);
    expect((await t.call(authCalls.logout, {}, { token: b.token })).code).toBe('200');
    expect(await s.endsWithin(300)).toBe(false);
    t.app.services.bus.publish(realname(a.user, 701));
    await s.waitFor('"status":701');
  });
});

describe.skipIf(!dialects.includes('postgres'))('live events end with their session across processes', () => {
  let schema: { schema: string; drop: () => Promise<void> };
  let a: TestApp;
  let b: TestApp;
  let addressB: string;
  const streams: Stream[] = [];
  const pgBus = () => createPostgresBus(process.env.TEST_DATABASE_URL!, pino({ level: 'silent' }));
  beforeAll(async () => {
    schema = await createPgSchema();
    // Two processes' worth of service on one database, each with its own LISTEN/NOTIFY bus.
    a = await createTestApp('postgres', {}, { pgSchema: schema.schema, app: { bus: await pgBus() } });
    b = await createTestApp('postgres', {}, { pgSchema: schema.schema, app: { bus: await pgBus() } });
    addressB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  it('logout on one process ends the stream held open by another; later events are not delivered', async () => {
    const c = await registerCompany(a);
    const s = await openStream(addressB, c.token);
    streams.push(s);
    // The buses are connected: an event raised on A reaches the stream on B.
    a.app.services.bus.publish(realname(c.user, 801));
    await s.waitFor('"status":801');

    expect((await a.call(authCalls.logout, {}, { token: c.token })).code).toBe('200');
    a.app.services.bus.publish(realname(c.user, 802));
    expect(await s.endsWithin(1000)).toBe(true);
    expect(s.text()).not.toContain('"status":802');
  });

  it('a password change on one process ends the other sessions’ streams on another', async () => {
    const c = await registerCompany(a);
    const other = (await loginToken(a, c.phone, c.password)).data.token as string;
    const s = await openStream(addressB, c.token);
    streams.push(s);
    const res = await a.call(
      authCalls.resetPassword,
      { oldPassword: c.password, password: 'newSecret456', checkPassword: 'newSecret456' },
      { token: other },
    );
    expect(res.code).toBe('200');
    a.app.services.bus.publish(realname(c.user, 901));
    expect(await s.endsWithin(1000)).toBe(true);
    expect(s.text()).not.toContain('"status":901');
  });
});
