import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiAccountCalls, messagingCalls, OK_CODE, simCalls } from '@wxc/contract';
import { buyAndPay, type setUpCatalogue } from './commerce-helpers.js';
import { registerCompany, type TestApp } from './helpers.js';

/** Fast, deterministic simulator settings for API tests. */
export const MESSAGING_ENV = { SEND_INTERVAL_MS: '0', SIM_REPLY_DELAY_MS: '0', SIM_CHATTER_SECONDS: '0' };

export type Catalogue = Awaited<ReturnType<typeof setUpCatalogue>>;

/** A company with a paid package and one sub-account holding `slots` slots (and its credentials). */
export async function customerWithSubAccount(t: TestApp, cat: Catalogue, slots = 3) {
  const company = await registerCompany(t);
  await buyAndPay(t, company.token, cat.basic.id);
  const opened = await t.call(
    apiAccountCalls.openApiAccount,
    { name: '机器人', availableNum: slots },
    { token: company.token },
  );
  if (opened.code !== OK_CODE) throw new Error(`openApiAccount failed: ${opened.message}`);
  const sub = opened.data.account as { id: string; appKey: string };
  const creds = { 'x-app-key': sub.appKey, 'x-app-secret': opened.data.appSecret as string };
  return { ...company, sub, creds };
}

/** Logs a messaging account in the way a person would: QR, scan on the "phone", confirm. */
export async function loginAccount(
  t: TestApp,
  auth: { token?: string; headers?: Record<string, string> },
  input: { subAccountId?: string; deviceId?: string } = {},
) {
  const qr = await t.call(messagingCalls.getQrCode, input, auth);
  if (qr.code !== OK_CODE) throw new Error(`getQrCode failed: ${qr.code} ${qr.message}`);
  const { instanceId, deviceId } = qr.data;
  const scanned = await t.call(simCalls.scanAction, { instanceId, action: 'scan' });
  if (scanned.code !== OK_CODE) throw new Error(`scan failed: ${scanned.message}`);
  const confirmed = await t.call(simCalls.scanAction, { instanceId, action: 'confirm' });
  if (confirmed.code !== OK_CODE) throw new Error(`confirm failed: ${confirmed.code} ${confirmed.message}`);
  const status = await t.call(messagingCalls.checkQrCode, { instanceId }, auth);
  return {
    instanceId,
    deviceId: deviceId as string,
    account: status.data.account as { wxid: string; nickname: string },
  };
}

/** Waits (polling the database, bounded) until `check` holds. */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A picture of one pixel (PNG), as a contact would send one. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A callback receiver on loopback that answers 200 and keeps every event delivered, in order. */
export async function callbackReceiver() {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      events.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    events,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
