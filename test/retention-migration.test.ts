/**
 * Migration 0018 gives the reports that exist at the upgrade their retention anchor in one UPDATE
 * per engine (`fillAnchorsSql`); it must give exactly what the rule (retention-rules.ts
 * `retentionAnchorOf`) gives, which the daily job uses for every report written later. Compared
 * here on rows of every type and every combination of dates, on both engines.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { fillAnchorsSql } from '../src/db/migrations/0018-retention.ts';
import { retentionAnchorOf } from '../src/retention/retention-rules.ts';
import { REPORT_TYPES, type ReportType } from '../src/reports/report-types.ts';
import { startOfTurkeyDay } from '../src/lib/calendar-date.ts';

const FILED = [
  startOfTurkeyDay('2023-03-10') + 10 * 3_600_000,
  // 00:30 Turkey time is the day before in UTC; 23:59 the same day in both.
  startOfTurkeyDay('2022-07-01') + 30 * 60_000,
  startOfTurkeyDay('2024-02-29') + 23 * 3_600_000 + 59 * 60_000,
];
const DATES = [null, '2021-05-04', '2025-01-01', '2024-02-29'];

interface Row {
  type: ReportType;
  event_date: string | null;
  case_json: string | null;
  court_decision_date: string | null;
  concordat_end: string | null;
  filed_at: number;
}

function rows(): Row[] {
  const out: Row[] = [];
  let i = 0;
  for (const type of REPORT_TYPES) {
    for (const event of DATES) {
      for (const caseDate of DATES) {
        for (const court of DATES) {
          const filedAt = FILED[i++ % FILED.length]!;
          const assignment = DATES[i % DATES.length]!;
          const caseFields: Record<string, string> = {};
          if (caseDate) caseFields.date = caseDate;
          if (assignment && i % 3 === 0) caseFields.assignment_date = assignment;
          out.push({
            type,
            event_date: event,
            case_json: Object.keys(caseFields).length === 0 && i % 2 === 0 ? null : JSON.stringify(caseFields),
            court_decision_date: court,
            concordat_end: DATES[(i + 1) % DATES.length]!,
            filed_at: filedAt,
          });
        }
      }
    }
  }
  return out;
}

for (const engine of ENGINES) {
  describe(`migration 0018's anchors [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('the SQL gives every existing report the anchor the rule gives it', async () => {
      const db = database.engine.db;
      const company = await db
        .insertInto('companies')
        .values({
          company_name: 'Göç Ettirilen A.Ş.',
          tax_id: '1234567890',
          tax_id_norm: '1234567890',
          country: 'TR',
          city: 'Bursa',
          name_key: 'goc ettirilen as',
          name_core: 'goc ettirilen',
          updated_at: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const cases = rows();
      const inserted = await db
        .insertInto('reports')
        .values(
          cases.map((r) => ({
            company_id: company.id,
            type: r.type,
            status: 'approved',
            filed_at: r.filed_at,
            description: '',
            event_date: r.event_date,
            case_json: r.case_json,
            court_decision_date: r.court_decision_date,
            concordat_end: r.concordat_end,
            created_at: r.filed_at,
            updated_at: r.filed_at,
          })),
        )
        .returning('id')
        .execute();
      await fillAnchorsSql(engine.name).execute(db);
      const stored = await db.selectFrom('reports').select(['id', 'retention_anchor']).orderBy('id').execute();
      const byId = new Map(stored.map((s) => [Number(s.id), s.retention_anchor]));
      const wrong = cases.flatMap((r, i) => {
        const expected = retentionAnchorOf({
          type: r.type,
          eventDate: r.event_date,
          caseFields: r.case_json === null ? null : (JSON.parse(r.case_json) as Record<string, string>),
          courtDecisionDate: r.court_decision_date,
          concordatEnd: r.concordat_end,
          filedAt: r.filed_at,
        }).date;
        const got = byId.get(Number(inserted[i]!.id));
        return got === expected ? [] : [{ ...r, expected, got }];
      });
      assert.deepEqual(wrong, [], `${wrong.length} of ${cases.length} differ`);
      assert.ok(cases.length >= 500);
    });
  });
}
