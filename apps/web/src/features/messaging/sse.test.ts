import { describe, expect, it } from 'vitest';
import { backoffMs, createSseParser, toLiveEvent } from './sse';

describe('createSseParser', () => {
  it('parses named events, skips comments and keeps the retry hint', () => {
    const p = createSseParser();
    const out = p.feed('retry: 3000\n\n: ping\n\nevent: account\ndata: {"wxid":"w1","status":"online"}\n\n');
    expect(out).toEqual([{ event: 'account', data: '{"wxid":"w1","status":"online"}' }]);
    expect(p.retryMs()).toBe(3000);
  });

  it('joins events split across chunks at any point, CRLF included', () => {
    const p = createSseParser();
    const text =
      'event: qr\r\ndata: {"instanceId":"i1",\r\ndata: "state":"scanned"}\r\n\r\nevent: x\ndata: 1\n\n';
    const events = [];
    for (const ch of text) events.push(...p.feed(ch));
    expect(events).toEqual([
      { event: 'qr', data: '{"instanceId":"i1",\n"state":"scanned"}' },
      { event: 'x', data: '1' },
    ]);
  });

  it('defaults the name to message, ignores events without data, keeps ids', () => {
    const p = createSseParser();
    expect(p.feed('event: lonely\n\nid: 7\ndata\n\n')).toEqual([{ event: 'message', data: '', id: '7' }]);
    expect(p.feed('data: half')).toEqual([]);
    expect(p.feed('\n\n')).toEqual([{ event: 'message', data: 'half', id: '7' }]);
  });
});

describe('toLiveEvent', () => {
  it('types the four console events and drops malformed ones', () => {
    expect(toLiveEvent({ event: 'qr', data: '{"instanceId":"i","state":"waiting"}' })).toEqual({
      kind: 'qr',
      instanceId: 'i',
      state: 'waiting',
    });
    expect(
      toLiveEvent({ event: 'message', data: '{"wxid":"w","msgId":"m","direction":"in","status":"sent"}' }),
    ).toEqual({ kind: 'message', wxid: 'w', msgId: 'm', direction: 'in', status: 'sent' });
    expect(toLiveEvent({ event: 'callback', data: '{"eventId":"e","status":"delivered"}' })).toMatchObject({
      kind: 'callback',
    });
    expect(toLiveEvent({ event: 'account', data: '{"wxid":"w","status":"away"}' })).toBeNull();
    expect(toLiveEvent({ event: 'account', data: 'not json' })).toBeNull();
    expect(toLiveEvent({ event: 'unknown', data: '{}' })).toBeNull();
  });
});

describe('backoffMs', () => {
  it('doubles from 1 s to a 30 s cap, with at most 20 % jitter', () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffMs(a, 1000, 30_000, 0))).toEqual([
      1000, 2000, 4000, 8000, 30_000,
    ]);
    expect(backoffMs(0, 1000, 30_000, 0.999)).toBeLessThanOrEqual(1200);
  });
});
