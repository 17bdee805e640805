import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { assertCallbackUrlAllowed, isBlockedAddress } from './url-guard.js';

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
    'not-an-ip',
  ])('blocks %s', (ip) => expect(isBlockedAddress(ip)).toBe(true));

  it.each(['203.0.113.10', '8.8.8.8', '172.32.0.1', '2001:db8::1', '::ffff:8.8.8.8'])('allows %s', (ip) =>
    expect(isBlockedAddress(ip)).toBe(false),
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
