import { lookup, resolve4, resolve6 } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from './errors.js';

/** Addresses a callback must never reach unless the operator allows it (SSRF). */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // Prefixes that carry an IPv4 address inside (a way around the IPv4 rules): NAT64 (well-known and
  // local-use), 6to4 and Teredo. Blocked whole: a callback has no business going through them.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && address.toLowerCase().startsWith('::ffff:')) {
    // IPv4-mapped, dotted (::ffff:127.0.0.1) or hex (::ffff:7f00:1): judged by the IPv4 rules.
    const tail = address.slice(7);
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
    const v4 = hex
      ? [
          parseInt(hex[1]!, 16) >> 8,
          parseInt(hex[1]!, 16) & 255,
          parseInt(hex[2]!, 16) >> 8,
          parseInt(hex[2]!, 16) & 255,
        ].join('.')
      : tail;
    if (isIP(v4) === 4) return blocked.check(v4, 'ipv4');
  }
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolver = (host: string) => Promise<string[]>;

/** A name's addresses and how long they may be kept. */
export interface TimedAnswer {
  addresses: string[];
  ttlMs: number;
}
export type TimedResolver = (host: string) => Promise<TimedAnswer>;

/** An answer without a TTL of its own (the system resolver's: hosts file, search domains) is kept this long. */
const SYSTEM_ANSWER_KEEP_MS = 5_000;
/** Kept answers live at least 1 s (a TTL of 0 would mean a lookup per use) and at most 5 minutes. */
const MIN_KEEP_MS = 1_000;
const MAX_KEEP_MS = 300_000;
const MAX_KEPT_NAMES = 1_000;

/**
 * A and AAAA records with their TTL (the shortest counts); a name DNS does not answer goes to the
 * system resolver (getaddrinfo), whose answers carry no TTL.
 */
export const timedDnsResolver: TimedResolver = async (host) => {
  const [v4, v6] = await Promise.allSettled([resolve4(host, { ttl: true }), resolve6(host, { ttl: true })]);
  const records = [
    ...(v4.status === 'fulfilled' ? v4.value : []),
    ...(v6.status === 'fulfilled' ? v6.value : []),
  ];
  if (records.length > 0) {
    return {
      addresses: records.map((r) => r.address),
      ttlMs: Math.min(...records.map((r) => r.ttl)) * 1000,
    };
  }
  const all = await lookup(host, { all: true });
  return { addresses: all.map((a) => a.address), ttlMs: SYSTEM_ANSWER_KEEP_MS };
};

/**
 * Keeps each name's answer for its TTL (1 s to 5 minutes), one resolution at a time per name;
 * failures are not kept. A callback checks its URL before each attempt and its connection resolves
 * again: without this each delivery cost two lookups. Whoever uses an answer still checks it (the
 * guard below), so a kept answer is checked where it is connected to, like a fresh one.
 */
export function cachingResolver(resolve: TimedResolver = timedDnsResolver, now = () => Date.now()): Resolver {
  const kept = new Map<string, { addresses: string[]; until: number }>();
  const pending = new Map<string, Promise<string[]>>();
  return (host) => {
    const hit = kept.get(host);
    if (hit && hit.until > now()) return Promise.resolve(hit.addresses);
    let answer = pending.get(host);
    if (!answer) {
      answer = resolve(host)
        .then(({ addresses, ttlMs }) => {
          kept.delete(host); // re-inserted last: the first key is the oldest answer
          kept.set(host, { addresses, until: now() + Math.min(MAX_KEEP_MS, Math.max(MIN_KEEP_MS, ttlMs)) });
          if (kept.size > MAX_KEPT_NAMES) kept.delete(kept.keys().next().value as string);
          return addresses;
        })
        .finally(() => pending.delete(host));
      pending.set(host, answer);
    }
    return answer;
  };
}

/** The service's resolver for callback hosts: DNS answers kept for their TTL. */
export const dnsResolver: Resolver = cachingResolver();

const BLOCKED_MESSAGE = '回调地址不能指向本机、内网或链路本地地址';

/**
 * A lookup for the connection itself: resolves the name with `resolve` and refuses to connect when
 * any address it answers is blocked. Checking the URL first is not enough, since a name can answer
 * a public address to the check and a private one to the connection (DNS rebinding); with this the
 * address checked is the address connected to. (IP-literal hosts are never looked up: the URL check
 * covers them, and they cannot change.)
 */
export function guardedLookup(resolve: Resolver = dnsResolver): LookupFunction {
  return (hostname, options, callback) => {
    // Like dns.lookup, a failure answers the error alone.
    const fail = (err: NodeJS.ErrnoException) => (callback as (e: NodeJS.ErrnoException) => void)(err);
    resolve(hostname).then(
      (all) => {
        const blocked = all.find(isBlockedAddress);
        if (blocked !== undefined) {
          const err: NodeJS.ErrnoException = new Error(`${BLOCKED_MESSAGE}（${hostname} 解析为 ${blocked}）`);
          err.code = 'ERR_CALLBACK_ADDRESS_BLOCKED';
          return fail(err);
        }
        const addresses = all
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => !options.family || a.family === options.family);
        const first = addresses[0];
        if (!first) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return fail(err);
        }
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => fail(err),
    );
  };
}

/**
 * Checks that a callback URL is http(s) and that every address its host resolves to is public.
 * `allowPrivate` (operator config) lifts the address rule for on-premise deployments.
 */
export async function assertCallbackUrlAllowed(
  raw: string,
  opts: { allowPrivate: boolean; resolve?: Resolver },
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('BAD_REQUEST', '回调地址格式不正确');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('BAD_REQUEST', '回调地址只能使用 http 或 https');
  }
  if (url.username || url.password) throw new AppError('BAD_REQUEST', '回调地址不能包含用户名或密码');
  if (opts.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else if (host === 'localhost' || host.endsWith('.localhost')) addresses = ['127.0.0.1'];
  else {
    try {
      addresses = await (opts.resolve ?? dnsResolver)(host);
    } catch {
      throw new AppError('BAD_REQUEST', `无法解析回调地址的域名：${host}`);
    }
  }
  if (addresses.length === 0 || addresses.some(isBlockedAddress)) {
    throw new AppError('BAD_REQUEST', BLOCKED_MESSAGE);
  }
  return url;
}
