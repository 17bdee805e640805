import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BusEvent, createPostgresBus, type EventBus } from '../src/modules/events/bus.js';
import { createPgDatabase, dialects } from './helpers.js';

/**
 * The PostgreSQL bus notifies live events only while another process may hear them. NOTIFY channels
 * belong to a database, and the other test files' buses share the test database (each would count as
 * a process here), so this file has a database of its own.
 */
describe.skipIf(!dialects.includes('postgres'))('live events between processes (postgres)', () => {
  let database: { url: string; drop: () => Promise<void> };
  const log = pino({ level: 'silent' });
  const buses: EventBus[] = [];
  let watcher: pg.Client;
  /** Every live-event payload notified on the channel, as a plain LISTEN (not a process of ours) hears it. */
  const notified: BusEvent[] = [];
  /** Processes that said they stop, as the watcher heard it. */
  let byes = 0;

  // Peers forgotten 400 ms after last heard, and assumed for 400 ms after a start.
  const bus = async () => {
    const b = await createPostgresBus(database.url, log, {
      peersGoneAfterMs: 400,
      peersUnheardAfterStartMs: 400,
    });
    buses.push(b);
    return b;
  };
  const event = (status: number): BusEvent => ({ kind: 'realname', companyId: 'c-bus', status });
  const wasNotified = (status: number) => notified.some((e) => e.kind === 'realname' && e.status === status);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    database = await createPgDatabase();
    watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    watcher.on('notification', (msg) => {
      const wire = JSON.parse(msg.payload ?? '{}') as { b?: BusEvent[]; bye?: 1 };
      notified.push(...(wire.b ?? []));
      if (wire.bye) byes += 1;
    });
    await watcher.query('LISTEN wxc_live');
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await watcher?.end();
    await database?.drop();
  });

  it('a process alone notifies none; one that starts hears them; one that stops is forgotten', async () => {
    const a = await bus();
    const heardByA: number[] = [];
    a.subscribe('c-bus', (e) => e.kind === 'realname' && heardByA.push(e.status));

    // Just started: another process may be running and not heard yet, so events go out.
    a.publish(event(1));
    await expect.poll(() => wasNotified(1), { timeout: 5_000 }).toBe(true);

    // Nobody else heard since (the watcher is a plain LISTEN, not a process): events stay local.
    await sleep(1_000); // well past the 400 ms, even on a machine that pauses
    a.publish(event(2));
    await sleep(500);
    expect(wasNotified(2)).toBe(false);
    expect(heardByA).toEqual([1, 2]);

    // A second process announces itself when it listens; once A has heard it, A's events reach it.
    const b = await bus();
    const heardByB: number[] = [];
    b.subscribe('c-bus', (e) => e.kind === 'realname' && heardByB.push(e.status));
    await expect
      .poll(
        () => {
          a.publish(event(3));
          return heardByB.includes(3);
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    expect(wasNotified(3)).toBe(true);

    // B stops: once A has not heard from it for a while, A's events stay local again.
    await b.close();
    buses.splice(buses.indexOf(b), 1);
    await expect.poll(() => byes, { timeout: 5_000 }).toBe(1); // B's last word is out: A hears it about now
    await sleep(1_000); // well past the 400 ms, even on a machine that pauses
    a.publish(event(4));
    await sleep(500);
    expect(wasNotified(4)).toBe(false);
    expect(heardByA).toContain(4);
  });
});
