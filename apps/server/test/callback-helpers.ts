// Shared by the callback tests: a local receiver, waiting, signature checks, a company with
// sub-accounts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  apiAccountCalls,
  CALLBACK_EVENT_HEADER,
  CALLBACK_SIGNATURE_HEADER,
  CALLBACK_TIMESTAMP_HEADER,
  callbackCalls,
} from '@wxc/contract';
import { expect } from 'vitest';
import { sha256 } from '../src/lib/crypto.js';
import { signCallback } from '../src/modules/callbacks/transport.js';
import { payingCompany } from './commerce-helpers.js';
import type { TestApp } from './helpers.js';

export const PRIVATE_OK = { CALLBACK_ALLOW_PRIVATE: 'true' };
/** Three attempts at most, 200 ms then 400 ms apart. */
export const FAST = { callbackRetryDelaysMs: [200, 400], callbackTimeoutMs: 800 };

// ---- a local receiver ---------------------------------------------------------------------------

export type Mode = number | 'hang' | { redirect: string };
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export async function listen(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

export async function receiver(port = 0) {
  const got: Received[] = [];
  let mode: Mode = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      if (mode === 'hang') return;
      if (typeof mode === 'object') res.writeHead(302, { location: mode.redirect }).end();
      else res.writeHead(mode, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  const actual = await listen(server, port);
  return {
    url: `http://127.0.0.1:${actual}/cb`,
    got,
    setMode(m: Mode) {
      mode = m;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof receiver>>;

/** Polls `fn` every 20 ms until it returns something truthy (at most `ms`). */
export async function waitFor<T>(what: string, fn: () => Promise<T> | T, ms = 5000): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function verifySigned(r: Received, appSecret: string) {
  const ts = String(r.headers[CALLBACK_TIMESTAMP_HEADER]);
  expect(ts).toMatch(/^\d{10}$/);
  expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(30);
  const expected = signCallback(sha256(appSecret), ts, r.body);
  expect(r.headers[CALLBACK_SIGNATURE_HEADER]).toBe(expected);
  const body = callbackCalls.callbackEnvelopeSchema.strict().parse(JSON.parse(r.body));
  expect(r.headers[CALLBACK_EVENT_HEADER]).toBe(body.eventId);
  expect(r.headers['content-type']).toBe('application/json');
  return body;
}

// ---- fixtures -------------------------------------------------------------------------------------

export interface Sub {
  id: string;
  appKey: string;
  appSecret: string;
  creds: { headers: Record<string, string> };
}

export async function company(t: TestApp, packageId: string) {
  const c = await payingCompany(t, packageId);
  let n = 0;
  return {
    ...c,
    companyId: c.user.id,
    async sub(callbackUrl?: string): Promise<Sub> {
      n += 1;
      const res = await t.call(
        apiAccountCalls.openApiAccount,
        { name: `应用${n}`, availableNum: 0, ...(callbackUrl ? { callbackUrl } : {}) },
        { token: c.token },
      );
      if (res.code !== '200') throw new Error(`openApiAccount: ${res.message}`);
      const { account, appSecret } = res.data;
      return {
        id: account.id,
        appKey: account.appKey,
        appSecret,
        creds: { headers: { 'x-app-key': account.appKey, 'x-app-secret': appSecret } },
      };
    },
  };
}

export const eventRow = (t: TestApp, id: string) =>
  t.database.db.selectFrom('callback_events').selectAll().where('id', '=', id).executeTakeFirst();

/** A `message` event of the sub-account, stored by the app's callback outbox; its id. */
export async function emitMessage(
  t: TestApp,
  to: { companyId: string; subAccountId: string },
  data: Record<string, unknown>,
  wxid = 'wxid_alice',
): Promise<string> {
  const id = await t.app.services.callbacks.emit({ ...to, wxid, type: 'message', data });
  if (!id) throw new Error('no event stored (no callback URL?)');
  return id;
}
