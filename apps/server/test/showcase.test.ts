import { allShowcaseCalls, authCalls, type ShowcaseCallDef, showcaseCalls as sc } from '@wxc/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAdmin,
  createTestApp,
  dialects,
  registerCompany,
  type TestApp,
  tableCounts,
} from './helpers.js';
import { JPEG, PNG, upload } from './realname-helpers.js';

/**
 * The template showcase's backend (`/vue-element-admin/*`, module `showcase`): its own protocol
 * (`{ code: 20000, data }`, numeric error codes), every row scoped to the caller's company, the
 * showcase identities' tokens good for nothing else. Every call: happy path, bad input (nothing
 * written), another company's ids, and a generated sweep of bad input like fuzz.test.ts's.
 */

interface Sent {
  status: number;
  code: number;
  message?: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever data a call returns
  data: any;
  headers: Record<string, unknown>;
}

interface Opts {
  token?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

const SHOWCASE_TABLES = ['showcase_articles', 'showcase_roles', 'showcase_tokens', 'showcase_state'] as const;

describe.each(dialects)('template showcase backend (%s)', (dialect) => {
  let t: TestApp;
  let a: { token: string; id: string };
  let b: { token: string; id: string };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const ra = await registerCompany(t);
    const rb = await registerCompany(t);
    a = { token: ra.token, id: ra.user.id as string };
    b = { token: rb.token, id: rb.user.id as string };
  });
  afterAll(() => t?.close());

  /** One showcase call: query for GET/DELETE, JSON body for POST/PUT. */
  async function send(call: ShowcaseCallDef, input: unknown, opts: Opts = {}): Promise<Sent> {
    const url = call.path.replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent(opts.params?.[name] ?? ''),
    );
    const inQuery = call.method === 'GET' || call.method === 'DELETE';
    const res = await t.app.inject({
      method: call.method,
      url,
      ...(inQuery
        ? { query: (input ?? {}) as Record<string, string> }
        : { payload: JSON.stringify(input ?? {}), headers: { 'content-type': 'application/json' } }),
      headers: {
        ...(inQuery ? {} : { 'content-type': 'application/json' }),
        ...(opts.token ? { authorization: opts.token } : {}),
        ...opts.headers,
      },
    });
    const body = res.json();
    return {
      status: res.statusCode,
      code: body.code,
      message: body.message,
      data: body.data,
      headers: res.headers,
    };
  }
  const ok = async (call: ShowcaseCallDef, input: unknown, opts: Opts) => {
    const res = await send(call, input, opts);
    expect(res.code, `${call.id}: ${res.message}`).toBe(20000);
    expect(res.status).toBe(200);
    return res.data;
  };
  const showcaseRows = async () => {
    const counts = await tableCounts(t.database);
    return Object.fromEntries(SHOWCASE_TABLES.map((n) => [n, counts[n]]));
  };

  describe('showcase identities', () => {
    it('logs in admin and editor, answers their info, and refuses anyone else with 60204', async () => {
      const admin = await ok(sc.login, { username: 'admin', password: '111111' }, { token: a.token });
      expect(admin.token).toMatch(/^sc_[\w-]{40,}$/);
      const info = await ok(sc.userInfo, { token: admin.token }, { token: a.token });
      expect(info).toMatchObject({
        roles: ['admin'],
        name: 'Super Admin',
        introduction: 'I am a super administrator',
      });
      expect(info.avatar).toMatch(/^data:image\/svg\+xml;base64,/);

      const editor = await ok(sc.login, { username: 'editor', password: 'anything-6' }, { token: a.token });
      expect((await ok(sc.userInfo, { token: editor.token }, { token: a.token })).roles).toEqual(['editor']);

      const before = await tableCounts(t.database);
      const refused = await send(sc.login, { username: 'visitor', password: '111111' }, { token: a.token });
      expect(refused).toMatchObject({
        status: 401,
        code: 60204,
        message: 'Account and password are incorrect.',
      });
      expect(await tableCounts(t.database)).toEqual(before);
    });

    it('stores tokens hashed, scoped to the company', async () => {
      const { token } = await ok(sc.login, { username: 'admin', password: '111111' }, { token: b.token });
      const rows = await t.database.db.selectFrom('showcase_tokens').selectAll().execute();
      expect(rows.some((r) => r.token_hash === token || JSON.stringify(r).includes(token))).toBe(false);
      // Another company cannot use it.
      const other = await send(sc.userInfo, { token }, { token: a.token });
      expect(other).toMatchObject({
        status: 401,
        code: 50008,
        message: 'Login failed, unable to get user details.',
      });
    });

    it('answers 50008 for an unknown or logged-out token, 50012 when replaced, 50014 when expired', async () => {
      expect((await send(sc.userInfo, { token: 'admin-token' }, { token: a.token })).code).toBe(50008);

      const first = await ok(sc.login, { username: 'editor', password: '111111' }, { token: a.token });
      const second = await ok(sc.login, { username: 'editor', password: '111111' }, { token: a.token });
      expect((await send(sc.userInfo, { token: first.token }, { token: a.token })).code).toBe(50012);
      expect((await ok(sc.userInfo, { token: second.token }, { token: a.token })).roles).toEqual(['editor']);

      // Logout: the template sends the token in X-Token.
      expect(await ok(sc.logout, {}, { token: a.token, headers: { 'x-token': second.token } })).toBe(
        'success',
      );
      expect((await send(sc.userInfo, { token: second.token }, { token: a.token })).code).toBe(50008);
      // A body token works too, and an unknown one is still "success".
      const third = await ok(sc.login, { username: 'editor', password: '111111' }, { token: a.token });
      expect(await ok(sc.logout, { token: third.token }, { token: a.token })).toBe('success');
      expect(await ok(sc.logout, { token: 'nope' }, { token: a.token })).toBe('success');

      const old = await ok(sc.login, { username: 'admin', password: '111111' }, { token: a.token });
      await t.database.db
        .updateTable('showcase_tokens')
        .set({ expires_at: Date.now() - 1000 })
        .where('company_id', '=', a.id)
        .where('replaced_at', 'is', null)
        .where('username', '=', 'admin')
        .execute();
      expect(await send(sc.userInfo, { token: old.token }, { token: a.token })).toMatchObject({
        status: 401,
        code: 50014,
      });
    });

    it('showcase tokens are refused by product calls, and showcase calls need the console session', async () => {
      const { token } = await ok(sc.login, { username: 'admin', password: '111111' }, { token: a.token });
      const product = await t.call(authCalls.refreshLoginInfo, {}, { token });
      expect(product.code).toBe('403');
      expect(product.status).toBe(401);
      // Not a console session either for the showcase itself.
      expect(await send(sc.roles, {}, { token })).toMatchObject({ status: 401, code: 50014 });
      expect(await send(sc.articleList, {}, {})).toMatchObject({ status: 401, code: 50014 });
      expect(await send(sc.userInfo, { token }, {})).toMatchObject({ status: 401, code: 50014 });
    });
  });

  describe('articles', () => {
    it('seeds a handful of articles on first use and lists them with filters, sort and paging', async () => {
      const all = await ok(sc.articleList, {}, { token: a.token });
      expect(all.total).toBe(8);
      expect(all.items.map((i: { id: number }) => i.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(all.items[0]).toMatchObject({
        id: 1,
        title: 'Getting started with the console',
        type: 'CN',
        status: 'published',
        display_time: '2025-01-06 10:00:00',
        timestamp: Date.UTC(2025, 0, 6, 2),
        platforms: ['a-platform'],
      });
      // The same for every company (deterministic), in each company's own rows.
      const other = await ok(sc.articleList, {}, { token: b.token });
      expect(other.items).toEqual(all.items);

      const desc = await ok(sc.articleList, { sort: '-id', limit: '3', page: '2' }, { token: a.token });
      expect(desc.total).toBe(8);
      expect(desc.items.map((i: { id: number }) => i.id)).toEqual([5, 4, 3]);
      const us = await ok(sc.articleList, { type: 'US' }, { token: a.token });
      expect(us.items.every((i: { type: string }) => i.type === 'US')).toBe(true);
      expect(us.total).toBe(2);
      const imp = all.items[0].importance as number;
      const byImportance = await ok(sc.articleList, { importance: String(imp) }, { token: a.token });
      expect(byImportance.items.every((i: { importance: number }) => i.importance === imp)).toBe(true);
      expect(byImportance.total).toBe(
        all.items.filter((i: { importance: number }) => i.importance === imp).length,
      );
      const titled = await ok(sc.articleList, { title: 'CALLBACK' }, { token: a.token });
      expect(titled.items.map((i: { title: string }) => i.title)).toEqual(['Receiving messages by callback']);
      // Cleared filters (empty values) mean no filter; an unencoded "+" arrives as a space.
      expect(
        (await ok(sc.articleList, { type: '', importance: '', title: '', sort: ' id' }, { token: a.token }))
          .total,
      ).toBe(8);
      expect(await ok(sc.articleList, { title: '100%_' }, { token: a.token })).toEqual({
        total: 0,
        items: [],
      });
    });

    it('creates, reads and updates an article, sanitising its rich text', async () => {
      const created = await ok(
        sc.articleCreate,
        {
          title: '  A new article  ',
          content:
            '<p style="text-align: center; position: fixed">Hello <strong>world</strong></p><script>alert(1)</script><img src="x" onerror="alert(2)"><img src="https://example.com/a.png" onload="x()"><a href="javascript:alert(3)">j</a><a href="https://example.com" target="_blank" onclick="y()">ok</a><xmp><img src=x onerror=alert(4)></xmp><style>p{}</style><svg onload="z()"></svg>',
          content_short: 'Short',
          author: 'Zed Author',
          importance: 3,
          type: 'JP',
          status: 'published',
          timestamp: Date.UTC(2025, 5, 1, 4),
          forecast: 12.345,
          comment_disabled: true,
          image_uri: 'https://example.com/cover.png',
          platforms: ['a-platform', 'c-platform'],
        },
        { token: a.token },
      );
      expect(created).toMatchObject({
        id: 9,
        title: 'A new article',
        author: 'Zed Author',
        importance: 3,
        type: 'JP',
        status: 'published',
        display_time: '2025-06-01 12:00:00',
        forecast: 12.35,
        comment_disabled: true,
        pageviews: 0,
        platforms: ['a-platform', 'c-platform'],
      });
      const html = created.content as string;
      expect(html).not.toMatch(/<script|<style|<svg|<xmp|onerror|onload|onclick|javascript:|position/i);
      expect(html).toContain('<p style="text-align:center">Hello <strong>world</strong></p>');
      expect(html).toContain('<img src="https://example.com/a.png" />');
      expect(html).toContain('rel="noopener noreferrer"');

      expect(await ok(sc.articleDetail, { id: '9' }, { token: a.token })).toEqual(created);
      const updated = await ok(
        sc.articleUpdate,
        {
          id: 9,
          title: 'Renamed',
          status: 'draft',
          content: '<p>ok</p><iframe src="https://evil.example"></iframe>',
        },
        { token: a.token },
      );
      expect(updated).toMatchObject({
        id: 9,
        title: 'Renamed',
        status: 'draft',
        author: 'Zed Author',
        content: '<p>ok</p>',
      });
      expect(await ok(sc.articleDetail, { id: '9' }, { token: a.token })).toEqual(updated);
      expect((await ok(sc.articleList, {}, { token: a.token })).total).toBe(9);
      // Defaults for what is left out.
      const minimal = await ok(sc.articleCreate, { title: 'Minimal' }, { token: a.token });
      expect(minimal).toMatchObject({
        id: 10,
        importance: 1,
        type: 'CN',
        status: 'draft',
        content: '',
        platforms: ['a-platform'],
      });

      expect(await send(sc.articleDetail, { id: '999' }, { token: a.token })).toMatchObject({
        status: 404,
        code: 40400,
      });
    });

    it('splits page views by platform and searches authors', async () => {
      const pv = await ok(sc.articlePv, { pv: '1025' }, { token: a.token });
      expect(pv.pvData.map((p: { key: string }) => p.key)).toEqual(['PC', 'mobile', 'ios', 'android']);
      expect(pv.pvData.reduce((n: number, p: { pv: number }) => n + p.pv, 0)).toBe(1025);

      const pan = await ok(sc.searchUser, { name: 'pan' }, { token: a.token });
      expect(pan.items).toContainEqual({ name: 'mock-Pan' });
      const zed = await ok(sc.searchUser, { name: 'zed' }, { token: a.token });
      expect(zed.items).toEqual([{ name: 'Zed Author' }]);
      // Company B does not see A's authors.
      expect((await ok(sc.searchUser, { name: 'zed' }, { token: b.token })).items).toEqual([]);
      expect((await ok(sc.searchUser, {}, { token: a.token })).items.length).toBe(20);
    });

    it('lists 20 fixed transactions per company', async () => {
      const first = await ok(sc.transactionList, {}, { token: a.token });
      expect(first.total).toBe(20);
      expect(first.items).toHaveLength(20);
      expect(first.items[0]).toEqual({
        order_no: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        timestamp: expect.any(Number),
        username: expect.any(String),
        price: expect.any(Number),
        status: expect.stringMatching(/^(success|pending)$/),
      });
      expect(await ok(sc.transactionList, {}, { token: a.token })).toEqual(first);
      expect((await ok(sc.transactionList, {}, { token: b.token })).items).not.toEqual(first.items);
    });
  });

  describe('routes and roles', () => {
    it('answers the route table and the built-in roles with their trees', async () => {
      const routes = await ok(sc.routes, {}, { token: a.token });
      const paths = routes.map((r: { path: string }) => r.path);
      for (const p of [
        '/documentation',
        '/guide',
        '/permission',
        '/icon',
        '/components',
        '/charts',
        '/nested',
        '/example',
        '/tab',
        '/error',
        '/error-log',
        '/excel',
        '/zip',
        '/pdf',
        '/theme',
        '/clipboard',
        '/i18n',
        'external-link',
      ]) {
        expect(paths).toContain(p);
      }
      const permission = routes.find((r: { path: string }) => r.path === '/permission');
      expect(permission).toMatchObject({ alwaysShow: true, meta: { roles: ['admin', 'editor'] } });
      const example = routes.find((r: { path: string }) => r.path === '/example');
      expect(example.children.find((c: { name: string }) => c.name === 'EditArticle')).toMatchObject({
        hidden: true,
        meta: { noCache: true },
      });

      const roles = await ok(sc.roles, {}, { token: a.token });
      expect(roles.map((r: { key: string }) => r.key)).toEqual(['admin', 'editor', 'visitor']);
      expect(roles[0].routes).toEqual(routes);
      expect(roles[1].routes.some((r: { path: string }) => r.path === '/permission')).toBe(false);
      expect(roles[2].routes.map((r: { path: string }) => r.path)).toEqual(['', '/documentation']);
    });

    it('creates, updates and deletes a role; built-in roles stay', async () => {
      const tree = [
        { path: '/documentation', children: [{ path: 'index', meta: { title: 'Documentation' } }] },
      ];
      const { key } = await ok(
        sc.roleCreate,
        { name: 'Auditor', description: 'Reads the docs', routes: tree },
        { token: a.token },
      );
      expect(Number.isInteger(key)).toBe(true);
      expect(key).toBeGreaterThanOrEqual(300);
      expect(key).toBeLessThanOrEqual(5000);
      let roles = await ok(sc.roles, {}, { token: a.token });
      expect(roles.find((r: { key: string }) => r.key === String(key))).toEqual({
        key: String(key),
        name: 'Auditor',
        description: 'Reads the docs',
        routes: tree,
      });

      expect(
        await ok(
          sc.roleUpdate,
          { name: 'Auditor 2', description: '', routes: [] },
          { token: a.token, params: { key: String(key) } },
        ),
      ).toEqual({ status: 'success' });
      roles = await ok(sc.roles, {}, { token: a.token });
      expect(roles.find((r: { key: string }) => r.key === String(key))).toMatchObject({
        name: 'Auditor 2',
        routes: [],
      });
      // Built-ins can be edited, not deleted.
      expect(
        await ok(
          sc.roleUpdate,
          { name: 'visitor', description: 'Docs only', routes: tree },
          { token: a.token, params: { key: 'visitor' } },
        ),
      ).toEqual({ status: 'success' });
      expect(await send(sc.roleDelete, {}, { token: a.token, params: { key: 'admin' } })).toMatchObject({
        status: 409,
        code: 40900,
      });

      expect(await ok(sc.roleDelete, {}, { token: a.token, params: { key: String(key) } })).toEqual({
        status: 'success',
      });
      expect(await send(sc.roleDelete, {}, { token: a.token, params: { key: String(key) } })).toMatchObject({
        status: 404,
        code: 40400,
      });
      expect(
        await send(sc.roleUpdate, { name: 'x' }, { token: a.token, params: { key: '4999' } }),
      ).toMatchObject({ status: 404, code: 40400 });
      roles = await ok(sc.roles, {}, { token: a.token });
      expect(roles.map((r: { key: string }) => r.key)).toEqual(['admin', 'editor', 'visitor']);
    });

    it('an operator has a showcase of its own', async () => {
      const operator = await createAdmin(t);
      const list = await ok(sc.articleList, {}, { token: operator.token });
      expect(list.total).toBe(8);
      const { token } = await ok(
        sc.login,
        { username: 'admin', password: '111111' },
        { token: operator.token },
      );
      expect((await ok(sc.userInfo, { token }, { token: operator.token })).roles).toEqual(['admin']);
      expect((await send(sc.userInfo, { token }, { token: a.token })).code).toBe(50008);
    });
  });

  describe('uploads, avatar and kanban (part 2)', () => {
    const UPLOAD = sc.upload.path;
    const PDF = Buffer.from('%PDF-1.4\n%fake pdf body\n');
    const fileRows = (companyId: string) =>
      t.database.db
        .selectFrom('files')
        .select(['id', 'mime'])
        .where('company_id', '=', companyId)
        .where('kind', '=', 'showcase')
        .execute();

    it('stores an image or a PDF by its bytes, served back through its signed link only', async () => {
      const png = await upload(t, UPLOAD, a.token, [{ field: 'file', fileName: '头像.png', data: PNG }]);
      expect(png.code).toBe(20000 as unknown as string);
      expect(png.data).toMatchObject({ name: '头像.png', size: PNG.length, mime: 'image/png' });
      expect(png.data.url).toMatch(/^\/showcase-file\/[A-Za-z0-9_-]+\?exp=\d{13}&sig=[0-9a-f]{64}$/);
      const served = await t.app.inject({ method: 'GET', url: png.data.url });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(PNG)).toBe(true);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['content-security-policy']).toContain('sandbox');
      // The id alone, a wrong signature, or another kind's path: nothing.
      const id = png.data.id as string;
      for (const url of [
        `/showcase-file/${id}`,
        png.data.url.replace(/sig=[0-9a-f]{4}/, 'sig=0000'),
        png.data.url.replace('/showcase-file/', '/media/'),
      ]) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
      const pdf = await upload(t, UPLOAD, a.token, [
        { field: 'file', fileName: 'a.pdf', data: PDF, type: 'application/pdf' },
      ]);
      expect(pdf.data.mime).toBe('application/pdf');
      const served2 = await t.app.inject({ method: 'GET', url: pdf.data.url });
      expect(served2.headers['content-disposition']).toMatch(/^attachment/);
    });

    it('refuses other types, an empty or oversized file, a missing field and no session; stores nothing', async () => {
      const before = await fileRows(a.id);
      const cases: [string, Parameters<typeof upload>[3], number][] = [
        ['text renamed .png', [{ field: 'file', fileName: 'x.png', data: 'just text' }], 40000],
        [
          'html',
          [{ field: 'file', fileName: 'x.html', data: '<script>alert(1)</script>', type: 'text/html' }],
          40000,
        ],
        ['empty', [{ field: 'file', fileName: 'x.png', data: Buffer.alloc(0) }], 40000],
        [
          'over 5 MB',
          [
            {
              field: 'file',
              fileName: 'big.png',
              data: Buffer.concat([PNG, Buffer.alloc(sc.SHOWCASE_UPLOAD_MAX_BYTES)]),
            },
          ],
          40000,
        ],
        ['another field', [{ field: 'img', fileName: 'x.png', data: PNG }], 40000],
      ];
      for (const [what, parts, code] of cases) {
        const res = await upload(t, UPLOAD, a.token, parts);
        expect(res.code, what).toBe(code as unknown as string);
        expect(res.message, what).toBeTruthy();
      }
      const big = await upload(t, UPLOAD, a.token, cases[3]![1]);
      expect(big.message).toContain('5 MB');
      const wrong = await upload(t, UPLOAD, a.token, cases[0]![1]);
      expect(wrong.message).toContain('PDF');
      expect(
        (await upload(t, UPLOAD, undefined, [{ field: 'file', fileName: 'x.png', data: PNG }])).code,
      ).toBe(50014 as unknown as string);
      // JSON instead of a form.
      expect((await send(sc.upload, {}, { token: a.token })).code).toBe(40000);
      expect(await fileRows(a.id)).toEqual(before);
    });

    it('keeps the newest uploads per company, never the avatar', async () => {
      const first = await upload(t, UPLOAD, b.token, [
        { field: 'file', fileName: 'keep.jpg', data: JPEG, type: 'image/jpeg' },
      ]);
      await ok(sc.avatarUpdate, { fileId: first.data.id }, { token: b.token });
      for (let i = 0; i < sc.SHOWCASE_UPLOADS_KEPT + 2; i++) {
        await upload(t, UPLOAD, b.token, [{ field: 'file', fileName: `${i}.png`, data: PNG }]);
      }
      const rows = await fileRows(b.id);
      expect(rows.length).toBe(sc.SHOWCASE_UPLOADS_KEPT + 1);
      expect(rows.map((r) => r.id)).toContain(first.data.id);
      expect((await ok(sc.avatar, {}, { token: b.token })).url).toContain(first.data.id);
    });

    it('sets the avatar from an own image only', async () => {
      expect(await ok(sc.avatar, {}, { token: a.token })).toEqual({ url: null });
      const png = await upload(t, UPLOAD, a.token, [{ field: 'file', fileName: 'me.png', data: PNG }]);
      const pdf = await upload(t, UPLOAD, a.token, [
        { field: 'file', fileName: 'a.pdf', data: Buffer.from('%PDF-1.4 x'), type: 'application/pdf' },
      ]);
      const other = await upload(t, UPLOAD, b.token, [{ field: 'file', fileName: 'b.png', data: PNG }]);
      expect(await send(sc.avatarUpdate, { fileId: pdf.data.id }, { token: a.token })).toMatchObject({
        status: 400,
        code: 40000,
      });
      expect(await send(sc.avatarUpdate, { fileId: other.data.id }, { token: a.token })).toMatchObject({
        status: 404,
        code: 40400,
      });
      expect(await send(sc.avatarUpdate, { fileId: 'does-not-exist' }, { token: a.token })).toMatchObject({
        code: 40400,
      });
      expect(await send(sc.avatarUpdate, { fileId: '../x' }, { token: a.token })).toMatchObject({
        code: 40000,
      });
      expect(await ok(sc.avatar, {}, { token: a.token })).toEqual({ url: null });
      const set = await ok(sc.avatarUpdate, { fileId: png.data.id }, { token: a.token });
      expect(set.url).toContain(png.data.id);
      expect((await ok(sc.avatar, {}, { token: a.token })).url).toContain(png.data.id);
    });

    it('answers the example board, saves a new order, and refuses a malformed board', async () => {
      const board = await ok(sc.kanban, {}, { token: a.token });
      expect(board.columns.map((c: { key: string }) => c.key)).toEqual(['todo', 'doing', 'done']);
      const [todo, doing, done] = board.columns;
      const moved = {
        columns: [
          { key: 'todo', cards: todo.cards.slice(1) },
          { key: 'doing', cards: doing.cards },
          { key: 'done', cards: [todo.cards[0], ...done.cards, { id: 'new-1', text: '新卡片' }] },
        ],
      };
      expect(await ok(sc.kanbanSave, moved, { token: a.token })).toEqual({ status: 'success' });
      expect(await ok(sc.kanban, {}, { token: a.token })).toEqual(moved);
      // Company B still has the example board.
      expect(await ok(sc.kanban, {}, { token: b.token })).toEqual(board);
      const bad = [
        { columns: moved.columns.slice(0, 2) },
        { columns: [moved.columns[1], moved.columns[0], moved.columns[2]] },
        {
          columns: [
            {
              key: 'todo',
              cards: [
                { id: 'a', text: 'x' },
                { id: 'a', text: 'y' },
              ],
            },
            moved.columns[1],
            moved.columns[2],
          ],
        },
        { columns: [{ key: 'todo', cards: [{ id: 'a b', text: 'x' }] }, moved.columns[1], moved.columns[2]] },
        { columns: [{ key: 'todo', cards: [{ id: 'a', text: '' }] }, moved.columns[1], moved.columns[2]] },
        {
          columns: [
            {
              key: 'todo',
              cards: Array.from({ length: sc.KANBAN_CARDS_MAX + 1 }, (_, i) => ({ id: `k${i}`, text: 'x' })),
            },
            moved.columns[1],
            moved.columns[2],
          ],
        },
      ];
      for (const body of bad) {
        const res = await send(sc.kanbanSave, body, { token: a.token });
        expect(res, JSON.stringify(body).slice(0, 80)).toMatchObject({ status: 400, code: 40000 });
      }
      expect(await ok(sc.kanban, {}, { token: a.token })).toEqual(moved);
    });
  });

  describe("another company's ids", () => {
    it('finds nothing and changes nothing of company A', async () => {
      // A has articles 9 and 10 (created above) and a role of its own; B has 8 articles.
      const { key } = await ok(sc.roleCreate, { name: 'Only A' }, { token: a.token });
      await ok(sc.articleList, {}, { token: b.token });
      const articlesBefore = await t.database.db
        .selectFrom('showcase_articles')
        .selectAll()
        .where('company_id', '=', a.id)
        .orderBy('id')
        .execute();
      const rolesBefore = await t.database.db
        .selectFrom('showcase_roles')
        .selectAll()
        .where('company_id', '=', a.id)
        .orderBy('key')
        .execute();
      const bRolesBefore = await t.database.db
        .selectFrom('showcase_roles')
        .selectAll()
        .where('company_id', '=', b.id)
        .orderBy('key')
        .execute();

      expect(await send(sc.articleDetail, { id: '9' }, { token: b.token })).toMatchObject({
        status: 404,
        code: 40400,
      });
      expect(await send(sc.articleUpdate, { id: 9, title: 'Taken over' }, { token: b.token })).toMatchObject({
        status: 404,
        code: 40400,
      });
      expect(
        await send(sc.roleUpdate, { name: 'Taken over' }, { token: b.token, params: { key: String(key) } }),
      ).toMatchObject({ status: 404, code: 40400 });
      expect(await send(sc.roleDelete, {}, { token: b.token, params: { key: String(key) } })).toMatchObject({
        status: 404,
        code: 40400,
      });
      const bList = await ok(sc.articleList, { limit: '100' }, { token: b.token });
      expect(JSON.stringify(bList)).not.toContain('Renamed');
      expect(JSON.stringify(await ok(sc.roles, {}, { token: b.token }))).not.toContain('Only A');

      expect(
        await t.database.db
          .selectFrom('showcase_articles')
          .selectAll()
          .where('company_id', '=', a.id)
          .orderBy('id')
          .execute(),
      ).toEqual(articlesBefore);
      expect(
        await t.database.db
          .selectFrom('showcase_roles')
          .selectAll()
          .where('company_id', '=', a.id)
          .orderBy('key')
          .execute(),
      ).toEqual(rolesBefore);
      expect(
        await t.database.db
          .selectFrom('showcase_roles')
          .selectAll()
          .where('company_id', '=', b.id)
          .orderBy('key')
          .execute(),
      ).toEqual(bRolesBefore);
    });
  });

  describe('bad input', () => {
    const longText = 'x'.repeat(101);
    const cases: [ShowcaseCallDef, unknown, Opts?][] = [
      [sc.login, { username: 'admin' }],
      [sc.login, { username: 'admin', password: '12345' }],
      [sc.login, { username: 'admin', password: '123456', extra: 1 }],
      [sc.login, { username: 'a\u202eb', password: '123456' }],
      [sc.userInfo, {}],
      [sc.userInfo, { token: 'x'.repeat(600) }],
      [sc.logout, { token: '' }],
      [sc.articleList, { importance: '4' }],
      [sc.articleList, { type: 'XX' }],
      [sc.articleList, { sort: 'title' }],
      [sc.articleList, { limit: '0' }],
      [sc.articleList, { limit: '101' }],
      [sc.articleList, { page: '-1' }],
      [sc.articleList, { page: '1.5' }],
      [sc.articleList, { other: '1' }],
      [sc.articleDetail, {}],
      [sc.articleDetail, { id: 'abc' }],
      [sc.articleDetail, { id: '0' }],
      [sc.articlePv, { pv: '-1' }],
      [sc.articleCreate, {}],
      [sc.articleCreate, { title: '' }],
      [sc.articleCreate, { title: longText }],
      [sc.articleCreate, { title: 'ok', importance: 4 }],
      [sc.articleCreate, { title: 'ok', importance: 1.5 }],
      [sc.articleCreate, { title: 'ok', type: 'XX' }],
      [sc.articleCreate, { title: 'ok', status: 'gone' }],
      [sc.articleCreate, { title: 'ok', image_uri: 'javascript:alert(1)' }],
      [sc.articleCreate, { title: 'ok', platforms: ['a-platform', 'a-platform'] }],
      [sc.articleCreate, { title: 'ok', content: 'x'.repeat(100_001) }],
      [sc.articleCreate, { title: 'ok', forecast: 101 }],
      [sc.articleCreate, { title: 'ok', id: 5 }],
      [sc.articleUpdate, { title: 'no id' }],
      [sc.articleUpdate, { id: 1, importance: 0 }],
      [sc.searchUser, { name: 'x'.repeat(51) }],
      [sc.transactionList, { page: '1' }],
      [sc.routes, { x: '1' }],
      [sc.roles, { x: '1' }],
      [sc.roleCreate, {}],
      [sc.roleCreate, { name: 'r', routes: 'all' }],
      [sc.roleCreate, { name: 'r', routes: [{ path: '/a', meta: { title: '' } }] }],
      [sc.roleCreate, { name: 'r', routes: [{ path: '/a', onClick: 'x' }] }],
      [
        sc.roleCreate,
        {
          name: 'r',
          routes: [
            {
              path: '/a',
              children: [
                {
                  path: 'b',
                  children: [
                    {
                      path: 'c',
                      children: [{ path: 'd', children: [{ path: 'e', children: [{ path: 'f' }] }] }],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
      [sc.roleCreate, { name: 'r', key: 'admin' }],
      [sc.roleUpdate, { name: 'r' }, { params: { key: 'a-b' } }],
      [sc.roleUpdate, { name: '' }, { params: { key: 'editor' } }],
      [sc.roleDelete, {}, { params: { key: 'x'.repeat(21) } }],
    ];

    it.each(
      cases.map(
        ([call, input, opts], i) =>
          [`${i} ${call.id} ${JSON.stringify(input).slice(0, 60)}`, call, input, opts] as const,
      ),
    )('%s: 40000, nothing written', async (_name, call, input, opts) => {
      await ok(sc.roles, {}, { token: a.token }); // seeded before counting
      const before = await tableCounts(t.database);
      const res = await send(call, input, { ...opts, token: a.token });
      expect(res.status, res.message).toBe(400);
      expect(res.code).toBe(40000);
      expect(typeof res.message).toBe('string');
      expect(res.message).not.toBe('');
      expect(await tableCounts(t.database)).toEqual(before);
    });

    it('names the field in the message', async () => {
      expect(
        (await send(sc.articleCreate, { title: 'ok', importance: 9 }, { token: a.token })).message,
      ).toContain('importance');
      expect(
        (await send(sc.login, { username: 'admin', password: '1' }, { token: a.token })).message,
      ).toContain('密码至少 6 个字符');
    });

    it('answers broken bodies and unknown addresses in the template shape', async () => {
      const broken = await t.app.inject({
        method: 'POST',
        url: sc.articleCreate.path,
        payload: '{"title":',
        headers: { 'content-type': 'application/json', authorization: a.token },
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ code: 40000 });
      const plain = await t.app.inject({
        method: 'POST',
        url: sc.articleCreate.path,
        payload: 'title=x',
        headers: { 'content-type': 'text/plain', authorization: a.token },
      });
      expect(plain.statusCode).toBeGreaterThanOrEqual(400);
      expect(plain.statusCode).toBeLessThan(500);
      expect(plain.json().code).toBe(40000);
      for (const method of ['GET', 'POST'] as const) {
        const miss = await t.app.inject({
          method,
          url: '/vue-element-admin/nothing/here',
          headers: { authorization: a.token },
        });
        expect(miss.statusCode).toBe(404);
        expect(miss.json()).toMatchObject({ code: 40400 });
        expect(miss.headers['cache-control']).toBe('no-store');
      }
    });
  });

  describe('generated bad input, every showcase call', () => {
    const NASTY: unknown[] = [
      '',
      '\u0000',
      'x'.repeat(70_000),
      -1,
      0,
      1.5,
      1e308,
      true,
      null,
      [],
      {},
      '<img src=x onerror=alert(1)>',
      "' or 1=1 --",
    ];
    const anyValue = fc.oneof(
      fc.constantFrom(...NASTY),
      fc.anything({ maxDepth: 3, maxKeys: 5 }),
      fc.string({ maxLength: 30 }),
      fc.integer(),
    );
    const queryValue = fc.oneof(
      fc.constantFrom(...NASTY.filter((v): v is string => typeof v === 'string')),
      fc.string({ maxLength: 30 }),
      fc.array(fc.string({ maxLength: 10 }), { minLength: 2, maxLength: 3 }),
    );
    const fieldsOf = (call: ShowcaseCallDef): string[] => {
      let schema = call.request as z.ZodType;
      while (!(schema instanceof z.ZodObject) && 'unwrap' in schema)
        schema = (schema as unknown as { unwrap(): z.ZodType }).unwrap();
      if (schema instanceof z.ZodDefault) schema = schema.def.innerType as z.ZodType;
      return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
    };

    it.each(allShowcaseCalls.map((c) => [c.id, c] as const))('%s', { timeout: 60_000 }, async (_id, call) => {
      const inQuery = call.method === 'GET' || call.method === 'DELETE';
      const keys = fc.constantFrom(...fieldsOf(call), 'constructor', 'x'.repeat(300));
      const inputs = inQuery
        ? fc.dictionary(keys, queryValue, { maxKeys: 5 })
        : fc.oneof(fc.dictionary(keys, anyValue, { maxKeys: 5 }), anyValue);
      await fc.assert(
        fc.asyncProperty(inputs, fc.constantFrom('admin', '4321', '', '%00'), async (input, key) => {
          const arrives = inQuery ? input : JSON.parse(JSON.stringify(input) ?? 'null');
          const refused = !call.request.safeParse(arrives ?? undefined).success;
          const before = refused ? await showcaseRows() : undefined;
          const res = await t.app.inject({
            method: call.method,
            url: call.path.replace(':key', key),
            ...(inQuery
              ? { query: input as Record<string, string> }
              : { payload: JSON.stringify(input) ?? 'null' }),
            headers: { ...(inQuery ? {} : { 'content-type': 'application/json' }), authorization: a.token },
          });
          const where = `${call.id} ${key} ${JSON.stringify(input)?.slice(0, 120)}`;
          expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
          const body = res.json();
          expect(typeof body.code, where).toBe('number');
          if (!refused) return;
          expect(body.code, where).not.toBe(20000);
          expect(await showcaseRows(), where).toEqual(before);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 6) },
      );
    });
  });

  it('lists the showcase calls in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const call of allShowcaseCalls) {
      const path = call.path.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths?.[path]?.[call.method.toLowerCase()];
      expect(op, `${call.method} ${path}`).toBeDefined();
      expect(op.operationId).toBe(call.id);
      expect(op.security).toEqual([{ session: [] }]);
    }
  });
});

describe('template showcase switched off (SHOWCASE=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { SHOWCASE: 'false' });
  });
  afterAll(() => t?.close());

  it('answers 404 at every showcase address, logged in or not, and writes nothing', async () => {
    const { token } = await registerCompany(t);
    const before = await tableCounts(t.database);
    for (const call of allShowcaseCalls) {
      const res = await t.app.inject({
        method: call.method,
        url: call.path.replace(':key', 'admin'),
        headers: { authorization: token, 'content-type': 'application/json' },
        ...(call.method === 'POST' || call.method === 'PUT' ? { payload: '{}' } : {}),
      });
      expect(res.statusCode, call.id).toBe(404);
      expect(res.json().code, call.id).toBe(40400);
    }
    expect((await t.app.inject({ method: 'GET', url: '/vue-element-admin' })).statusCode).toBe(404);
    expect(await tableCounts(t.database)).toEqual(before);
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/vue-element-admin'))).toBe(false);
  });
});

describe('template showcase rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t?.close());

  it('counts showcase calls like API calls and answers 42900 past the limit', async () => {
    const { token } = await registerCompany(t, { ip: '10.77.0.1' });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: sc.routes.path,
        headers: { authorization: token },
        remoteAddress: '10.77.0.2',
      });
      codes.push(res.json().code);
      if (i === 3) expect(res.statusCode).toBe(429);
    }
    expect(codes).toEqual([20000, 20000, 20000, 42900]);
  });
});
