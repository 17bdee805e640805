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
