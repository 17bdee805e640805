import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Records a nonce; false when it was seen before (a replayed request). */
export async function useNonce(db: Kysely<DB>, appKey: string, nonce: string, now: number): Promise<boolean> {
  const res = await db
    .insertInto('api_nonces')
    .values({ app_key: appKey, nonce, created_at: now })
    .onConflict((oc) => oc.columns(['app_key', 'nonce']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

export const deleteNoncesBefore = (db: Kysely<DB>, before: number) =>
  db.deleteFrom('api_nonces').where('created_at', '<', before).execute();
