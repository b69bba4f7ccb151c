/** Runs the migrations (Kysely's migrator) that both engines share. */
import { Migrator, type Migration } from 'kysely';
import type { Engine } from './connect.ts';
import * as initial from './migrations/0001-initial.ts';
import * as nameRankIndexes from './migrations/0002-name-rank-indexes.ts';
import * as dataVersion from './migrations/0003-data-version.ts';
import * as portal from './migrations/0004-portal.ts';
import * as oneOpenClaim from './migrations/0005-one-open-claim.ts';
import * as filedCompanyText from './migrations/0006-filed-company-text.ts';
import * as nameWords from './migrations/0007-name-words.ts';
import * as sealedSeedsAndDevices from './migrations/0009-sealed-seeds-and-devices.ts';
import * as jobsAndWebhooks from './migrations/0011-jobs-and-webhooks.ts';
import * as nameWordIndex from './migrations/0012-name-word-index.ts';
import * as memberQuota from './migrations/0013-member-quota.ts';
import * as watchlistEvents from './migrations/0016-watchlist-events.ts';
import * as disputes from './migrations/0017-disputes.ts';
import * as retention from './migrations/0018-retention.ts';
import * as deliveryClaimIndexes from './migrations/0019-delivery-claim-indexes.ts';
import * as nameVocabularyIds from './migrations/0020-name-vocabulary-ids.ts';
import * as companyChanges from './migrations/0021-company-changes.ts';
import * as disputeReportIndexes from './migrations/0022-dispute-report-indexes.ts';
import * as retentionDueIndex from './migrations/0024-retention-due-index.ts';
import * as nearMatchIndex from './migrations/0025-near-match-index.ts';
import * as nearMatchWordIndex from './migrations/0026-near-match-word-index.ts';
import * as nameIndexesOneSegment from './migrations/0027-name-indexes-one-segment.ts';

function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '0001-initial': { up: (db) => initial.up(db, engine.seam) },
    '0002-name-rank-indexes': { up: (db) => nameRankIndexes.up(db, engine.seam) },
    '0003-data-version': { up: (db) => dataVersion.up(db, engine.seam) },
    '0004-portal': { up: (db) => portal.up(db, engine.seam) },
    '0005-one-open-claim': { up: (db) => oneOpenClaim.up(db) },
    '0006-filed-company-text': { up: (db) => filedCompanyText.up(db) },
    '0007-name-words': { up: (db) => nameWords.up(db, engine.seam) },
    // 0008 and 0010 were never used (numbers held for branches that landed later under new ones).
    '0009-sealed-seeds-and-devices': { up: (db) => sealedSeedsAndDevices.up(db, engine.seam) },
    '0011-jobs-and-webhooks': { up: (db) => jobsAndWebhooks.up(db, engine.seam) },
    '0012-name-word-index': { up: (db) => nameWordIndex.up(db, engine.seam) },
    '0013-member-quota': { up: (db) => memberQuota.up(db) },
    '0016-watchlist-events': { up: (db) => watchlistEvents.up(db, engine.seam) },
    '0017-disputes': { up: (db) => disputes.up(db, engine.seam) },
    '0018-retention': { up: (db) => retention.up(db, engine.seam) },
    '0019-delivery-claim-indexes': { up: (db) => deliveryClaimIndexes.up(db) },
    '0020-name-vocabulary-ids': { up: (db) => nameVocabularyIds.up(db, engine.seam) },
    '0021-company-changes': { up: (db) => companyChanges.up(db, engine.seam) },
    '0022-dispute-report-indexes': { up: (db) => disputeReportIndexes.up(db) },
    // 0023 was never used (held for a branch that needed no migration).
    '0024-retention-due-index': { up: (db) => retentionDueIndex.up(db) },
    '0025-near-match-index': { up: (db) => nearMatchIndex.up(db, engine.seam) },
    '0026-near-match-word-index': { up: (db) => nearMatchWordIndex.up(db, engine.seam) },
    '0027-name-indexes-one-segment': { up: (db) => nameIndexesOneSegment.up(db, engine.seam) },
  };
}

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(engine: Engine): Promise<string[]> {
  const migrator = new Migrator({
    db: engine.db,
    provider: { getMigrations: () => Promise.resolve(migrationsFor(engine)) },
  });
  if (engine.pooler === 'transaction') return checkUpToDate(engine, migrator);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    // No migration ran: the database could not be reached or read (a refused connection, a
    // pooler that refuses a setting), which is what to say.
    if (failed === undefined) throw new Error(`cannot bring the schema up to date on ${engine.description}: ${(error as Error).message}`);
    throw new Error(`migration ${failed} failed on ${engine.description}: ${(error as Error).message}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations this program knows that the database has not run (D36's readiness: none). */
export async function pendingMigrations(engine: Engine): Promise<string[]> {
  const migrator = new Migrator({
    db: engine.db,
    provider: { getMigrations: () => Promise.resolve(migrationsFor(engine)) },
  });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * Behind a transaction pooler (RISKLOOKUP_DB_POOLER=transaction, db/pooler.ts) nothing is
 * migrated: Kysely's migration lock is the session's (`pg_advisory_lock`, taken and released by
 * statements of their own), and the pooler may send the release to another server connection,
 * leaving the lock held there for every later migration to wait on. The schema must already be
 * up to date; otherwise the message says where to migrate.
 */
async function checkUpToDate(engine: Engine, migrator: Migrator): Promise<string[]> {
  const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
  if (pending.length > 0) {
    throw new Error(
      `${engine.description} needs migrations ${pending.join(', ')}, which are not run through a transaction pooler (RISKLOOKUP_DB_POOLER=transaction: the migration lock is the session's): run 'risklookup migrate' on PostgreSQL's own address or through a session pooler (RISKLOOKUP_DB_POOLER unset or session), then start again`,
    );
  }
  return [];
}
