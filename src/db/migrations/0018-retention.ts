import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectSeam } from '../dialect-seam.ts';

/**
 * Ageing and retention (D34) and the disclosure's lookup counts. Frozen: this file holds its own
 * DDL and SQL and calls no live code but the engine's kind.
 *
 * - `reports.retention_anchor`: the Turkey-time date a report ages from (`YYYY-MM-DD`); its
 *   retention end is this date plus its type's months, so a changed setting applies at once. Null
 *   means "not worked out yet": the daily job works it out (from src/retention/retention-rules.ts)
 *   before it expires anything, so every way a report is written (filing, import, a dispute's
 *   correction, which sets it back to null) is covered without each writer knowing the rule.
 * - `reports.expired_at`: when the daily job expired it (status `expired`); it is deleted with its
 *   history `RISKLOOKUP_EXPIRED_KEPT_MONTHS` after that day.
 * - `company_lookups`: per company and Turkey-time month (`YYYY-MM`), how many searches had it
 *   among their results (written by the audit writer beside the audit records; no member).
 *
 * Existing reports get their anchor here, by the same rule as retention-rules.ts written in SQL
 * (`fillAnchorsSql`, compared with the rule by test/retention-migration.test.ts): a report already
 * past its retention end expires on the daily job's first run after the upgrade.
 */
export async function up(db: Kysely<unknown>, seam: DialectSeam): Promise<void> {
  await sql.raw('ALTER TABLE reports ADD COLUMN retention_anchor text').execute(db);
  await sql.raw('ALTER TABLE reports ADD COLUMN expired_at bigint').execute(db);
  await db.schema.createIndex('reports_retention').on('reports').columns(['type', 'retention_anchor']).execute();
  await db.schema.createIndex('reports_expired_at').on('reports').column('expired_at').execute();
  await db.schema
    .createTable('company_lookups')
    .addColumn('company_id', 'bigint', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('lookups', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_lookups_pk', ['company_id', 'month'])
    .execute();
  await fillAnchorsSql(seam.kind).execute(db);
}

/**
 * One UPDATE that gives every report without an anchor the anchor retention-rules.ts gives it:
 * `concordat` its `concordat_end`; `court_decision` its `court_decision_date`; every other type
 * (and those two when their own date is missing) the first of event date, `case.date`,
 * `case.assignment_date`, `court_decision_date`; none of them: the Turkey date of `filed_at`.
 * Every date but a concordat's end is capped at the filing's Turkey date. Dates compare as text
 * (`YYYY-MM-DD`).
 */
export function fillAnchorsSql(kind: DialectSeam['kind']): RawBuilder<unknown> {
  const sqlite = kind === 'sqlite';
  const filedOn = sqlite
    ? `date(filed_at / 1000 + 10800, 'unixepoch')`
    : `to_char(to_timestamp((filed_at + 10800000) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const caseField = (field: string) => (sqlite ? `json_extract(case_json, '$.${field}')` : `(case_json::json ->> '${field}')`);
  // A real calendar date: SQLite checks it with date(); PostgreSQL by its shape (the writers
  // checked every date with isCalendarDate, so only a damaged row could differ).
  const valid = (x: string) =>
    sqlite
      ? `(${x} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(${x}) = ${x})`
      : `(${x} ~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$')`;
  const capped = (x: string) => (sqlite ? `min(${x}, ${filedOn})` : `LEAST(${x}, ${filedOn})`);
  const chain = ['event_date', caseField('date'), caseField('assignment_date'), 'court_decision_date'];
  const anchor = [
    `WHEN type = 'concordat' AND ${valid('concordat_end')} THEN concordat_end`,
    `WHEN type = 'court_decision' AND ${valid('court_decision_date')} THEN ${capped('court_decision_date')}`,
    ...chain.map((x) => `WHEN ${valid(x)} THEN ${capped(x)}`),
    `ELSE ${filedOn}`,
  ].join(' ');
  return sql.raw(`UPDATE reports SET retention_anchor = CASE ${anchor} END WHERE retention_anchor IS NULL`);
}
