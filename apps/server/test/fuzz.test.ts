import { allCalls, type CallDef, emptyRequest, SUPPORT_VIEW_HEADER } from '@wxc/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setUpCatalogue } from './commerce-helpers.js';
import {
  type CallOptions,
  createAdmin,
  createTestApp,
  dialects,
  type TestApp,
  tableCounts,
} from './helpers.js';
import { customerWithSubAccount, MESSAGING_ENV } from './messaging-helpers.js';

/**
 * Generated bad input for every call of the contract, from every kind of caller: whatever arrives,
 * the answer is never a 5xx, always the envelope, never "200" for input the call's own schema
 * refuses, and a refused input writes nothing. Inputs come from each call's request schema (its
 * field names, with values of every shape: fast-check's `anything`, plus hand-picked nasties), so a
 * new call is covered without a line here. `FUZZ_RUNS` (default 4 per call and caller) deepens it.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);

type Caller = 'anonymous' | 'customer' | 'operator' | 'subAccount' | 'operatorViewing';

// Ending the session would leave every later call of this caller anonymous.
const SKIPPED = new Set(['auth.logout']);

const deep = (n: number): unknown => (n === 0 ? 'bottom' : { a: [deep(n - 1)] });

/** Values that broke other services: control characters, huge, deep, prototype keys, edge numbers. */
const NASTY_VALUES: unknown[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202e\u200b',
  '\ud800',
  'x'.repeat(70_000),
  '🙂'.repeat(2_000),
  '%00%zz',
  '../../etc/passwd',
  "' or 1=1 --",
  '<img src=x onerror=alert(1)>',
  '1e400',
  '-0',
  '0x10',
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  true,
  null,
  [],
  {},
  [[[[[]]]]],
  deep(60),
  JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'),
];
const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', '', ' ', '\u0000', 'x'.repeat(300)];

const anyValue = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_VALUES), weight: 3 },
  { arbitrary: fc.anything({ maxDepth: 3, maxKeys: 5 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 50 }), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
);
/** A query value: a string, or several (a repeated parameter). */
const queryValue = fc.oneof(
  fc.constantFrom(...NASTY_VALUES.filter((v): v is string => typeof v === 'string')),
  fc.string({ maxLength: 50 }),
  fc.array(fc.string({ maxLength: 10 }), { minLength: 2, maxLength: 3 }),
);

function fieldsOf(call: CallDef): string[] {
  const request = call.request as z.ZodType;
  return request instanceof z.ZodObject ? Object.keys(request.shape) : [];
}

/** Inputs shaped like the call's request: its fields (some, all, or none) with values of any shape. */
function inputsFor(call: CallDef): fc.Arbitrary<unknown> {
  const fields = fieldsOf(call);
  const keys = fc.constantFrom(...fields, ...NASTY_KEYS);
  // A query string cannot carry `__proto__` as a key of its own (the URL builder drops it).
  const queryKeys = fc.constantFrom(...fields, ...NASTY_KEYS.filter((k) => k !== '__proto__'));
  if (call.method === 'GET') return fc.dictionary(queryKeys, queryValue, { maxKeys: 6 });
  return fc.oneof(
    { arbitrary: fc.dictionary(keys, anyValue, { maxKeys: 6 }), weight: 4 },
    { arbitrary: anyValue, weight: 1 },
  );
}

/** Whether the call's schema takes this input, as the service's validator reads it (lib/validation.ts:
 * a call without parameters takes no body, `null` or `{}`). */
function accepts(call: CallDef, input: unknown): boolean {
  if (call.request === emptyRequest && input === null) return true;
  return call.request.safeParse(input ?? undefined).success;
}

describe.each(dialects)('generated bad input, every call and caller (%s)', (dialect) => {
  let t: TestApp;
  const as = {} as Record<Caller, CallOptions>;

  beforeAll(async () => {
    t = await createTestApp(dialect, MESSAGING_ENV, { app: { callbackWorker: false, gatewayWorker: false } });
    const company = await customerWithSubAccount(t, await setUpCatalogue(t));
    const operator = await createAdmin(t);
    as.anonymous = { ip: '10.8.0.1' };
    as.customer = { token: company.token, ip: '10.8.0.2' };
    as.operator = { token: operator.token, ip: '10.8.0.3' };
    as.subAccount = { headers: company.creds, ip: '10.8.0.4' };
    as.operatorViewing = {
      token: operator.token,
      headers: { [SUPPORT_VIEW_HEADER]: company.user.id },
      ip: '10.8.0.5',
    };
  });
  afterAll(() => t?.close());

  /** Sends one input (a body for POST, a query for GET) and checks the envelope and the status. */
  async function send(call: CallDef, input: unknown, caller: Caller) {
    const opts = as[caller];
    const res = await t.app.inject({
      method: call.method,
      url: call.path,
      ...(call.method === 'GET'
        ? { query: input as Record<string, string | string[]> }
        : { payload: JSON.stringify(input) ?? 'null' }),
      headers: {
        ...(call.method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: opts.token } : {}),
        ...opts.headers,
      },
      remoteAddress: opts.ip ?? '127.0.0.1',
    });
    const where = `${call.id} as ${caller} with ${JSON.stringify(input)?.slice(0, 200)}`;
    expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
    const body = res.json() as { code?: unknown; message?: unknown };
    expect(typeof body.code, where).toBe('string');
    expect(typeof body.message, where).toBe('string');
    return { code: body.code as string, where };
  }

  /** Row counts; the support view audits every read it lets through, even one it then refuses. */
  async function counts(caller: Caller) {
    const { audit_log, ...rest } = await tableCounts(t.database);
    return caller === 'operatorViewing' ? rest : { ...rest, audit_log };
  }

  const calls = allCalls.filter((c) => !SKIPPED.has(c.id));
  const callers: Caller[] = ['anonymous', 'customer', 'operator', 'subAccount', 'operatorViewing'];

  it.each(calls.map((c) => [c.id, c] as const))('%s', { timeout: 120_000 }, async (_id, call) => {
    for (const caller of callers) {
      await fc.assert(
        fc.asyncProperty(inputsFor(call), async (input) => {
          // Judged as it arrives: a body is JSON (Infinity becomes null, undefined fields vanish).
          const arrives = call.method === 'GET' ? input : JSON.parse(JSON.stringify(input) ?? 'null');
          const refused = !accepts(call, arrives);
          const before = refused ? await counts(caller) : undefined;
          const { code, where } = await send(call, input, caller);
          if (!refused) return;
          expect(code, `${where}: the schema refuses this input`).not.toBe('200');
          expect(await counts(caller), `${where}: a refused input wrote something`).toEqual(before);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('answers broken requests with a 4xx envelope: wrong content type, broken JSON, bad percent-encoding, broken multipart, too large', async () => {
    // A public call with required fields (auth.login): nothing but a well-formed JSON body gets past.
    const post = allCalls.find(
      (c) => c.method === 'POST' && c.audience === 'public' && fieldsOf(c).length > 0,
    )!;
    const get = allCalls.find((c) => c.method === 'GET')!;
    const cases = [
      { method: 'POST', url: post.path, payload: 'a=1', headers: { 'content-type': 'text/plain' } },
      { method: 'POST', url: post.path, payload: '{"a":', headers: { 'content-type': 'application/json' } },
      { method: 'POST', url: post.path, payload: '\u0000', headers: { 'content-type': 'application/json' } },
      {
        method: 'POST',
        url: post.path,
        payload: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      },
      {
        method: 'POST',
        url: post.path,
        payload: JSON.stringify({ a: 'x'.repeat(3_000_000) }),
        headers: { 'content-type': 'application/json' },
      },
      { method: 'GET', url: `${get.path}?a=%E0%A4%A&b=%zz`, headers: {} },
      { method: 'GET', url: `${get.path}?${'a=1&'.repeat(5_000)}`, headers: {} },
    ] as const;
    for (const c of cases) {
      const res = await t.app.inject({ ...c, remoteAddress: '10.8.0.9' });
      const what = `${c.method} ${c.url.slice(0, 60)} (${c.headers['content-type' as never] ?? ''})`;
      expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, what).toBeLessThan(500);
      expect(typeof res.json().code, what).toBe('string');
    }
  });
});
