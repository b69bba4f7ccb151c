import type { Kysely } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Issue 27, findings 3 and 6. Frozen: its own DDL, calling no live code but the engine's kind.
 *
 * - `user_tokens.totp_secret`: an operator's link carries the random TOTP seed its acceptance
 *   enrols, sealed under the key ring (D35). `users.totp_secret` keeps its name; what it holds
 *   becomes a sealed value (the server seals the clear seeds of earlier versions at start: that
 *   needs the ring, which a migration never has).
 * - `trusted_devices`: browsers that signed in before (OWASP's device cookies): only a SHA-256
 *   digest of each cookie's token, per user, with its expiry.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  await db.schema.alterTable('user_tokens').addColumn('totp_secret', 'text').execute();

  const table = db.schema.createTable('trusted_devices');
  await (
    seam.kind === 'sqlite' ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()) : table.addColumn('id', 'bigserial', (c) => c.primaryKey())
  )
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('trusted_devices_user').on('trusted_devices').column('user_id').execute();
}
