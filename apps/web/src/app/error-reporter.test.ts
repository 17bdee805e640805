import { describe, expect, it } from 'vitest';
import {
  type ClientErrorReport,
  createErrorReporter,
  describeError,
  REPORTS_PER_PAGE_LOAD,
} from './error-reporter';

function fake(loggedIn = true) {
  const sent: ClientErrorReport[] = [];
  const state = { loggedIn };
  const reporter = createErrorReporter({
    send: async (r) => {
      sent.push(r);
    },
    loggedIn: () => state.loggedIn,
    path: () => '/error-log/log',
  });
  return { sent, state, reporter };
}

describe('the console error reporter', () => {
  it('sends each distinct error once per page load', async () => {
    const { sent, reporter } = fake();
    const e = new Error('boom');
    expect(reporter.report('error', e)).toBe(true);
    expect(reporter.report('error', e)).toBe(false);
    expect(reporter.report('unhandledrejection', e)).toBe(false); // same message + stack
    expect(reporter.report('react', new Error('other'))).toBe(true);
    await reporter.settled();
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ message: 'Error: boom', kind: 'error', source: '/error-log/log' });
    expect(sent[0]?.stack).toContain('boom');
  });

  it(`sends at most ${REPORTS_PER_PAGE_LOAD} per page load`, async () => {
    const { sent, reporter } = fake();
    for (let i = 0; i < 25; i += 1) reporter.report('error', new Error(`e${i}`));
    await reporter.settled();
    expect(sent).toHaveLength(REPORTS_PER_PAGE_LOAD);
    expect(sent.map((r) => r.message)).toEqual(
      Array.from({ length: REPORTS_PER_PAGE_LOAD }, (_, i) => `Error: e${i}`),
    );
  });

  it('sends nothing while logged out, and the error still counts once logged in', async () => {
    const { sent, state, reporter } = fake(false);
    expect(reporter.report('error', new Error('early'))).toBe(false);
    state.loggedIn = true;
    expect(reporter.report('error', new Error('early'))).toBe(true);
    await reporter.settled();
    expect(sent).toHaveLength(1);
  });

  it('swallows a failed send', async () => {
    const reporter = createErrorReporter({
      send: () => Promise.reject(new Error('429')),
      loggedIn: () => true,
      path: () => '/',
    });
    expect(reporter.report('error', new Error('x'))).toBe(true);
    await expect(reporter.settled()).resolves.toBeUndefined();
  });

  it('describes anything thrown, cut to the contract limits', () => {
    expect(describeError('plain')).toEqual({ message: 'plain', stack: '' });
    expect(describeError({ a: 1 })).toEqual({ message: '{"a":1}', stack: '' });
    expect(describeError(null, 'Script error.')).toEqual({ message: 'Script error.', stack: '' });
    expect(describeError(undefined)).toEqual({ message: '未知错误', stack: '' });
    const long = new Error('m'.repeat(900));
    long.stack = 's'.repeat(9000);
    const d = describeError(long);
    expect(d.message).toHaveLength(500);
    expect(d.stack).toHaveLength(4000);
  });
});
