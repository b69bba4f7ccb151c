/**
 * Browsers that signed in to an account before (issue 27, finding 6: OWASP's device cookies). The
 * cookie holds a 256-bit token per account it signed in to; only the token's SHA-256 digest is
 * stored, with its user and expiry.
 */
import type { Db } from '../db/types.ts';

export async function insertTrustedDevice(db: Db, device: { userId: number; digest: string; now: number; expiresAt: number }): Promise<number> {
  const row = await db
    .insertInto('trusted_devices')
    .values({ user_id: device.userId, digest: device.digest, created_at: device.now, last_used_at: device.now, expires_at: device.expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Of the given digests, the unexpired one that belongs to the user with this email, if any. */
export async function findTrustedDevice(
  db: Db,
  digests: readonly string[],
  emailNorm: string,
  now: number,
): Promise<{ id: number; userId: number; digest: string } | undefined> {
  if (digests.length === 0) return undefined;
  const row = await db
    .selectFrom('trusted_devices')
    .innerJoin('users', 'users.id', 'trusted_devices.user_id')
    .select(['trusted_devices.id', 'trusted_devices.user_id', 'trusted_devices.digest'])
    .where('trusted_devices.digest', 'in', digests)
    .where('users.email_norm', '=', emailNorm)
    .where('trusted_devices.expires_at', '>', now)
    .executeTakeFirst();
  return row ? { id: Number(row.id), userId: Number(row.user_id), digest: row.digest } : undefined;
}

export async function deleteTrustedDevice(db: Db, id: number): Promise<void> {
  await db.deleteFrom('trusted_devices').where('id', '=', id).execute();
}

/** A reset or disabled account: every browser it trusted is a stranger again. */
export async function deleteTrustedDevicesOfUser(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
}

/** Keeps a user's `keep` newest devices and drops expired ones of every user (bounded growth). */
export async function pruneTrustedDevices(db: Db, userId: number, keep: number, now: number): Promise<void> {
  await db.deleteFrom('trusted_devices').where('expires_at', '<=', now).execute();
  const newest = await db.selectFrom('trusted_devices').select('id').where('user_id', '=', userId).orderBy('id', 'desc').limit(keep).execute();
  if (newest.length < keep) return;
  await db
    .deleteFrom('trusted_devices')
    .where('user_id', '=', userId)
    .where('id', '<', Number(newest.at(-1)!.id))
    .execute();
}
