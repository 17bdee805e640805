import { trackVisit as visitCall } from '@wxc/contract/calls/visitors';

let last = '';

/**
 * One page view for the operator's visitor counts (/api/home/visitors): the console reports each
 * route change to its own service; nothing about the page or the person is sent (the service keeps
 * a day and a salted digest only). No third-party tracker. Failures are ignored.
 */
export function trackVisit(pathname: string, send: typeof fetch = (i, init) => fetch(i, init)): void {
  if (pathname === last) return;
  last = pathname;
  void send(visitCall.path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    // Not `keepalive`: page views are reported on arrival, not on unload (and Chromium never
    // reports a keepalive request as finished, which kept pages from ever going network-idle).
    body: '{}',
  })
    // The answer is read to its end: Chromium counts a response whose body nobody reads as still
    // loading, so a page would never go network-idle either.
    .then((res) => res.arrayBuffer())
    .catch(() => {});
}
