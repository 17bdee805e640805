import { describe, expect, it } from 'vitest';
import { HANDOFF_TOKEN, isPlausibleToken, tokenFromFragment, tokenFromMessage } from './auth-handoff';

const TOKEN = 'a3f1c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';
const ORIGIN = 'https://console.example.com';

describe('sign-in hand-off', () => {
  it('reads the token from the fragment only', () => {
    expect(tokenFromFragment(`#token=${TOKEN}`)).toEqual({ kind: 'token', token: TOKEN });
    expect(tokenFromFragment(`#state=1&token=${TOKEN}`)).toEqual({ kind: 'token', token: TOKEN });
    expect(tokenFromFragment('')).toEqual({ kind: 'none' });
    expect(tokenFromFragment('#section-2')).toEqual({ kind: 'none' });
    expect(tokenFromFragment('#token=')).toEqual({ kind: 'invalid' });
    expect(tokenFromFragment('#token=<script>')).toEqual({ kind: 'invalid' });
  });

  it('accepts only opaque URL-safe tokens', () => {
    expect(isPlausibleToken(TOKEN)).toBe(true);
    expect(isPlausibleToken('short')).toBe(false);
    expect(isPlausibleToken('has spaces in it but long enough')).toBe(false);
    expect(isPlausibleToken(42)).toBe(false);
    expect(isPlausibleToken('x'.repeat(513))).toBe(false);
  });

  it("takes a token message only from this origin and from the page's own opener", () => {
    const opener = {};
    const ok = { origin: ORIGIN, source: opener, data: { type: HANDOFF_TOKEN, token: TOKEN } };
    const expected = { origin: ORIGIN, opener };
    expect(tokenFromMessage(ok, expected)).toBe(TOKEN);
    expect(tokenFromMessage({ ...ok, origin: 'https://evil.example' }, expected)).toBeNull();
    expect(tokenFromMessage({ ...ok, origin: 'http://console.example.com' }, expected)).toBeNull();
    expect(tokenFromMessage({ ...ok, source: {} }, expected)).toBeNull();
    expect(tokenFromMessage(ok, { origin: ORIGIN, opener: null })).toBeNull();
    expect(tokenFromMessage({ ...ok, data: { type: 'other', token: TOKEN } }, expected)).toBeNull();
    expect(
      tokenFromMessage({ ...ok, data: { type: HANDOFF_TOKEN, token: 'bad token' } }, expected),
    ).toBeNull();
    expect(tokenFromMessage({ ...ok, data: 'token' }, expected)).toBeNull();
  });
});
