/**
 * The import writes text exactly as given, whatever the engine's bulk path (PostgreSQL: COPY's
 * text format, where a backslash and `\N` mean something; the import refuses control characters):
 * a search answers the same characters the file held. Over HTTP, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import type { NameSearchBody } from './helpers/bodies.ts';
import { makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { COPY_PIECE_CHARS } from '../src/db/bulk-writer.ts';

const AWKWARD = 'a\\b \\N \\\\t \\n \\r end\\';

for (const engine of ENGINES) {
  describe(`imported text stays exact [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-1', dailyLimit: 1000 });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    for (const load of ['into an empty database', 'into one that holds companies']) {
      test(`backslashes and \\N, ${load}`, async () => {
        const name = `Kovaltex ${load.length} ${AWKWARD} Ltd. Şti.`;
        await makeCompanies(database.engine, t.clock, [{ company_name: name, city: AWKWARD, reports: [makeReport({ description: AWKWARD })] }]);
        const res = await search(t.app, key, `q=kovaltex%20${load.length}`);
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json<NameSearchBody>();
        assert.equal(body.result_count, 1);
        assert.equal(body.results[0]!.company_name, name);
        assert.equal(body.results[0]!.city, AWKWARD);
        assert.equal(body.results[0]!.reports[0]!.description, AWKWARD);
      });
    }

    test('a batch whose text is sent in several pieces: every row exact, multibyte letters and escapes at any offset', async () => {
      // PostgreSQL's COPY text goes out a piece of ~COPY_PIECE_CHARS characters at a time
      // (bulk-writer.ts); the rows here make several pieces per table, with two-byte letters, so a
      // piece's length in bytes differs from its length in characters.
      const rows = 400;
      const description = (i: number) => `${'ĞÜŞİÖÇ ığüşöç '.repeat((i % 37) + 5)}${AWKWARD} #${i}`;
      const specs = Array.from({ length: rows }, (_, i) => ({
        company_name: `Parçalı ${i} Ticaret Ltd. Şti.`,
        city: i % 2 === 0 ? AWKWARD : 'İzmir',
        reports: [makeReport({ description: description(i) }), makeReport({ description: `${description(i)} ikinci` })],
      }));
      const reportText = specs.reduce((n, s) => n + s.reports.reduce((m, r) => m + String(r.description).length, 0), 0);
      assert.ok(reportText > 4 * COPY_PIECE_CHARS, `the reports' text spans several pieces (${reportText} characters)`);
      const taxIds = await makeCompanies(database.engine, t.clock, specs);
      const stored = await database.engine.db
        .selectFrom('companies')
        .innerJoin('reports', 'reports.company_id', 'companies.id')
        .select(['companies.tax_id', 'companies.company_name', 'companies.city', 'reports.description'])
        .where('companies.tax_id', 'in', taxIds)
        .orderBy('reports.id')
        .execute();
      assert.equal(stored.length, rows * 2);
      const expected = specs.flatMap((s, i) =>
        s.reports.map((r) => ({ tax_id: taxIds[i], company_name: s.company_name, city: s.city, description: r.description })),
      );
      const byTaxId = (a: { tax_id: string | undefined }, b: { tax_id: string | undefined }) => String(a.tax_id).localeCompare(String(b.tax_id));
      assert.deepEqual(
        [...stored].sort(byTaxId).map((r) => ({ ...r })),
        [...expected].sort(byTaxId),
      );
    });

    if (engine.name === 'postgres') {
      test('a COPY that PostgreSQL refuses in a later piece: the import fails with its error, writes nothing, and the engine goes on', async () => {
        // A constraint only this test adds; the import checks its lines, so only the database can refuse.
        await sql`ALTER TABLE reports ADD CONSTRAINT test_no_boom CHECK (position('BOOM' in description) = 0)`.execute(database.engine.db);
        try {
          const rows = 300;
          const specs = Array.from({ length: rows }, (_, i) => ({
            company_name: `Kırılan ${i} Nakliyat Ltd. Şti.`,
            reports: [makeReport({ description: `${'ÇĞİÖŞÜ '.repeat(80)}${i === rows - 1 ? 'BOOM' : ''} #${i}` })],
          }));
          const text = specs.reduce((n, s) => n + String(s.reports[0]!.description).length, 0);
          assert.ok(text > 2 * COPY_PIECE_CHARS, `the refused row, the last, comes after the first pieces have gone out (${text} characters)`);
          const before = await database.engine.db
            .selectFrom('companies')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
          await assert.rejects(makeCompanies(database.engine, t.clock, specs), /test_no_boom/);
          const after = await database.engine.db
            .selectFrom('companies')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
          assert.equal(Number(after.n), Number(before.n), 'no company of the failed import was kept');
          const res = await search(t.app, key, 'q=kovaltex');
          assert.equal(res.statusCode, 200, res.body);
        } finally {
          await sql`ALTER TABLE reports DROP CONSTRAINT test_no_boom`.execute(database.engine.db);
        }
      });
    }
  });
}
