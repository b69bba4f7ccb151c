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
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/types.ts';
import { purgeAuditBefore } from '../audit/audit-retention.ts';
import { disclosureMonths } from '../disclosure/disclosure-view.ts';
import type { CompanyChange, RecordCompanyChanges } from '../events/company-changes.ts';
import type { Clock } from '../lib/clock.ts';
import { appendOperatorLog } from '../operator/operator-log.ts';
import { insertStatusChange } from '../reports/reports.repository.ts';
import { refreshVisibleCount } from '../reports/reports.service.ts';
import { REPORT_TYPES, type ReportType } from '../reports/report-types.ts';
import {
  countAuditBefore,
  countLookupMonthsBefore,
  deleteAttachmentsOf,
  deleteExpiredReports,
  deleteLookupMonthsBefore,
  expireReportIf,
  listDueForDeletion,
  listDueForExpiry,
  listReportsWithoutAnchor,
  setRetentionAnchor,
  type AnchorFactsRow,
  type DueReportRow,
} from './retention.repository.ts';
import { auditPurgeBefore, deleteExpiredBefore, expiryCutoffOf, retentionAnchorOf } from './retention-rules.ts';
import type { RetentionSettings } from './retention-settings.ts';

/** Reports per transaction: short locks, and a drain waits for one batch at most. */
const BATCH = 200;

/** Who runs it, for the history rows and the operator log: the daily job, or an operator at the shell. */
export interface RetentionActor {
  /** `system:retention` for the job; `cli:<shell user>` for `risklookup retention run`. */
  readonly label: string;
}

export const RETENTION_JOB_ACTOR: RetentionActor = { label: 'system:retention' };

export interface RetentionDeps {
  readonly db: Kysely<Database>;
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
  run(actor: RetentionActor, signal?: AbortSignal): Promise<RetentionOutcome>;
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

/** Every row of a paged query, `afterId` by `afterId`. */
async function everyRow<T extends { id: number }>(page: (afterId: number) => Promise<T[]>, signal?: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  for (let afterId = 0; ;) {
    signal?.throwIfAborted();
    const rows = await page(afterId);
    all.push(...rows);
    if (rows.length < BATCH) return all;
    afterId = rows.at(-1)!.id;
  }
}

export function createRetention(deps: RetentionDeps): Retention {
  const { db, settings } = deps;

  /** Reports without an anchor, with the anchor each gets (not written). */
  async function missingAnchors(type: ReportType, signal?: AbortSignal) {
    const rows = await everyRow((afterId) => listReportsWithoutAnchor(db, type, afterId, BATCH), signal);
    return rows.map((row) => ({ id: row.id, anchor: retentionAnchorOf(factsOf(row)).date }));
  }

  async function fillAnchors(signal?: AbortSignal): Promise<number> {
    let filled = 0;
    for (const type of REPORT_TYPES) {
      const byAnchor = new Map<string, number[]>();
      for (const { id, anchor } of await missingAnchors(type, signal)) byAnchor.set(anchor, [...(byAnchor.get(anchor) ?? []), id]);
      for (const [anchor, ids] of byAnchor) {
        for (let i = 0; i < ids.length; i += 1000) await setRetentionAnchor(db, anchor, ids.slice(i, i + 1000));
        filled += ids.length;
      }
    }
    return filled;
  }

  /** Expires one batch in one transaction; returns the ids it expired and those changed meanwhile. */
  async function expireBatch(actor: RetentionActor, now: number, type: ReportType, rows: readonly DueReportRow[]) {
    return db.transaction().execute(async (trx) => {
      const expired: number[] = [];
      const missed: number[] = [];
      const companies = new Map<number, number>();
      for (const row of rows) {
        // The company's count before this batch (the column moves only with refreshVisibleCount).
        if (!companies.has(row.company_id)) companies.set(row.company_id, await visibleCountOf(trx, row.company_id));
        if (!(await expireReportIf(trx, row.id, row.status, now))) {
          missed.push(row.id);
          continue;
        }
        expired.push(row.id);
        await insertStatusChange(trx, {
          report_id: row.id,
          from_status: row.status,
          to_status: 'expired',
          changed_at: now,
          changed_by: actor.label,
          changed_by_user_id: null,
          reason: 'retention period ended (D34)',
        });
      }
      if (expired.length === 0) return { expired, missed };
      const attachments = await deleteAttachmentsOf(trx, expired);
      const changes: CompanyChange[] = [];
      for (const [companyId, before] of companies) {
        if ((await refreshVisibleCount(trx, companyId)) !== before) changes.push(await companyChangeOf(trx, companyId));
      }
      if (changes.length > 0) await deps.recordCompanyChanges(trx, now, changes);
      await appendOperatorLog(trx, {
        at: now,
        userId: null,
        actor: actor.label,
        action: 'retention.expire',
        target: `reports:${type}`,
        before: null,
        after: { status: 'expired', ids: expired, attachments_deleted: attachments, companies_changed: changes.length },
      });
      return { expired, missed };
    });
  }

  async function deleteBatch(actor: RetentionActor, now: number, rows: readonly DueReportRow[], before: number) {
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
        const due = await everyRow((afterId) => listDueForExpiry(db, type, cutoff, afterId, BATCH));
        const ids = [...due.map((r) => r.id), ...missing.filter((m) => m.anchor <= cutoff).map((m) => m.id)].sort((a, b) => a - b);
        if (ids.length > 0) byType[type] = ids;
      }
      const deleted = (await everyRow((afterId) => listDueForDeletion(db, deleteBefore, afterId, BATCH))).map((r) => r.id);
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

    async run(actor, signal) {
      const now = deps.clock.now();
      const { deleteBefore, auditBefore, lookupMonth } = cutoffs(now);
      const anchorsFilled = await fillAnchors(signal);
      const byType: Partial<Record<ReportType, number[]>> = {};
      const changedMeanwhile: number[] = [];
      for (const type of REPORT_TYPES) {
        const cutoff = expiryCutoffOf(type, now, settings);
        for (let afterId = 0; ;) {
          signal?.throwIfAborted();
          const rows = await listDueForExpiry(db, type, cutoff, afterId, BATCH);
          if (rows.length === 0) break;
          const { expired, missed } = await expireBatch(actor, now, type, rows);
          if (expired.length > 0) byType[type] = [...(byType[type] ?? []), ...expired];
          changedMeanwhile.push(...missed);
          afterId = rows.at(-1)!.id;
        }
      }
      const deleted: number[] = [];
      for (let afterId = 0; ;) {
        signal?.throwIfAborted();
        const rows = await listDueForDeletion(db, deleteBefore, afterId, BATCH);
        if (rows.length === 0) break;
        deleted.push(...(await deleteBatch(actor, now, rows, deleteBefore)));
        afterId = rows.at(-1)!.id;
      }
      const auditDeleted = await purgeAuditBefore(db, auditBefore, signal);
      const lookupsDeleted = await deleteLookupMonthsBefore(db, lookupMonth);
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

async function visibleCountOf(db: Db, companyId: number): Promise<number> {
  const row = await db.selectFrom('companies').select('visible_report_count').where('id', '=', companyId).executeTakeFirst();
  return Number(row?.visible_report_count ?? 0);
}

async function companyChangeOf(db: Db, companyId: number): Promise<CompanyChange> {
  const row = await db.selectFrom('companies').select(['country', 'tax_id_norm']).where('id', '=', companyId).executeTakeFirstOrThrow();
  return { country: row.country, taxIdNorm: row.tax_id_norm };
}
