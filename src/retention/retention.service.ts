/**
 * Ageing and retention (D34), the use case: what the daily job and `risklookup retention run` do.
 *
 * 1. Anchors: reports written since the last run (or whose dates a correction changed) get the
 *    date they age from (retention-rules.ts `retentionAnchorOf`).
 * 2. Expiry: a report past its retention end leaves search — status `expired`, its attachments
 *    deleted, the history row, the company's visible count, the watchers' events (D31, through
 *    the seam) and the operator log — in one transaction per batch, whose ordinary statements
 *    move the data version (the write protocol), so no cached answer outlives it. Attachments are
 *    kept in the database (D29), so they go in the same transaction: nothing is left on disk.
 * 3. Deletion: an expired report `expiredKeptMonths` after its expiry, with its history and every
 *    table that hangs on it (retention.repository.ts `REPORT_DEPENDENTS`).
 * 4. Audit records (D21) older than `auditKeptDays`; lookup counts older than the disclosure's 12
 *    months.
 *
 * Safe when two runs meet (the job on one process, the CLI on another): a report is expired only
 * if its status is still what was read, and deleted only once; each run logs what it did itself.
 * `plan` answers the same questions without writing (`--dry-run`).
 */
import type { Db } from '../db/types.ts';
import { purgeAuditBefore } from '../audit/audit-retention.ts';
import { disclosureMonths } from '../disclosure/disclosure-view.ts';
import type { CompanyChange, RecordCompanyChanges } from '../events/company-changes.ts';
import type { Clock } from '../lib/clock.ts';
import { DomainError } from '../lib/errors.ts';
import { betweenBatches } from '../lib/next-turn.ts';
import type { Actor } from '../actors/actor.ts';
import { appendOperatorLog } from '../operator/operator-log.ts';
import type { ReportStatus } from '../reports/lifecycle.ts';
import { visibleReports } from '../reports/visibility.ts';
import { REPORT_TYPES, type ReportType } from '../reports/report-types.ts';
import {
  countAuditBefore,
  countLookupMonthsBefore,
  deleteAttachmentsOf,
  deleteExpiredReports,
  deleteLookupMonthsBatch,
  expireReportsIf,
  insertStatusChanges,
  listCompaniesFacts,
  setVisibleCounts,
  listDueForDeletion,
  listDueForExpiry,
  listReportsForExpiry,
  listReportsWithoutAnchor,
  setRetentionAnchor,
  type AnchorFactsRow,
  type DeletionKey,
  type DueKey,
  type DueReportRow,
} from './retention.repository.ts';
import { auditPurgeBefore, deleteExpiredBefore, EXPIRY_REASON, expiryCutoffOf, retentionAnchorOf } from './retention-rules.ts';
import type { RetentionSettings } from './retention-settings.ts';

/** Reports per transaction: short locks, and a drain waits for one batch at most. */
const BATCH = 200;
/** Rows read a page for the anchors and the dry run's lists: reads only, so larger. */
const FILL_PAGE = 2000;
/** Lookup counts (rows) a statement of the purge deletes, about. */
export const LOOKUP_PURGE_BATCH = 5000;

/** The daily job as an actor (retention.job.ts); `risklookup retention run` acts as the CLI. */
export const RETENTION_JOB_ACTOR: Actor = { kind: 'system', job: 'retention' };

/** Who runs it, as the history rows and the operator log name it: the daily job or an operator at the shell; no one else. */
function labelOf(actor: Actor): { label: string } {
  if (actor.kind === 'system') return { label: `system:${actor.job}` };
  if (actor.kind === 'cli') return { label: `cli:${actor.user}` };
  throw new DomainError('forbidden', 'only the daily job or the CLI runs the retention', { code: 'actor.not_operator' });
}

export interface RetentionDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly settings: RetentionSettings;
  /** The watchers' seam (events/company-changes.ts); injected so tests can see the calls. */
  readonly recordCompanyChanges: RecordCompanyChanges;
}

/** What a run did, or (`plan`) would do. Ids ascending. */
export interface RetentionOutcome {
  readonly at: number;
  readonly anchorsFilled: number;
  readonly expired: { readonly count: number; readonly byType: Readonly<Partial<Record<ReportType, number[]>>> };
  readonly deleted: { readonly count: number; readonly ids: readonly number[] };
  /** Reports that changed while the run looked at them (an operator's step): the next run takes them. */
  readonly changedMeanwhile: readonly number[];
  readonly audit: { readonly before: number; readonly deleted: number };
  readonly lookupMonths: { readonly before: string; readonly deleted: number };
}

export interface Retention {
  /** What a run at this instant would do; writes nothing. */
  plan(): Promise<RetentionOutcome>;
  run(actor: Actor, signal?: AbortSignal): Promise<RetentionOutcome>;
}

function factsOf(row: AnchorFactsRow) {
  return {
    type: row.type as ReportType,
    eventDate: row.event_date,
    caseFields: row.case_json === null ? null : (JSON.parse(row.case_json) as Record<string, string>),
    courtDecisionDate: row.court_decision_date,
    concordatEnd: row.concordat_end,
    filedAt: row.filed_at,
  };
}

/** Every row of a paged query, `afterId` by `afterId`; the event loop takes a turn between pages. */
async function everyRow<T extends { id: number }>(page: (afterId: number) => Promise<T[]>, size: number, signal?: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  for (let afterId = 0; ;) {
    await betweenBatches(signal);
    const rows = await page(afterId);
    for (const row of rows) all.push(row);
    if (rows.length < size) return all;
    afterId = rows.at(-1)!.id;
  }
}

export function createRetention(deps: RetentionDeps): Retention {
  const { db, settings } = deps;

  /**
   * The ids of every report of `type` due to expire (the dry run), a page at a time: only the ids
   * are kept (8 bytes each in a packed array: ~12 MB for the 1.45 million due on a fresh 10^6
   * import, where the rows themselves would be several times that).
   */
  async function everyDue(type: ReportType, cutoff: string, signal?: AbortSignal): Promise<number[]> {
    const all: number[] = [];
    for (let after: DueKey = null; ;) {
      await betweenBatches(signal);
      const rows = await listDueForExpiry(db, type, cutoff, after, FILL_PAGE);
      for (const row of rows) all.push(row.id);
      if (rows.length < FILL_PAGE) return all;
      after = { anchor: rows.at(-1)!.retention_anchor!, id: rows.at(-1)!.id };
    }
  }

  /** Reports without an anchor, with the anchor each gets (not written). */
  async function missingAnchors(type: ReportType, signal?: AbortSignal) {
    const rows = await everyRow((afterId) => listReportsWithoutAnchor(db, type, afterId, FILL_PAGE), FILL_PAGE, signal);
    return rows.map((row) => ({ id: row.id, anchor: retentionAnchorOf(factsOf(row)).date }));
  }

  /** Works out the missing anchors, a page at a time; a page written leaves the query. */
  async function fillAnchors(signal?: AbortSignal): Promise<number> {
    let filled = 0;
    for (const type of REPORT_TYPES) {
      for (;;) {
        await betweenBatches(signal);
        const rows = await listReportsWithoutAnchor(db, type, 0, FILL_PAGE);
        if (rows.length === 0) break;
        const byAnchor = new Map<string, number[]>();
        for (const row of rows) {
          const anchor = retentionAnchorOf(factsOf(row)).date;
          const ids = byAnchor.get(anchor);
          if (ids) ids.push(row.id);
          else byAnchor.set(anchor, [row.id]);
        }
        await db.transaction().execute(async (trx) => {
          for (const [anchor, ids] of byAnchor) await setRetentionAnchor(trx, anchor, ids);
        });
        filled += rows.length;
      }
    }
    return filled;
  }

  /**
   * Expires one batch in one transaction; returns the ids it expired and those changed meanwhile.
   * A few statements a batch, not a few a report: one UPDATE per status read, one INSERT of the
   * history rows, one read of the companies' reports and one UPDATE of their visible counts, one
   * operator log entry per type.
   */
  async function expireBatch(actor: { label: string }, now: number, rows: ReadonlyArray<DueReportRow & { type: ReportType }>) {
    return db.transaction().execute(async (trx) => {
      const byStatus = new Map<string, number[]>();
      for (const row of rows) {
        const ids = byStatus.get(row.status);
        if (ids) ids.push(row.id);
        else byStatus.set(row.status, [row.id]);
      }
      const done: Array<{ id: number; companyId: number; from: string }> = [];
      for (const [from, ids] of byStatus) done.push(...(await expireReportsIf(trx, ids, from, now)).map((r) => ({ ...r, from })));
      const expired = done.map((d) => d.id).sort((a, b) => a - b);
      const expiredSet = new Set(expired);
      const missed = rows.map((r) => r.id).filter((id) => !expiredSet.has(id));
      if (expired.length === 0) return { expired: [], missed };
      await insertStatusChanges(
        trx,
        done.map((d) => ({
          report_id: d.id,
          from_status: d.from,
          to_status: 'expired',
          changed_at: now,
          changed_by: actor.label,
          changed_by_user_id: null,
          reason: EXPIRY_REASON,
        })),
      );
      const attachments = await deleteAttachmentsOf(trx, expired);
      const changes = await refreshVisibleCounts(trx, [...new Set(done.map((d) => d.companyId))]);
      if (changes.length > 0) await deps.recordCompanyChanges(trx, now, changes);
      // One entry per type, as when the batches went type by type (the attachments and companies: the batch's).
      const byType = new Map<ReportType, number[]>();
      for (const row of rows) {
        if (!expiredSet.has(row.id)) continue;
        const ids = byType.get(row.type);
        if (ids) ids.push(row.id);
        else byType.set(row.type, [row.id]);
      }
      for (const [type, ids] of byType) {
        await appendOperatorLog(trx, {
          at: now,
          userId: null,
          actor: actor.label,
          action: 'retention.expire',
          target: `reports:${type}`,
          before: null,
          after: { status: 'expired', ids, attachments_deleted: attachments, companies_changed: changes.length },
        });
      }
      return { expired: rows.filter((r) => expiredSet.has(r.id)), missed };
    });
  }

  async function deleteBatch(actor: { label: string }, now: number, rows: readonly DueReportRow[], before: number) {
    return db.transaction().execute(async (trx) => {
      const deleted = await deleteExpiredReports(
        trx,
        rows.map((r) => r.id),
      );
      if (deleted.length > 0) {
        await appendOperatorLog(trx, {
          at: now,
          userId: null,
          actor: actor.label,
          action: 'retention.delete',
          target: 'reports:expired',
          before: { status: 'expired', expired_before: new Date(before).toISOString() },
          after: { deleted: deleted },
        });
      }
      return deleted;
    });
  }

  /**
   * The lookup counts of months before `month`, in batches of `LOOKUP_PURGE_BATCH` rows, each its
   * own statement (a short lock) with a turn for the event loop before it; a drain stops it between
   * two, the rest left for the next run (as the audit purge).
   */
  async function purgeLookupMonths(month: string, signal?: AbortSignal): Promise<number> {
    let deleted = 0;
    for (let after = 0; ;) {
      await betweenBatches(signal);
      const batch = await deleteLookupMonthsBatch(db, month, after, LOOKUP_PURGE_BATCH);
      deleted += batch.deleted;
      if (batch.lastCompanyId === null) return deleted;
      after = batch.lastCompanyId;
    }
  }

  function cutoffs(now: number) {
    return {
      deleteBefore: deleteExpiredBefore(now, settings),
      auditBefore: auditPurgeBefore(now, settings),
      lookupMonth: disclosureMonths(now)[0]!.month,
    };
  }

  return {
    async plan() {
      const now = deps.clock.now();
      const { deleteBefore, auditBefore, lookupMonth } = cutoffs(now);
      let anchorsFilled = 0;
      const byType: Partial<Record<ReportType, number[]>> = {};
      for (const type of REPORT_TYPES) {
        const cutoff = expiryCutoffOf(type, now, settings);
        const missing = await missingAnchors(type);
        anchorsFilled += missing.length;
        const due = await everyDue(type, cutoff);
        const ids = [...due, ...missing.filter((m) => m.anchor <= cutoff).map((m) => m.id)].sort((a, b) => a - b);
        if (ids.length > 0) byType[type] = ids;
      }
      const deleted: number[] = [];
      for (let after: DeletionKey = null; ;) {
        await betweenBatches();
        const rows = await listDueForDeletion(db, deleteBefore, after, FILL_PAGE);
        for (const row of rows) deleted.push(row.id);
        if (rows.length < FILL_PAGE) break;
        after = { expiredAt: rows.at(-1)!.expired_at, id: rows.at(-1)!.id };
      }
      deleted.sort((a, b) => a - b);
      return {
        at: now,
        anchorsFilled,
        expired: { count: Object.values(byType).reduce((n, ids) => n + ids.length, 0), byType },
        deleted: { count: deleted.length, ids: deleted },
        changedMeanwhile: [],
        audit: { before: auditBefore, deleted: await countAuditBefore(db, auditBefore) },
        lookupMonths: { before: lookupMonth, deleted: await countLookupMonthsBefore(db, lookupMonth) },
      };
    },

    async run(who, signal) {
      const actor = labelOf(who);
      const now = deps.clock.now();
      const { deleteBefore, auditBefore, lookupMonth } = cutoffs(now);
      const anchorsFilled = await fillAnchors(signal);
      const byType: Partial<Record<ReportType, number[]>> = {};
      const changedMeanwhile: number[] = [];
      // The due reports' ids from the (type, anchor) index, then expired in id order: neighbours in
      // id share table and index pages (a company's reports are neighbours too), so a batch writes
      // about a quarter of the pages it wrote in anchor order (docs/benchmarks.md).
      const cutoffOf = new Map(REPORT_TYPES.map((type) => [type, expiryCutoffOf(type, now, settings)]));
      const due: number[] = [];
      for (const type of REPORT_TYPES) for (const id of await everyDue(type, cutoffOf.get(type)!, signal)) due.push(id);
      due.sort((a, b) => a - b);
      for (let i = 0; i < due.length; i += BATCH) {
        // A turn for the requests, timers and signals that came meanwhile (better-sqlite3 never gives one up by itself), then a drain stops here.
        await betweenBatches(signal);
        // Read again: what changed since the ids were listed is judged as it is now.
        const rows = (await listReportsForExpiry(db, due.slice(i, i + BATCH))).filter(
          (r) => r.status !== 'expired' && r.retention_anchor !== null && r.retention_anchor <= cutoffOf.get(r.type)!,
        );
        if (rows.length === 0) continue;
        const { expired, missed } = await expireBatch(actor, now, rows);
        for (const row of expired) (byType[row.type] ??= []).push(row.id);
        changedMeanwhile.push(...missed);
      }
      const deleted: number[] = [];
      for (let after: DeletionKey = null; ;) {
        await betweenBatches(signal);
        const rows = await listDueForDeletion(db, deleteBefore, after, BATCH);
        if (rows.length === 0) break;
        for (const id of await deleteBatch(actor, now, rows, deleteBefore)) deleted.push(id);
        after = { expiredAt: rows.at(-1)!.expired_at, id: rows.at(-1)!.id };
      }
      deleted.sort((a, b) => a - b);
      const auditDeleted = await purgeAuditBefore(db, auditBefore, signal);
      const lookupsDeleted = await purgeLookupMonths(lookupMonth, signal);
      if (auditDeleted > 0 || lookupsDeleted > 0) {
        await appendOperatorLog(db, {
          at: now,
          userId: null,
          actor: actor.label,
          action: 'retention.purge',
          target: 'audit_log',
          before: { audit_before: new Date(auditBefore).toISOString(), lookup_months_before: lookupMonth },
          after: { audit_records_deleted: auditDeleted, lookup_counts_deleted: lookupsDeleted },
        });
      }
      return {
        at: now,
        anchorsFilled,
        expired: { count: Object.values(byType).reduce((n, ids) => n + ids.length, 0), byType },
        deleted: { count: deleted.length, ids: deleted },
        changedMeanwhile,
        audit: { before: auditBefore, deleted: auditDeleted },
        lookupMonths: { before: lookupMonth, deleted: lookupsDeleted },
      };
    },
  };
}

/**
 * D12's visible count of each company, recomputed after the batch; the companies whose count
 * changed (expiry only takes reports away, so a changed set is a changed count) are written and
 * returned for the watchers (D31).
 */
async function refreshVisibleCounts(db: Db, companyIds: readonly number[]): Promise<CompanyChange[]> {
  const { facts, companies } = await listCompaniesFacts(db, companyIds);
  const byCompany = new Map<number, Array<{ type: ReportType; status: ReportStatus; reportedBy: number | null }>>();
  for (const f of facts) {
    const list = byCompany.get(Number(f.company_id)) ?? [];
    list.push({ type: f.type as ReportType, status: f.status as ReportStatus, reportedBy: f.reported_by === null ? null : Number(f.reported_by) });
    byCompany.set(Number(f.company_id), list);
  }
  const counts = new Map<number, number>();
  const changes: CompanyChange[] = [];
  for (const company of companies) {
    const id = Number(company.id);
    const count = visibleReports(byCompany.get(id) ?? []).length;
    if (count === Number(company.visible_report_count)) continue;
    counts.set(id, count);
    changes.push({ country: company.country, taxIdNorm: company.tax_id_norm });
  }
  await setVisibleCounts(db, counts);
  return changes;
}
