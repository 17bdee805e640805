import { DAY_MS } from '@wxc/contract/constants';
import { describe, expect, it } from 'vitest';
import {
  buildCurlExample,
  callbackAddressNote,
  dayRange,
  daysLeftText,
  groupByTier,
  isExpiringSoon,
  maxAllocatable,
  newIdempotencyKey,
  parseIpList,
  purchaseEndsAt,
  renewalEndsAt,
  SECRET_PLACEHOLDER,
  shellQuote,
  supportedTiersText,
  tierRefusal,
  tierStanding,
  tiersSupporting,
} from './logic';

describe('newIdempotencyKey', () => {
  it('uses randomUUID when the context offers it', () => {
    const key = newIdempotencyKey({
      randomUUID: () => '123e4567-e89b-42d3-a456-426614174000',
      getRandomValues: (a) => a,
    });
    expect(key).toBe('123e4567-e89b-42d3-a456-426614174000');
  });

  it('falls back to getRandomValues on plain HTTP, matching the contract pattern', () => {
    const key = newIdempotencyKey({
      getRandomValues: <T extends ArrayBufferView | null>(a: T) => {
        (a as unknown as Uint8Array).fill(171);
        return a;
      },
    });
    expect(key).toBe('ab'.repeat(16));
    expect(key).toMatch(/^[\w-]{8,64}$/);
  });

  it('gives a different key each time with the real crypto', () => {
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
    expect(newIdempotencyKey()).toMatch(/^[\w-]{8,64}$/);
  });
});

describe('package dates', () => {
  const now = Date.UTC(2025, 0, 10);
  it('a purchase ends duration × periods after payment', () => {
    expect(purchaseEndsAt(now, 30, 2)).toBe(now + 60 * DAY_MS);
  });
  it('a renewal extends from the current end while active', () => {
    const endsAt = now + 5 * DAY_MS;
    expect(renewalEndsAt(endsAt, now, 30, 1)).toBe(endsAt + 30 * DAY_MS);
  });
  it('a renewal of a lapsed package starts from now', () => {
    expect(renewalEndsAt(now - 3 * DAY_MS, now, 365, 2)).toBe(now + 730 * DAY_MS);
  });
});

describe('slots and status', () => {
  it('allows the current allocation plus the free slots', () => {
    expect(maxAllocatable(3, 2)).toBe(5);
    expect(maxAllocatable(0, 0)).toBe(0);
    expect(maxAllocatable(-1, 2)).toBe(2);
  });
  it('describes days left and flags expiring-soon only while active', () => {
    expect(daysLeftText('active', 12)).toBe('剩余 12 天');
    expect(daysLeftText('active', 0)).toBe('今天到期');
    expect(daysLeftText('expired', 0)).toBe('已过期');
    expect(isExpiringSoon('active', 7)).toBe(true);
    expect(isExpiringSoon('active', 8)).toBe(false);
    expect(isExpiringSoon('expired', 0)).toBe(false);
  });
});

describe('tiers', () => {
  it('groups packages by tier from basic to enterprise and drops empty tiers', () => {
    const groups = groupByTier([
      { id: 'e', tier: 'enterprise' as const },
      { id: 'b1', tier: 'basic' as const },
      { id: 'b2', tier: 'basic' as const },
    ]);
    expect(groups.map((g) => [g.tier, g.items.map((i) => i.id)])).toEqual([
      ['basic', ['b1', 'b2']],
      ['enterprise', ['e']],
    ]);
  });
  it('names the tiers that support each access mode (spec §9)', () => {
    expect(supportedTiersText(1)).toBe('基础版及以上');
    expect(supportedTiersText(2)).toBe('商务版及以上');
    expect(supportedTiersText(3)).toBe('企业版');
    expect(supportedTiersText(4)).toBe('企业版');
    expect(tiersSupporting(1)).toEqual(['basic', 'business', 'enterprise']);
    expect(tiersSupporting(2)).toEqual(['business', 'enterprise']);
    expect(tiersSupporting(4)).toEqual(['enterprise']);
  });
});

describe('tier rule for one company', () => {
  const sub = (
    tier: 'basic' | 'business' | 'enterprise',
    status: 'active' | 'expired',
    packageName: string,
  ) => ({
    tier,
    status,
    packageName,
  });
  it('a 本地部署 company: basic does not fit, business does; expired packages do not count', () => {
    expect(tierStanding([sub('basic', 'active', '基础版·月付')], 2)).toEqual({
      hasActive: true,
      fits: false,
      unfit: ['基础版·月付'],
      needed: '「本地部署」接入方式需要商务版及以上套餐',
    });
    expect(
      tierStanding([sub('basic', 'active', '基础版'), sub('business', 'active', '商务版')], 2),
    ).toMatchObject({
      fits: true,
      unfit: ['基础版'],
    });
    expect(tierStanding([sub('business', 'expired', '商务版')], 2)).toMatchObject({
      hasActive: false,
      fits: false,
    });
    expect(tierStanding([], 1)).toMatchObject({ hasActive: false, fits: false, unfit: [] });
  });
  it('says why a package cannot be bought, or nothing when it can', () => {
    expect(tierRefusal('basic', 1)).toBeNull();
    expect(tierRefusal('basic', 2)).toBe('不适用：「本地部署」接入方式需要商务版及以上套餐');
    expect(tierRefusal('business', 3)).toBe('不适用：「托管」接入方式需要企业版套餐');
    expect(tierRefusal('enterprise', 4)).toBeNull();
    expect(tierRefusal('basic', undefined)).toBeNull();
  });
});

describe('parseIpList', () => {
  it('splits by lines, commas and spaces, trims, drops blanks and duplicates', () => {
    expect(parseIpList(' 203.0.113.5\n\n203.0.113.0/24, 198.51.100.1，203.0.113.5 ')).toEqual([
      '203.0.113.5',
      '203.0.113.0/24',
      '198.51.100.1',
    ]);
    expect(parseIpList('   \n ')).toEqual([]);
  });
});

describe('buildCurlExample', () => {
  it('uses the service address and the customer key, never a real secret', () => {
    const text = buildCurlExample({ baseUrl: 'https://api.example.com/', appKey: 'ak_123' });
    expect(text).toBe(
      [
        "curl -X POST 'https://api.example.com/api/msg/getQrCode'",
        "  -H 'Content-Type: application/json'",
        "  -H 'x-app-key: ak_123'",
        `  -H 'x-app-secret: ${SECRET_PLACEHOLDER}'`,
        "  -d '{}'",
      ].join(' \\\n'),
    );
  });

  it('shows a key placeholder without a key and quotes bodies safely', () => {
    const text = buildCurlExample({
      baseUrl: 'http://127.0.0.1:8080',
      path: '/api/msg/sendMsgText',
      body: { content: "it's" },
    });
    expect(text).toContain("x-app-key: <您的 AppKey>'");
    expect(text).toContain(`-d '{"content":"it'\\''s"}'`);
  });

  it('shellQuote closes and reopens around single quotes', () => {
    expect(shellQuote("a'b")).toBe("'a'\\''b'");
  });
});

describe('dayRange', () => {
  it('covers whole local days, inclusive', () => {
    const start = new Date(2025, 2, 3, 15, 30);
    const end = new Date(2025, 2, 5, 1, 0);
    const { from, to } = dayRange(start, end);
    expect(from).toBe(new Date(2025, 2, 3).getTime());
    expect(to).toBe(new Date(2025, 2, 6).getTime() - 1);
    expect(dayRange(null, null)).toEqual({});
  });
});

describe('callbackAddressNote', () => {
  it('says what this deployment allows', () => {
    expect(callbackAddressNote(false)).toContain('不能指向本机或内网地址');
    expect(callbackAddressNote(true)).toContain('允许回调到本机或内网地址');
    expect(callbackAddressNote(true)).not.toContain('不能');
  });
});
