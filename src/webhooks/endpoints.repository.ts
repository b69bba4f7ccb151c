/**
 * The rows of `webhook_endpoints` (D32); secrets arrive and leave sealed (D35), each bound to its
 * endpoint's row (src/secrets/secret-columns.ts, WEBHOOK_SECRET).
 */
import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Db } from '../db/types.ts';
import type { Database, WebhookEndpointsTable } from '../db/schema.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export async function countEndpointsOfMember(db: Db, memberId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Inserts an endpoint whose secret is sealed for its own row (D35: the sealed value is bound to
 * the row id, known only once the row exists): the row is inserted with an empty placeholder and
 * the sealed secret set at once, in the caller's transaction, so no other reader ever sees the
 * placeholder and a failure leaves no row at all.
 */
export async function insertEndpointSealed(
  trx: Transaction<Database>,
  endpoint: Omit<Insertable<WebhookEndpointsTable>, 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_until'>,
  sealFor: (id: number) => string,
): Promise<EndpointRow> {
  const inserted = await trx
    .insertInto('webhook_endpoints')
    .values({ ...endpoint, secret_sealed: '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  const row = await trx
    .updateTable('webhook_endpoints')
    .set({ secret_sealed: sealFor(id) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, id, member_id: Number(row.member_id) };
}

/** The member's endpoint with exactly this address, if any. */
export async function findEndpointOfMemberByUrl(db: Db, memberId: number, url: string): Promise<number | null> {
  const row = await db.selectFrom('webhook_endpoints').select('id').where('member_id', '=', memberId).where('url', '=', url).executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function findEndpoint(db: Db, id: number): Promise<EndpointRow | undefined> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { ...row, id: Number(row.id), member_id: Number(row.member_id) };
}

export async function listEndpointsOfMember(db: Db, memberId: number): Promise<EndpointRow[]> {
  const rows = await db.selectFrom('webhook_endpoints').selectAll().where('member_id', '=', memberId).orderBy('id').execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), member_id: Number(row.member_id) }));
}

/** Enabled endpoints of these members, for the outbox: member id → endpoint ids. */
export async function enabledEndpointsOfMembers(db: Db, memberIds: readonly number[]): Promise<Map<number, number[]>> {
  const byMember = new Map<number, number[]>();
  for (let i = 0; i < memberIds.length; i += 1000) {
    const rows = await db
      .selectFrom('webhook_endpoints')
      .select(['id', 'member_id'])
      .where('member_id', 'in', memberIds.slice(i, i + 1000))
      .where('status', '=', 'enabled')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = byMember.get(Number(row.member_id)) ?? [];
      list.push(Number(row.id));
      byMember.set(Number(row.member_id), list);
    }
  }
  return byMember;
}

export async function updateEndpoint(
  db: Db,
  id: number,
  changes: Partial<Pick<EndpointRow, 'status' | 'disabled_reason' | 'disabled_at'>> & {
    updated_at: number;
  },
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

/**
 * A new sealed secret; the current one becomes the previous, signing until `previousUntil`. One
 * statement: two rotations at once leave the later one's secret current and the earlier's previous.
 * The moved value opens where it lands because both columns are sealed for `secret_sealed` of the
 * row (WEBHOOK_PREVIOUS_SECRET.sealedAs); nothing is opened or re-sealed here.
 */
export async function rotateEndpointSecret(db: Db, id: number, sealed: string, previousUntil: number, now: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ secret_sealed: sealed, previous_secret_sealed: eb.ref('secret_sealed'), previous_secret_until: previousUntil, updated_at: now }))
    .where('id', '=', id)
    .execute();
}

/**
 * Forgets previous secrets past their 24 hours (the daily retention job): a secret that signs
 * nothing more is not kept, counted by `secrets status`, or re-sealed by `secrets rotate`.
 */
export async function forgetExpiredPreviousSecrets(db: Db, now: number): Promise<number> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ previous_secret_sealed: null, previous_secret_until: null })
    .where('previous_secret_until', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Disables an enabled endpoint with its reason; false when it was disabled already. */
export async function disableEndpoint(db: Db, id: number, reason: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, disabled_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'enabled')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the endpoint and (cascade) its deliveries. */
export async function deleteEndpoint(db: Db, id: number): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}
