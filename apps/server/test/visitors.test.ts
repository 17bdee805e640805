import { visitorCalls } from '@wxc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../src/housekeeping.js';
import { createAdmin, createTestApp, dialects, type TestApp } from './helpers.js';

describe.each(dialects)('visitors (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const visit = (ip: string, ua: string) =>
    t.app.inject({
      method: 'POST',
      url: visitorCalls.trackVisit.path,
      headers: { 'user-agent': ua, 'content-type': 'application/json' },
      payload: '{}',
      remoteAddress: ip,
    });

  it('counts page views and unique visitors per day, storing no address or agent', async () => {
    const admin = await createAdmin(t);
    for (let i = 0; i < 3; i += 1)
      expect((await visit('203.0.113.7', 'Mozilla/5.0 A')).json().code).toBe('200');
    await visit('198.51.100.9', 'Mozilla/5.0 A');
    await visit('198.51.100.9', 'Mozilla/5.0 A');
    await visit('198.51.100.9', 'Mozilla/5.0 B'); // another browser on the same address: another visitor

    const report = await t.call(visitorCalls.visitors, {}, { token: admin.token });
    expect(report.code).toBe('200');
    expect(report.data.days).toHaveLength(30);
    const today = report.data.days[29];
    expect(today).toMatchObject({ pv: 6, uv: 3 });
    expect(
      report.data.days.slice(0, 29).every((d: { pv: number; uv: number }) => d.pv === 0 && d.uv === 0),
    ).toBe(true);
    expect(report.data.totalPv).toBe(6);
    expect((await t.call(visitorCalls.visitors, { days: 7 }, { token: admin.token })).data.days).toHaveLength(
      7,
    );
    expect((await t.call(visitorCalls.visitors, { days: 91 }, { token: admin.token })).status).toBe(400);

    const rows = await t.database.db.selectFrom('page_views').selectAll().execute();
    expect(rows).toHaveLength(3);
    const text = JSON.stringify(rows);
    for (const secret of ['203.0.113.7', '198.51.100.9', 'Mozilla']) expect(text).not.toContain(secret);
    for (const r of rows) {
      expect(r.day).toBe(today.date);
      expect(r.visitor).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('the visit call is public, takes no input, and old days are swept', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: visitorCalls.trackVisit.path,
      payload: { path: '/secret' },
    });
    expect(bad.json()).toMatchObject({ code: '400' });
    await t.database.db
      .insertInto('page_views')
      .values({ day: '2000-01-01', visitor: 'x'.repeat(32), views: 5 })
      .execute();
    await sweep(t.database.db);
    const old = await t.database.db
      .selectFrom('page_views')
      .selectAll()
      .where('day', '=', '2000-01-01')
      .execute();
    expect(old).toHaveLength(0);
  });
});
