/**
 * The rows of `webhook_deliveries` (D32): the queue the delivery worker claims from, and the
 * history the portal shows. A claim is a row in state `delivering` until `claim_until`; a
 * process killed mid-delivery leaves it so, and once the claim has expired another process
 * takes it again (at least once). Every write after a claim names the claim's token, so a
 * process whose claim expired cannot overwrite the row's newer state.
 */
import { betweenBatches } from '../lib/next-turn.ts';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { WebhookDeliveriesTable } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { disableEndpoint } from './endpoints.repository.ts';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly endpointId: number;
  readonly webhookId: string;
  readonly payload: string;
  /** Attempts finished before this one. */
  readonly attempts: number;
  readonly claimToken: string;
  /** Taken from an expired claim (a process stopped or was killed mid-delivery). */
  readonly reclaimed: boolean;
  readonly url: string;
  readonly secretSealed: string;
  readonly previousSecretSealed: string | null;
  readonly previousSecretUntil: number | null;
}

export interface ClaimRequest {
  readonly now: number;
  readonly limit: number;
  readonly holder: string;
  readonly token: string;
  readonly claimUntil: number;
  /** How many more this process may send to an endpoint now (its per-endpoint bound). */
  readonly roomFor: (endpointId: number) => number;
  /** Endpoints with no room at all: their deliveries are not even looked at. */
  readonly fullEndpoints: readonly number[];
  /**
   * Whether to look for expired claims too (default true). A caller that claims many times a
   * second may look once a second only: an expired claim is a process killed mid-delivery, and
   * the look that finds none is a statement (a round trip on PostgreSQL) for every claim.
   */
  readonly lookForExpired?: boolean;
}

/**
 * Due deliveries this process may take in one state: pending and due, or claimed by a process
 * whose claim expired; of an enabled endpoint; and in event order per endpoint where possible: a
 * message whose first attempt has not been made waits while an older message of its endpoint still
 * waits for its first attempt (retries do not hold newer messages back).
 *
 * Its plan does not depend on the statistics (issue 30: with a fresh database's, PostgreSQL once
 * chose a nested loop scanning every pending row once per endpoint, 5 s a claim): the rows come
 * from `webhook_deliveries_due_order (state, next_attempt_at, id)` in the ORDER BY's order, and the
 * walk stops at the LIMIT; the two conditions on other rows are subqueries with `LIMIT 1 OFFSET 0` (an OFFSET: SQLite takes it only after a LIMIT), which
 * PostgreSQL keeps as per-row probes (one into the endpoint's primary key, one into the partial
 * index `webhook_deliveries_unattempted`) instead of turning them into joins sized by estimates.
 * The pending rows and the expired claims are two such walks: an OR of both would take neither index.
 * On PostgreSQL the claim's transaction turns sorting off, so the walk is the index's.
 */
export function dueCandidates(db: Db, seam: Pick<DialectSeam, 'claimRows'>, request: ClaimRequest, state: 'pending' | 'delivering', limit: number) {
  const { now, fullEndpoints } = request;
  let query = db
    .selectFrom('webhook_deliveries as d')
    .select(['d.id', 'd.endpoint_id'])
    .where('d.state', '=', state)
    .where(state === 'pending' ? 'd.next_attempt_at' : 'd.claim_until', '<=', now);
  if (fullEndpoints.length > 0) query = query.where('d.endpoint_id', 'not in', fullEndpoints);
  return seam.claimRows(
    query
      .where((eb) =>
        eb.and([
          eb.exists(
            eb.selectFrom('webhook_endpoints as e').select('e.id').whereRef('e.id', '=', 'd.endpoint_id').where('e.status', '=', 'enabled').limit(1).offset(0),
          ),
          eb.or([
            eb('d.first_attempt_at', 'is not', null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('webhook_deliveries as o')
                  .select('o.id')
                  .whereRef('o.endpoint_id', '=', 'd.endpoint_id')
                  .whereRef('o.id', '<', 'd.id')
                  // Literally the partial index's condition, so both engines see that it covers the probe.
                  .where(sql<boolean>`o.first_attempt_at IS NULL AND o.state IN ('pending', 'delivering')`)
                  .limit(1)
                  .offset(0),
              ),
            ),
          ]),
        ]),
      )
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      // Exactly as many as wanted: rows locked and then left would be skipped by other processes meanwhile.
      .limit(limit),
  );
}

/**
 * The ordered index walk that stops at the LIMIT, whatever the estimates: statistics from when
 * the table was near-empty make a sort of every due row look cheaper to PostgreSQL (measured: 23 ms
 * and 50,000 buffers at 10,000 due rows, against 0.1 ms). Only for the calling transaction.
 */
export async function walkTheIndex(trx: Db, seam: Pick<DialectSeam, 'kind'>): Promise<void> {
  if (seam.kind === 'postgres') await sql.raw('SET LOCAL enable_sort = off').execute(trx);
}

/** Claims up to `limit` due deliveries in one transaction (row locks skip other claimers' rows on PostgreSQL). */
export async function claimDueDeliveries(db: Db, seam: Pick<DialectSeam, 'claimRows' | 'kind'>, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    await walkTheIndex(trx, seam);
    // Expired claims first (they are the oldest work), then pending rows for the room left.
    const expired = request.lookForExpired === false ? [] : await dueCandidates(trx, seam, request, 'delivering', request.limit).execute();
    const pending = expired.length < request.limit ? await dueCandidates(trx, seam, request, 'pending', request.limit - expired.length).execute() : [];
    const candidates = [...expired, ...pending];
    const reclaimed = new Set(expired.map((row) => Number(row.id)));
    const taken = new Map<number, number>();
    const ids: number[] = [];
    for (const row of candidates) {
      const endpointId = Number(row.endpoint_id);
      const already = taken.get(endpointId) ?? 0;
      // Several due retries of one endpoint may exceed its room: the rest stay for a later claim.
      if (already >= request.roomFor(endpointId)) continue;
      taken.set(endpointId, already + 1);
      ids.push(Number(row.id));
    }
    if (ids.length === 0) return [];
    // The claim and what sending needs in one statement (the endpoint's columns by subqueries:
    // SQLite's RETURNING may not name another table of an UPDATE … FROM).
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({ state: 'delivering', claimed_by: request.holder, claim_token: request.token, claim_until: request.claimUntil })
      .where('id', 'in', ids)
      .returning((eb) => {
        const endpoint = eb.selectFrom('webhook_endpoints as e').whereRef('e.id', '=', 'webhook_deliveries.endpoint_id');
        return [
          'id',
          'endpoint_id',
          'webhook_id',
          'payload',
          'attempts',
          endpoint.select('e.url').as('url'),
          endpoint.select('e.secret_sealed').as('secret_sealed'),
          endpoint.select('e.previous_secret_sealed').as('previous_secret_sealed'),
          endpoint.select('e.previous_secret_until').as('previous_secret_until'),
        ];
      })
      .execute();
    // An endpoint deleted meanwhile: its delivery is gone with it, or its claim expires.
    const rows = updated.flatMap((row) => (row.url === null || row.secret_sealed === null ? [] : [{ ...row, url: row.url, secret_sealed: row.secret_sealed }]));
    rows.sort((a, b) => Number(a.id) - Number(b.id));
    return rows.map((row) => ({
      id: Number(row.id),
      endpointId: Number(row.endpoint_id),
      webhookId: row.webhook_id,
      payload: row.payload,
      attempts: row.attempts,
      claimToken: request.token,
      reclaimed: reclaimed.has(Number(row.id)),
      url: row.url,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretUntil: row.previous_secret_until,
    }));
  });
}

/** What an attempt leaves on the row. */
export interface AttemptRecord {
  readonly state: 'pending' | 'succeeded' | 'failed';
  readonly now: number;
  readonly nextAttemptAt?: number;
  readonly status: number | null;
  readonly error: string | null;
}

/**
 * Records many attempts, each under its claim, in ONE statement (an UPDATE … FROM a VALUES list,
 * both engines): the attempt counted, its outcome, the retry's instant, the claim cleared. Returns, in the order given, whether each
 * was recorded (false: its claim was lost meanwhile, nothing written for it).
 *
 * On PostgreSQL the statement's transaction (its own, or the caller's) commits without waiting for
 * the write-ahead log's flush (`synchronous_commit` off, for that transaction only: issue 30, third
 * pass). A flush takes 1.5–2.5 ms on the test machine and every search's commit waits for one: the
 * outcomes' ~30 flushes a second at 250 deliveries a second were flushes the searches queued behind.
 * What a crash of the database server can lose is the last fraction of a second of outcomes; their
 * rows are then still `delivering` under a claim that expires, and are delivered again: at least
 * once, never two at once (the claims themselves stay synchronous).
 */
export async function recordAttempts(
  db: Db,
  seam: Pick<DialectSeam, 'kind'>,
  attempts: ReadonlyArray<{ claimed: Pick<ClaimedDelivery, 'id' | 'claimToken'>; record: AttemptRecord }>,
): Promise<boolean[]> {
  if (attempts.length === 0) return [];
  const values = attempts.map(
    ({ claimed, record }) =>
      sql`(cast(${claimed.id} as bigint), cast(${claimed.claimToken} as text), cast(${record.state} as text), cast(${record.now} as bigint), cast(${record.nextAttemptAt ?? null} as bigint), cast(${record.status} as integer), cast(${record.error} as text))`,
  );
  // One statement, no round trip more: the setting is made by a row the UPDATE joins (a CTE that
  // no part of the statement read would not run), local to the transaction, read at its commit.
  const noFlush = seam.kind === 'postgres';
  const { rows } = await sql<{ id: number }>`
    WITH v (id, token, state, at, next_at, status, error) AS (VALUES ${sql.join(values)})${
      noFlush ? sql`, lazy AS (SELECT set_config('synchronous_commit', 'off', true) AS off)` : sql``
    }
    UPDATE webhook_deliveries SET
      state = v.state,
      attempts = webhook_deliveries.attempts + 1,
      first_attempt_at = coalesce(webhook_deliveries.first_attempt_at, v.at),
      last_attempt_at = v.at,
      last_status = v.status,
      last_error = v.error,
      claimed_by = NULL,
      claim_token = NULL,
      claim_until = NULL,
      next_attempt_at = coalesce(v.next_at, webhook_deliveries.next_attempt_at),
      finished_at = CASE WHEN v.state = 'pending' THEN webhook_deliveries.finished_at ELSE v.at END
    FROM v${noFlush ? sql` CROSS JOIN lazy` : sql``}
    WHERE webhook_deliveries.id = v.id AND webhook_deliveries.claim_token = v.token
    RETURNING webhook_deliveries.id`.execute(db);
  const recorded = new Set(rows.map((r) => Number(r.id)));
  return attempts.map(({ claimed }) => recorded.has(claimed.id));
}

/** An attempt's outcome to write; `disableReason` when it disables the endpoint (its last retry failed, or `410`: D32). */
export interface OutcomeWrite {
  readonly claimed: Pick<ClaimedDelivery, 'id' | 'claimToken' | 'endpointId'>;
  readonly record: AttemptRecord;
  readonly disableReason: string | null;
}

export interface OutcomesWritten {
  /** In the order given: whether each was recorded (false: its claim was lost meanwhile). */
  readonly recorded: boolean[];
  /** Endpoints disabled by these outcomes, with the reason (the caller logs them). */
  readonly disabled: ReadonlyArray<{ readonly endpointId: number; readonly reason: string }>;
}

/**
 * Writes a batch of outcomes: one statement (recordAttempts); an endpoint to disable joins it in
 * one transaction (the outcome and the disabling commit together), which is rare.
 */
export async function writeOutcomes(db: Db, seam: Pick<DialectSeam, 'kind'>, outcomes: readonly OutcomeWrite[]): Promise<OutcomesWritten> {
  if (!outcomes.some((o) => o.disableReason !== null)) return { recorded: await recordAttempts(db, seam, outcomes), disabled: [] };
  return db.transaction().execute(async (trx) => {
    const recorded = await recordAttempts(trx, seam, outcomes);
    const disabled: Array<{ endpointId: number; reason: string }> = [];
    for (const [i, { claimed, record, disableReason }] of outcomes.entries()) {
      if (!recorded[i] || disableReason === null) continue;
      if (await disableEndpoint(trx, claimed.endpointId, disableReason, record.now)) disabled.push({ endpointId: claimed.endpointId, reason: disableReason });
    }
    return { recorded, disabled };
  });
}

/**
 * Gives a claimed delivery back unattempted until `nextAttemptAt`, with the reason for the portal
 * (its signing secret could not be opened): the attempt count and the retry schedule are untouched.
 * False when the claim was lost meanwhile.
 */
export async function deferDelivery(
  db: Db,
  claimed: Pick<ClaimedDelivery, 'id' | 'claimToken'>,
  deferral: { nextAttemptAt: number; error: string },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', next_attempt_at: deferral.nextAttemptAt, last_error: deferral.error, claimed_by: null, claim_token: null, claim_until: null })
    .where('id', '=', claimed.id)
    .where('claim_token', '=', claimed.claimToken)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives claimed deliveries back unattempted (a draining process): due again at once. */
export async function releaseDeliveries(db: Db, claimed: ReadonlyArray<Pick<ClaimedDelivery, 'id' | 'claimToken'>>): Promise<void> {
  for (const { id, claimToken } of claimed) {
    await db
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', claimed_by: null, claim_token: null, claim_until: null })
      .where('id', '=', id)
      .where('claim_token', '=', claimToken)
      .execute();
  }
}

/** Deliveries due now (across every process) and the oldest one's due instant. */
export async function deliveryBacklog(db: Db, now: number): Promise<{ due: number; oldestDueAt: number | null }> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('d.next_attempt_at').as('oldest')])
    .where((eb) =>
      eb.or([
        eb.and([eb('d.state', '=', 'pending'), eb('d.next_attempt_at', '<=', now)]),
        eb.and([eb('d.state', '=', 'delivering'), eb('d.claim_until', '<=', now)]),
      ]),
    )
    .where((eb) => eb.exists(eb.selectFrom('webhook_endpoints as e').select('e.id').whereRef('e.id', '=', 'd.endpoint_id').where('e.status', '=', 'enabled')))
    .executeTakeFirstOrThrow();
  return { due: Number(row.n), oldestDueAt: row.oldest === null ? null : Number(row.oldest) };
}

export async function insertDeliveries(db: Db, rows: ReadonlyArray<Insertable<WebhookDeliveriesTable>>): Promise<number> {
  let inserted = 0;
  // 7 columns a row: 500 rows stay far under PostgreSQL's 65,535 parameters and SQLite's 32,766.
  for (let i = 0; i < rows.length; i += 500) {
    const result = await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['endpoint_id', 'webhook_id']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/** What every delivery of a range of events shares: its body is `payloadBefore`, the event's id, `payloadAfter`. */
export interface EventRangeDeliveries {
  /** Events with ids in (afterEventId, lastEventId]. */
  readonly afterEventId: number;
  readonly lastEventId: number;
  /** The `webhook-id` is this and the event's id. */
  readonly webhookIdPrefix: string;
  readonly eventType: string;
  readonly payloadBefore: string;
  readonly payloadAfter: string;
  readonly now: number;
}

/**
 * One pending delivery per event of the range and enabled endpoint of its member, in one
 * INSERT … SELECT (event order, then endpoint order): the rows are made by the database from
 * `company_events` and `webhook_endpoints`, not built and sent row by row. Returns how many.
 */
export async function insertDeliveriesForEvents(db: Db, range: EventRangeDeliveries): Promise<number> {
  const text = (v: string) => sql<string>`cast(${v} as text)`;
  const big = (v: number) => sql<number>`cast(${v} as bigint)`;
  const result = await db
    .insertInto('webhook_deliveries')
    .columns(['endpoint_id', 'webhook_id', 'event_type', 'payload', 'state', 'next_attempt_at', 'created_at'])
    .expression(
      db
        .selectFrom('company_events as ev')
        .innerJoin('webhook_endpoints as e', 'e.member_id', 'ev.member_id')
        .select([
          'e.id',
          sql<string>`${text(range.webhookIdPrefix)} || ev.id`.as('webhook_id'),
          text(range.eventType).as('event_type'),
          sql<string>`${text(range.payloadBefore)} || ev.id || ${text(range.payloadAfter)}`.as('payload'),
          sql<string>`'pending'`.as('state'),
          big(range.now).as('next_attempt_at'),
          big(range.now).as('created_at'),
        ])
        .where('ev.id', '>', range.afterEventId)
        .where('ev.id', '<=', range.lastEventId)
        .where('e.status', '=', 'enabled')
        .orderBy('ev.id')
        .orderBy('e.id'),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function findDelivery(db: Db, id: number): Promise<DeliveryRow | undefined> {
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { ...row, id: Number(row.id), endpoint_id: Number(row.endpoint_id) };
}

/** An endpoint's deliveries created since `since`, newest first, at most `limit`, before id `beforeId` when given. */
export async function listDeliveriesOfEndpoint(db: Db, endpointId: number, since: number, limit: number, beforeId: number | null): Promise<DeliveryRow[]> {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('created_at', '>=', since)
    .orderBy('id', 'desc')
    .limit(limit);
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), endpoint_id: Number(row.endpoint_id) }));
}

/** Starts a delivery over (a redelivery): pending and due now, its schedule from the start. False when it is being delivered. */
export async function restartDelivery(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', attempts: 0, next_attempt_at: now, finished_at: null, claimed_by: null, claim_token: null, claim_until: null })
    .where('id', '=', id)
    .where('state', '!=', 'delivering')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes deliveries created before `before` (30 days kept), in small batches. */
export async function purgeDeliveriesBefore(db: Db, before: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    await betweenBatches(signal);
    const batch = db.selectFrom('webhook_deliveries').select('id').where('created_at', '<', before).limit(1000);
    const result = await db.deleteFrom('webhook_deliveries').where('id', 'in', batch).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < 1000) return total;
  }
}
