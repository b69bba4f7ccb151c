import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { parseImportLine } from '../import/import-line.ts';
import { REPORT_STATUSES } from '../reports/lifecycle.ts';
import { REPORT_TYPES } from '../reports/report-types.ts';
import { generateCompanyLines } from './generate.ts';

const countries = buildCountryCatalogue();

test('the same seed gives the same lines; another seed other lines', () => {
  const a = [...generateCompanyLines({ companies: 200, members: 50, seed: 7 })];
  const b = [...generateCompanyLines({ companies: 200, members: 50, seed: 7 })];
  const c = [...generateCompanyLines({ companies: 200, members: 50, seed: 8 })];
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
});

test('every line is a valid D24 line; tax IDs unique; every type and status; long tail', () => {
  const types = new Set<string>();
  const statuses = new Set<string>();
  const taxIds = new Set<string>();
  const words = new Set<string>();
  let reports = 0;
  let most = 0;
  let tckn = 0;
  for (const line of generateCompanyLines({ companies: 3000, members: 100, seed: 1 })) {
    const { company, problems } = parseImportLine(line, countries);
    assert.deepEqual(problems, [], line);
    taxIds.add(company!.taxIdNorm);
    if (company!.taxIdNorm.length === 11) tckn++;
    company!.nameKey.split(' ').forEach((w) => words.add(w));
    for (const r of company!.reports) {
      types.add(r.type);
      statuses.add(r.status);
    }
    reports += company!.reports.length;
    most = Math.max(most, company!.reports.length);
  }
  assert.equal(taxIds.size, 3000);
  assert.deepEqual([...types].sort(), [...REPORT_TYPES].sort());
  assert.deepEqual([...statuses].sort(), [...REPORT_STATUSES].sort());
  assert.ok(reports / 3000 > 2.5 && reports / 3000 < 3.5, `mean ${reports / 3000}`);
  assert.ok(most >= 15, `longest tail ${most}`);
  assert.ok(tckn > 100, `${tckn} sole proprietors`);
  assert.ok(words.size > 300, `${words.size} distinct name words`);
});
