/** The rows of `webhook_endpoints` (D32); secrets arrive and leave sealed (D35). */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/types.ts';
import type { WebhookEndpointsTable } from '../db/schema.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export async function countEndpointsOfMember(db: Db, memberId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEndpoint(db: Db, endpoint: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
  const row = await db.insertInto('webhook_endpoints').values(endpoint).returningAll().executeTakeFirstOrThrow();
  return { ...row, id: Number(row.id), member_id: Number(row.member_id) };
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
 */
export async function rotateEndpointSecret(db: Db, id: number, sealed: string, previousUntil: number, now: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ secret_sealed: sealed, previous_secret_sealed: eb.ref('secret_sealed'), previous_secret_until: previousUntil, updated_at: now }))
    .where('id', '=', id)
    .execute();
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
