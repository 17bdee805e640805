import { clientErrorCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDDEN, pathOnly, scrubSecrets } from '../src/modules/client-errors/scrub.js';
import {
  createAdmin,
  createTestApp,
  dialects,
  registerCompany,
  type TestApp,
  tableCounts,
} from './helpers.js';

const { report, list, CLIENT_ERRORS_KEPT, CLIENT_ERROR_REPORTS_PER_MINUTE } = clientErrorCalls;

describe('the client error scrubber', () => {
  it('hides bearer tokens, Authorization values, app secrets, key=value secrets, session tokens and 256-bit hex', () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE'; // 43 base64url characters
    const hex = `${'a'.repeat(32)}0123456789abcdef0123456789ABCDEF`;
    const text = [
      'fetch failed: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
      `headers {"Authorization":"${token}","x":1}`,
      'authorization: Basic dXNlcjpwYXNz',
      'secret sk_Zq3vN8pL2xR7tY1wK5mB9cD4fG6hJ0sA leaked',
      'url ?appSecret=s3cr3t&appKey=ak_123&password=hunter2',
      `a session ${token} here`,
      `digest ${hex}.`,
    ].join('\n');
    const out = scrubSecrets(text);
    for (const secret of [
      'eyJhbGciOiJIUzI1NiJ9',
      token,
      'dXNlcjpwYXNz',
      'Zq3vN8pL2xR7tY1wK5mB9cD4fG6hJ0sA',
      's3cr3t',
      'ak_123',
      'hunter2',
      hex,
    ])
      expect(out).not.toContain(secret);
    expect(out).toContain(HIDDEN);
    expect(out).toContain('fetch failed');
    expect(out.split('\n')).toHaveLength(7);
  });

  it('leaves ordinary error text alone', () => {
    const text =
      "TypeError: Cannot read properties of undefined (reading 'map')\n    at List (https://x.example/assets/index-B3k9_aZq.js:1:2345)";
    expect(scrubSecrets(text)).toBe(text);
    expect(scrubSecrets('ids 0123456789abcdef and deadbeef')).toBe('ids 0123456789abcdef and deadbeef');
  });

  it('replaces control characters', () => {
    expect(scrubSecrets('a\u0000b\u001bc\td\ne')).toBe('a b c\td\ne');
  });

  it('keeps the path of a page address only', () => {
    expect(pathOnly('https://console.example.com/error-log/log?token=abc#x', 500)).toBe('/error-log/log');
    expect(pathOnly('/orders?page=2', 500)).toBe('/orders');
    expect(pathOnly('/a#frag', 500)).toBe('/a');
    expect(pathOnly('', 500)).toBe('');
    expect(pathOnly(`/${'p'.repeat(900)}`, 500)).toHaveLength(500);
  });
});

describe.each(dialects)('client error log (%s)', (dialect) => {
  let t: TestApp;
  let a: { token: string; id: string };
  let b: { token: string; id: string };
  let admin: { token: string; id: string };
  let ipSeq = 0;
  // Each report from its own address: the per-IP limit is tested on its own below.
  const nextIp = () => {
    ipSeq += 1;
    return `10.77.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const ca = await registerCompany(t, { companyName: '甲方错误科技有限公司' });
    const cb = await registerCompany(t, { companyName: '乙方错误科技有限公司' });
    const ad = await createAdmin(t);
    a = { token: ca.token, id: ca.user.id };
    b = { token: cb.token, id: cb.user.id };
    admin = { token: ad.token, id: ad.user.id };
  });
  afterAll(() => t.close());

  const send = (token: string, input: Record<string, unknown>, ip = nextIp()) =>
    t.app.inject({
      method: 'POST',
      url: report.path,
      headers: {
        authorization: token,
        'user-agent': 'Mozilla/5.0 ErrTest',
        'content-type': 'application/json',
      },
      payload: input,
      remoteAddress: ip,
    });

  it('reports and lists, newest first, with the path only and the user agent', async () => {
    const r1 = await send(a.token, {
      message: 'A first',
      stack: 'at one',
      source: '/orders?x=1',
      kind: 'error',
    });
    expect(r1.json()).toMatchObject({ code: '200', data: null });
    await new Promise((r) => setTimeout(r, 5));
    const r2 = await send(a.token, {
      message: 'A second',
      source: 'https://h.example/error-log/log?token=zzz#top',
      kind: 'unhandledrejection',
    });
    expect(r2.json().code).toBe('200');

    const page = await t.call(list, {}, { token: a.token });
    expect(page.code).toBe('200');
    expect(page.data.total).toBe(2);
    expect(page.data.list.map((e: { message: string }) => e.message)).toEqual(['A second', 'A first']);
    expect(page.data.list[0]).toMatchObject({
      kind: 'unhandledrejection',
      source: '/error-log/log',
      stack: '',
      userAgent: 'Mozilla/5.0 ErrTest',
      companyId: a.id,
      companyName: '甲方错误科技有限公司',
    });
    expect(page.data.list[1]).toMatchObject({ kind: 'error', source: '/orders', stack: 'at one' });
    const paged = await t.call(list, { page: 2, pageSize: 1 }, { token: a.token });
    expect(paged.data).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.data.list[0].message).toBe('A first');
  });

  it("scopes the list: a customer sees only its own, the operator sees every company's with its name", async () => {
    expect((await send(b.token, { message: 'B only', kind: 'react' })).json().code).toBe('200');
    const ofB = await t.call(list, { pageSize: 50 }, { token: b.token });
    expect(ofB.data.list.map((e: { message: string }) => e.message)).toEqual(['B only']);
    expect(JSON.stringify(ofB.data)).not.toContain('A first');
    const ofA = await t.call(list, { pageSize: 50 }, { token: a.token });
    expect(JSON.stringify(ofA.data)).not.toContain('B only');

    const all = await t.call(list, { pageSize: 50 }, { token: admin.token });
    expect(all.code).toBe('200');
    const byMessage = new Map(all.data.list.map((e: { message: string }) => [e.message, e]));
    expect(byMessage.get('B only')).toMatchObject({ companyId: b.id, companyName: '乙方错误科技有限公司' });
    expect(byMessage.get('A first')).toMatchObject({ companyId: a.id, companyName: '甲方错误科技有限公司' });

    // The operator's own reports are theirs, shown under their account.
    expect((await send(admin.token, { message: 'ops own', kind: 'error' })).json().code).toBe('200');
    expect(JSON.stringify((await t.call(list, { pageSize: 50 }, { token: a.token })).data)).not.toContain(
      'ops own',
    );
  });

  it('needs a session, and bad input writes nothing', async () => {
    const before = await tableCounts(t.database);
    expect((await send('', { message: 'anon', kind: 'error' })).json().code).toBe('403');
    expect((await t.call(list, {})).code).toBe('403');
    for (const bad of [
      {},
      { message: '', kind: 'error' },
      { message: 'x'.repeat(501), kind: 'error' },
      { message: 'x', stack: 's'.repeat(4001), kind: 'error' },
      { message: 'x', kind: 'warning' },
      { message: 'x', kind: 'error', source: '/'.repeat(2001) },
      { message: 'x', kind: 'error', extra: 1 },
      { message: 42, kind: 'error' },
    ]) {
      const res = await send(a.token, bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('400');
    }
    expect((await t.call(list, { pageSize: 1000 }, { token: a.token })).code).toBe('400');
    expect(await tableCounts(t.database)).toEqual(before);
  });

  it('scrubs secrets before storing', async () => {
    const secret = 'sk_Zq3vN8pL2xR7tY1wK5mB9cD4fG6hJ0sA';
    const hex = 'f'.repeat(64);
    const res = await send(a.token, {
      message: `request failed Authorization: ${a.token} with ${secret}`,
      stack: `Error\n    at x (Bearer abc.def.ghi)\n    digest ${hex}`,
      source: `/p?appSecret=${secret}`,
      kind: 'error',
    });
    expect(res.json().code).toBe('200');
    const rows = await t.database.db
      .selectFrom('client_errors')
      .selectAll()
      .where('company_id', '=', a.id)
      .execute();
    const text = JSON.stringify(rows);
    for (const leaked of [a.token, secret, hex, 'abc.def.ghi']) expect(text).not.toContain(leaked);
    expect(text).toContain('request failed');
  });

  it(`keeps the newest ${CLIENT_ERRORS_KEPT} per company`, async () => {
    // Fill B up to the cap with old rows, then report once more: the oldest goes, A is untouched.
    const countOf = async (companyId: string) =>
      Number(
        (
          await t.database.db
            .selectFrom('client_errors')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', companyId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const have = await countOf(b.id);
    const aBefore = await countOf(a.id);
    const rows = Array.from({ length: CLIENT_ERRORS_KEPT - have }, (_, i) => ({
      id: `old-${String(i).padStart(4, '0')}`,
      company_id: b.id,
      kind: 'error' as const,
      message: i === 0 ? 'the oldest' : `old ${i}`,
      stack: '',
      source: '',
      user_agent: '',
      created_at: 1_000_000 + i,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await t.database.db
        .insertInto('client_errors')
        .values(rows.slice(i, i + 100))
        .execute();
    expect(await countOf(b.id)).toBe(CLIENT_ERRORS_KEPT);

    expect((await send(b.token, { message: 'B newest', kind: 'error' })).json().code).toBe('200');
    expect(await countOf(b.id)).toBe(CLIENT_ERRORS_KEPT);
    expect(await countOf(a.id)).toBe(aBefore);
    const messages = await t.database.db
      .selectFrom('client_errors')
      .select('message')
      .where('company_id', '=', b.id)
      .execute();
    expect(messages.map((m) => m.message)).not.toContain('the oldest');
    expect(messages.map((m) => m.message)).toContain('B newest');
    const first = await t.call(list, { pageSize: 1 }, { token: b.token });
    expect(first.data).toMatchObject({ total: CLIENT_ERRORS_KEPT });
    expect(first.data.list[0].message).toBe('B newest');
  });

  it(`allows ${CLIENT_ERROR_REPORTS_PER_MINUTE} reports a minute per address, then answers 429`, async () => {
    const ip = '10.78.0.1';
    for (let i = 0; i < CLIENT_ERROR_REPORTS_PER_MINUTE; i += 1)
      expect((await send(a.token, { message: `burst ${i}`, kind: 'error' }, ip)).json().code).toBe('200');
    const before = await tableCounts(t.database);
    const over = await send(a.token, { message: 'one too many', kind: 'error' }, ip);
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('429');
    expect(await tableCounts(t.database)).toEqual(before);
    // Another address is not held back.
    expect((await send(a.token, { message: 'elsewhere', kind: 'error' })).json().code).toBe('200');
  });
});
