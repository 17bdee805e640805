import { DAY_MS } from '@wxc/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema.js';
import * as nonces from './modules/api-auth/repo.js';
import * as sessions from './modules/auth/repo.js';
import * as callbacks from './modules/callbacks/repo.js';
import * as captchas from './modules/captcha/repo.js';
import * as orders from './modules/orders/repo.js';
import * as sms from './modules/sms/repo.js';
import { deleteOldPageViews } from './modules/visitors/service.js';

const HOUR = 3_600_000;

/** Deletes rows no rule needs any more. Safe to run from several processes at once. */
export async function sweep(db: Kysely<DB>, now = Date.now()): Promise<void> {
  await captchas.deleteExpired(db, now - HOUR);
  await sms.deleteOlderThan(db, now - 2 * DAY_MS); // the daily cap looks back 24 h
  await sessions.deleteLoginFailuresBefore(db, now - DAY_MS);
  await sessions.deleteSessionsEndedBefore(db, now - 30 * DAY_MS);
  await orders.expireOverdue(db, now);
  await nonces.deleteNoncesBefore(db, now - HOUR); // a signed request is only accepted within 5 minutes
  await callbacks.deleteSettledBefore(db, now - 30 * DAY_MS); // delivered or failed, with their attempts
  await deleteOldPageViews(db, now);
}

export function startHousekeeping(db: Kysely<DB>, log: FastifyBaseLogger, everyMs = HOUR): () => void {
  const run = () => sweep(db).catch((err) => log.error({ err }, 'housekeeping failed'));
  const timer = setInterval(run, everyMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
