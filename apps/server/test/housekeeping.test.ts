import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../src/housekeeping.js';
import { createTestApp, dialects, registerCompany, type TestApp } from './helpers.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe.each(dialects)('housekeeping sweep (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const ids = async (table: 'captchas' | 'sms_codes' | 'login_failures' | 'sessions', prefix: string) =>
    (await t.database.db.selectFrom(table).select('id').where('id', 'like', `${prefix}%`).execute())
      .map((r) => r.id)
      .sort();

  it('deletes expired captchas, old SMS codes, old login failures and long-ended sessions; keeps the rest', async () => {
    const now = Date.now();
    const db = t.database.db;
    const company = await registerCompany(t);

    await db
      .insertInto('captchas')
      .values([
        {
          id: 'hk-cap-old',
          code_hash: 'x',
          expires_at: now - HOUR - 1,
          used_at: null,
          created_at: now - 2 * HOUR,
        },
        {
          id: 'hk-cap-recent',
          code_hash: 'x',
          expires_at: now - MIN,
          used_at: null,
          created_at: now - 6 * MIN,
        },
        {
          id: 'hk-cap-live',
          code_hash: 'x',
          expires_at: now + 4 * MIN,
          used_at: null,
          created_at: now - MIN,
        },
      ])
      .execute();
    const sms = (id: string, created: number) => ({
      id,
      phone: '13900000000',
      scene: 'register',
      code_hash: 'x',
      ip: '10.0.0.1',
      expires_at: created + 5 * MIN,
      consumed_at: null,
      created_at: created,
    });
    await db
      .insertInto('sms_codes')
      .values([
        sms('hk-sms-old', now - 2 * DAY - 1),
        sms('hk-sms-day', now - DAY - HOUR),
        sms('hk-sms-new', now),
      ])
      .execute();
    const failure = (id: string, created: number) => ({
      id,
      account: 'a',
      ip: '10.0.0.1',
      created_at: created,
    });
    await db
      .insertInto('login_failures')
      .values([failure('hk-lf-old', now - DAY - 1), failure('hk-lf-new', now - 20 * MIN)])
      .execute();
    const session = (id: string, expires: number, revoked: number | null = null) => ({
      id,
      token_hash: `hash-${id}`,
      user_id: company.user.id,
      ip: '10.0.0.1',
      user_agent: '',
      created_at: expires - 7 * DAY,
      last_seen_at: expires - 7 * DAY,
      expires_at: expires,
      revoked_at: revoked,
    });
    await db
      .insertInto('sessions')
      .values([
        session('hk-ses-ancient', now - 30 * DAY - 1),
        session('hk-ses-ended', now - 29 * DAY),
        session('hk-ses-revoked', now + DAY, now - 40 * DAY),
        session('hk-ses-live', now + DAY),
      ])
      .execute();

    await sweep(db, now);

    expect(await ids('captchas', 'hk-')).toEqual(['hk-cap-live', 'hk-cap-recent']);
    // The daily cap looks back 24 h: a code from 25 h ago is kept for a while still.
    expect(await ids('sms_codes', 'hk-')).toEqual(['hk-sms-day', 'hk-sms-new']);
    expect(await ids('login_failures', 'hk-')).toEqual(['hk-lf-new']);
    // Revoked sessions go by their absolute end, like the others.
    expect(await ids('sessions', 'hk-')).toEqual(['hk-ses-ended', 'hk-ses-live', 'hk-ses-revoked']);
    // The company's own live session and its registration code are untouched.
    expect(
      await db.selectFrom('sessions').select('id').where('user_id', '=', company.user.id).execute(),
    ).toHaveLength(4);
    expect(
      await db.selectFrom('sms_codes').select('id').where('phone', '=', company.phone).execute(),
    ).toHaveLength(1);

    // Running it again changes nothing.
    await sweep(db, now);
    expect(await ids('sessions', 'hk-')).toEqual(['hk-ses-ended', 'hk-ses-live', 'hk-ses-revoked']);
  });

  it('a later sweep removes what has aged out since', async () => {
    const now = Date.now();
    await sweep(t.database.db, now + 2 * DAY + 1);
    expect(await ids('login_failures', 'hk-')).toEqual([]);
    expect(await ids('sms_codes', 'hk-')).toEqual([]);
  });
});
