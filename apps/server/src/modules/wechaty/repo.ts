import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The fingerprint of the network token a device last used; undefined for a device never seen. */
export async function deviceTokenHash(db: Kysely<DB>, deviceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('wechaty_devices')
    .select('token_hash')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row?.token_hash;
}

export async function rememberDeviceToken(db: Kysely<DB>, deviceId: string, tokenHash: string, now: number) {
  await db
    .insertInto('wechaty_devices')
    .values({ device_id: deviceId, token_hash: tokenHash, updated_at: now })
    .onConflict((oc) => oc.column('device_id').doUpdateSet({ token_hash: tokenHash, updated_at: now }))
    .execute();
}

// ---- several processes: leases (see leases.ts for the timing) and where each process is reached

/**
 * Takes the device's lease for `owner` until `until`: free, lapsed (its holder died) or already
 * ours. One statement, so two processes racing for a device never both win.
 */
export async function claimDevice(
  db: Kysely<DB>,
  deviceId: string,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const row = await db
    .insertInto('wechaty_leases')
    .values({ device_id: deviceId, owner, lease_until: until })
    .onConflict((oc) =>
      oc
        .column('device_id')
        .doUpdateSet({ owner, lease_until: until })
        .where((eb) =>
          eb.or([eb('wechaty_leases.lease_until', '<=', now), eb('wechaty_leases.owner', '=', owner)]),
        ),
    )
    .returning('device_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes a network token for a device, as claimDevice does: never two devices on one token. */
export async function claimToken(
  db: Kysely<DB>,
  tokenHash: string,
  deviceId: string,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const row = await db
    .insertInto('wechaty_token_leases')
    .values({ token_hash: tokenHash, device_id: deviceId, owner, lease_until: until })
    .onConflict((oc) =>
      oc
        .column('token_hash')
        .doUpdateSet({ device_id: deviceId, owner, lease_until: until })
        .where((eb) =>
          eb.or([
            eb('wechaty_token_leases.lease_until', '<=', now),
            eb.and([
              eb('wechaty_token_leases.owner', '=', owner),
              eb('wechaty_token_leases.device_id', '=', deviceId),
            ]),
          ]),
        ),
    )
    .returning('token_hash')
    .executeTakeFirst();
  return row !== undefined;
}

export interface ProcessInfo {
  id: string;
  address: string;
  routeKey: string;
  pid: number;
}

/** Says where this process is reached (again, should a long silence have had it forgotten). */
export async function registerProcess(db: Kysely<DB>, p: ProcessInfo, now: number) {
  await db
    .insertInto('wechaty_processes')
    .values({ id: p.id, address: p.address, route_key: p.routeKey, pid: p.pid, seen_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now }))
    .execute();
}

/**
 * Extends every lease this process still holds (and says it is alive); answers the devices it
 * holds. A device missing from the answer was taken by another process after its lease lapsed.
 */
export async function renewLeases(db: Kysely<DB>, self: ProcessInfo, now: number, until: number) {
  await registerProcess(db, self, now);
  await db
    .updateTable('wechaty_token_leases')
    .set({ lease_until: until })
    .where('owner', '=', self.id)
    .execute();
  const rows = await db
    .updateTable('wechaty_leases')
    .set({ lease_until: until })
    .where('owner', '=', self.id)
    .returning('device_id')
    .execute();
  return new Set(rows.map((r) => r.device_id));
}

/** Gives a device's lease, and the token it held, back (a session that ended here). */
export async function releaseDevice(db: Kysely<DB>, deviceId: string, owner: string, tokenHash?: string) {
  await db
    .deleteFrom('wechaty_leases')
    .where('device_id', '=', deviceId)
    .where('owner', '=', owner)
    .execute();
  if (tokenHash !== undefined) await releaseToken(db, tokenHash, owner);
}

export async function releaseToken(db: Kysely<DB>, tokenHash: string, owner: string) {
  await db
    .deleteFrom('wechaty_token_leases')
    .where('token_hash', '=', tokenHash)
    .where('owner', '=', owner)
    .execute();
}

/** The devices whose lease is held now, by any process. */
export async function leasedDevices(db: Kysely<DB>, now: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('wechaty_leases')
    .select('device_id')
    .where('lease_until', '>', now)
    .execute();
  return new Set(rows.map((r) => r.device_id));
}

export interface Peer {
  id: string;
  address: string;
  routeKey: string;
}

/** The process holding the device's lease now, and where it is reached; null when none does. */
export async function deviceOwner(db: Kysely<DB>, deviceId: string, now: number): Promise<Peer | null> {
  const row = await db
    .selectFrom('wechaty_leases as l')
    .innerJoin('wechaty_processes as p', 'p.id', 'l.owner')
    .select(['p.id', 'p.address', 'p.route_key'])
    .where('l.device_id', '=', deviceId)
    .where('l.lease_until', '>', now)
    .executeTakeFirst();
  return row ? { id: row.id, address: row.address, routeKey: row.route_key } : null;
}

/** A process that stops says so (its leases went back with each session: releaseDevice). */
export async function unregisterProcess(db: Kysely<DB>, id: string) {
  await db.deleteFrom('wechaty_processes').where('id', '=', id).execute();
}

/** Processes that died without saying so, long after their leases lapsed. */
export async function forgetSilentProcesses(db: Kysely<DB>, seenBefore: number) {
  await db.deleteFrom('wechaty_processes').where('seen_at', '<', seenBefore).execute();
}
