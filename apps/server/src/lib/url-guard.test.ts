import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import {
  assertCallbackUrlAllowed,
  cachingResolver,
  guardedLookup,
  isBlockedAddress,
  type TimedAnswer,
} from './url-guard.js';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not-an-ip',
  ])('blocks %s', (ip) => expect(isBlockedAddress(ip)).toBe(true));

  it.each(['203.0.113.10', '8.8.8.8', '172.32.0.1', '2001:db8::1', '::ffff:8.8.8.8', '::ffff:808:808'])(
    'allows %s',
    (ip) => expect(isBlockedAddress(ip)).toBe(false),
  );
});

describe('assertCallbackUrlAllowed', () => {
  const resolveTo = (addresses: string[]) => async () => addresses;

  it('refuses a host that resolves to any private address (DNS rebinding to one of several)', async () => {
    await expect(
      assertCallbackUrlAllowed('https://cb.example.com/x', {
        allowPrivate: false,
        resolve: resolveTo(['203.0.113.1', '10.0.0.2']),
      }),
    ).rejects.toThrow('回调地址不能指向本机、内网或链路本地地址');
  });

  it('accepts a host that resolves to public addresses only', async () => {
    const url = await assertCallbackUrlAllowed('https://cb.example.com/x', {
      allowPrivate: false,
      resolve: resolveTo(['203.0.113.1']),
    });
    expect(url.hostname).toBe('cb.example.com');
  });

  it('says when the name does not resolve', async () => {
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(
      assertCallbackUrlAllowed('https://nowhere.invalid/', { allowPrivate: false, resolve: failing }),
    ).rejects.toThrow('无法解析回调地址的域名：nowhere.invalid');
  });

  it('lets the operator allow private targets, but never other schemes or credentials', async () => {
    await expect(
      assertCallbackUrlAllowed('http://10.0.0.1/cb', { allowPrivate: true }),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      assertCallbackUrlAllowed('file:///etc/passwd', { allowPrivate: true }),
    ).rejects.toBeInstanceOf(AppError);
    await expect(assertCallbackUrlAllowed('http://a:b@10.0.0.1/', { allowPrivate: true })).rejects.toThrow(
      '用户名或密码',
    );
  });
});

describe('guardedLookup (what callback connections resolve with)', () => {
  /** Calls the lookup the way net.connect does and collects its answer. */
  const lookupWith = (
    resolve: (host: string) => Promise<string[]>,
    options: { all?: boolean; family?: number },
  ) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address?: string | LookupAddress[]; family?: number }>(
      (done) => {
        guardedLookup(resolve)('cb.example.com', options, (err, address, family) =>
          done({ err, address, family }),
        );
      },
    );
  const resolveTo = (addresses: string[]) => async () => addresses;

  it('answers public addresses in both shapes net.connect asks for', async () => {
    const all = await lookupWith(resolveTo(['203.0.113.1', '2001:db8::1']), { all: true });
    expect(all.err).toBeNull();
    expect(all.address).toEqual([
      { address: '203.0.113.1', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ]);
    const one = await lookupWith(resolveTo(['203.0.113.1']), {});
    expect(one).toMatchObject({ err: null, address: '203.0.113.1', family: 4 });
    const v6 = await lookupWith(resolveTo(['203.0.113.1', '2001:db8::1']), { family: 6 });
    expect(v6).toMatchObject({ err: null, address: '2001:db8::1', family: 6 });
  });

  it('refuses the connection when the name now resolves to a blocked address (rebinding)', async () => {
    for (const addresses of [['127.0.0.1'], ['203.0.113.1', '10.0.0.2'], ['::ffff:169.254.169.254']]) {
      const { err, address } = await lookupWith(resolveTo(addresses), { all: true });
      expect(err?.code, addresses.join()).toBe('ERR_CALLBACK_ADDRESS_BLOCKED');
      expect(err?.message).toContain('回调地址不能指向本机、内网或链路本地地址');
      expect(address).toBeUndefined();
    }
  });

  it('passes resolution failures on, and an empty answer is "not found"', async () => {
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND cb.example.com'), { code: 'ENOTFOUND' });
    };
    expect((await lookupWith(failing, { all: true })).err?.code).toBe('ENOTFOUND');
    expect((await lookupWith(resolveTo([]), { all: true })).err?.code).toBe('ENOTFOUND');
    expect((await lookupWith(resolveTo(['203.0.113.1']), { family: 6 })).err?.code).toBe('ENOTFOUND');
  });
});

describe('cachingResolver (callback hosts: answers kept for their TTL)', () => {
  const setup = (answer: (host: string) => Promise<TimedAnswer>) => {
    let clock = 1_000_000;
    const calls: string[] = [];
    const resolve = cachingResolver(
      (host) => {
        calls.push(host);
        return answer(host);
      },
      () => clock,
    );
    return { resolve, calls, tick: (ms: number) => (clock += ms) };
  };

  it('answers from the kept answer until its TTL ends, then asks again', async () => {
    const { resolve, calls, tick } = setup(async () => ({ addresses: ['93.184.216.34'], ttlMs: 30_000 }));
    expect(await resolve('hooks.example.com')).toEqual(['93.184.216.34']);
    tick(29_000);
    expect(await resolve('hooks.example.com')).toEqual(['93.184.216.34']);
    expect(calls).toEqual(['hooks.example.com']);
    tick(1_001);
    await resolve('hooks.example.com');
    expect(calls).toEqual(['hooks.example.com', 'hooks.example.com']);
  });

  it('keeps a TTL of 0 for a second and a long one for 5 minutes at most', async () => {
    const zero = setup(async () => ({ addresses: ['93.184.216.34'], ttlMs: 0 }));
    await zero.resolve('a.example');
    await zero.resolve('a.example');
    zero.tick(1_001);
    await zero.resolve('a.example');
    expect(zero.calls).toHaveLength(2);
    const day = setup(async () => ({ addresses: ['93.184.216.34'], ttlMs: 86_400_000 }));
    await day.resolve('b.example');
    day.tick(300_001);
    await day.resolve('b.example');
    expect(day.calls).toHaveLength(2);
  });

  it('resolves a name once for concurrent callers, and does not keep failures', async () => {
    let fail = true;
    const { resolve, calls } = setup(async () => {
      await new Promise((r) => setTimeout(r, 10));
      if (fail) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return { addresses: ['93.184.216.34'], ttlMs: 60_000 };
    });
    const both = await Promise.allSettled([resolve('c.example'), resolve('c.example')]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toHaveLength(1);
    fail = false;
    expect(await resolve('c.example')).toEqual(['93.184.216.34']);
    expect(calls).toHaveLength(2);
  });

  it('a kept answer is still checked where it is used: a blocked address is refused', async () => {
    const { resolve } = setup(async () => ({ addresses: ['10.0.0.8'], ttlMs: 60_000 }));
    await expect(
      assertCallbackUrlAllowed('https://inside.example/cb', { allowPrivate: false, resolve }),
    ).rejects.toThrow(/内网/);
    await expect(
      assertCallbackUrlAllowed('https://inside.example/cb', { allowPrivate: false, resolve }),
    ).rejects.toThrow(/内网/);
  });
});
