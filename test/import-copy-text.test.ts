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
import { makeCompanies, makeKeyHolder, makeReport, type CompanySpec } from './helpers/factories.ts';
import { COPY_PIECE_BYTES } from '../src/db/bulk-writer.ts';
import { IMPORT_BATCH_LINES } from '../src/import/import.service.ts';

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
      // PostgreSQL's COPY text goes out a piece of ~COPY_PIECE_BYTES bytes at a time (bulk-writer.ts,
      // each row's line encoded into the piece in place); the rows here make several pieces per
      // table, with two-byte letters, so a line's length in bytes differs from its length in characters.
      const rows = 400;
      const description = (i: number) => `${'ĞÜŞİÖÇ ığüşöç '.repeat((i % 37) + 5)}${AWKWARD} #${i}`;
      const specs = Array.from({ length: rows }, (_, i) => ({
        company_name: `Parçalı ${i} Ticaret Ltd. Şti.`,
        city: i % 2 === 0 ? AWKWARD : 'İzmir',
        reports: [makeReport({ description: description(i) }), makeReport({ description: `${description(i)} ikinci` })],
      }));
      const reportText = specs.reduce((n, s) => n + s.reports.reduce((m, r) => m + Buffer.byteLength(String(r.description)), 0), 0);
      assert.ok(reportText > 4 * COPY_PIECE_BYTES, `the reports' text spans several pieces (${reportText} bytes)`);
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
      /**
       * Imports `specs` with a constraint only this helper adds (the import checks its lines, so
       * only the database can refuse a report whose description holds BOOM): the import must fail
       * with the constraint's own error, keep no company, and leave the engine answering.
       */
      async function expectRefused(specs: CompanySpec[]): Promise<void> {
        const db = database.engine.db;
        const companies = async () =>
          Number(
            (
              await db
                .selectFrom('companies')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        await sql`ALTER TABLE reports ADD CONSTRAINT test_no_boom CHECK (position('BOOM' in description) = 0)`.execute(db);
        try {
          const before = await companies();
          await assert.rejects(makeCompanies(database.engine, t.clock, specs), (error: Error) => {
            assert.match(error.message, /test_no_boom/);
            return true;
          });
          assert.equal(await companies(), before, 'no company of the failed import was kept');
          const res = await search(t.app, key, 'q=kovaltex');
          assert.equal(res.statusCode, 200, res.body);
        } finally {
          await sql`ALTER TABLE reports DROP CONSTRAINT test_no_boom`.execute(db);
        }
      }

      test('a COPY that PostgreSQL refuses in a later piece: the import fails with its error, writes nothing, and the engine goes on', async () => {
        const rows = 300;
        const specs = Array.from({ length: rows }, (_, i) => ({
          company_name: `Kırılan ${i} Nakliyat Ltd. Şti.`,
          reports: [makeReport({ description: `${'ÇĞİÖŞÜ '.repeat(80)}${i === rows - 1 ? 'BOOM' : ''} #${i}` })],
        }));
        const text = specs.reduce((n, s) => n + Buffer.byteLength(String(s.reports[0]!.description)), 0);
        assert.ok(text > 2 * COPY_PIECE_BYTES, `the refused row, the last, comes after the first pieces have gone out (${text} bytes)`);
        await expectRefused(specs);
      });

      test("ids asked for ahead and refused (a sequence at its end): the import fails with the sequence's own error and keeps nothing", async () => {
        // A large import takes ids a block ahead (bulk-writer.ts, IdBlocks), which nobody awaits
        // at once: its failure must still be the one reported, not the aborted transaction's.
        const db = database.engine.db;
        const { rows } = await sql<{ last: string }>`SELECT last_value AS last FROM companies_id_seq`.execute(db);
        await sql.raw(`ALTER SEQUENCE companies_id_seq MAXVALUE ${Number(rows[0]!.last) + 3 * IMPORT_BATCH_LINES}`).execute(db);
        try {
          const specs = Array.from({ length: 2 * IMPORT_BATCH_LINES + 10 }, (_, i) => ({ company_name: `Sonlu ${i} Gıda Ltd. Şti.` }));
          await assert.rejects(makeCompanies(database.engine, t.clock, specs), (error: Error) => {
            assert.match(error.message, /reached maximum value of sequence "companies_id_seq"/);
            return true;
          });
          const kept = await db.selectFrom('companies').select('id').where('company_name', 'like', 'Sonlu %').execute();
          assert.equal(kept.length, 0);
        } finally {
          await sql`ALTER SEQUENCE companies_id_seq NO MAXVALUE`.execute(db);
        }
      });

      test("a COPY refused while later batches' COPYs are queued behind it: its own error, not the aborted transaction's", async () => {
        // A batch returns once its COPYs are queued (bulk-writer.ts): the next batches are made
        // and queued meanwhile, and their statements fail only because the first one did.
        const specs = Array.from({ length: 3 * IMPORT_BATCH_LINES + 10 }, (_, i) => ({
          company_name: `Sıralı ${i} Lojistik Ltd. Şti.`,
          reports: [makeReport({ description: `kayıt ${i}${i === IMPORT_BATCH_LINES - 5 ? ' BOOM' : ''}` })],
        }));
        await expectRefused(specs);
      });
    }
  });
}
