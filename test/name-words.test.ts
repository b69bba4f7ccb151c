/**
 * company_name_words (migration 0007) holds every word of every company's `name_core`, however
 * the company was written: a fresh import, a later import, a rename by import, a filing's
 * single insert, a copy, and concurrent inserts on PostgreSQL. A word missing here would hide
 * a near match (D25) behind a misspelling; the search trusts the list.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { companyLine, countries, makeClaimants, makeReport } from './helpers/factories.ts';
import { runCli } from './helpers/cli.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { importLines } from '../src/import/import.service.ts';
import { findOrCreateCompany } from '../src/reports/filing.repository.ts';
import { toCoreKey, toSearchKey } from '../src/companies/name-key.ts';
import { NOON_TR } from './helpers/app.ts';
import type { Db } from '../src/db/types.ts';

const clock = fixedClock(NOON_TR);
const sqlite = ENGINES.find((e) => e.name === 'sqlite')!;

async function wordsOfNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('companies').select('name_core').execute();
  return [...new Set(rows.flatMap((r) => r.name_core.split(' ')).filter((w) => w !== ''))].sort();
}

async function listedWords(db: Db): Promise<string[]> {
  return (await db.selectFrom('company_name_words').select('word').orderBy('word').execute()).map((r) => r.word).sort();
}

const importNames = (database: TestDatabase, names: Array<[string, string?]>) =>
  importLines(
    database.engine,
    names.map(([company_name, tax_id]) => companyLine({ company_name, ...(tax_id ? { tax_id } : {}), reports: [makeReport()] })),
    'words',
    { countries, clock },
  );

for (const engine of ENGINES) {
  describe(`the words of company names [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
      await makeClaimants(database.engine.db, clock);
    });
    after(async () => {
      await database?.drop();
    });

    test('a fresh import, a later import, a rename and a filing each leave every word of every name listed', async () => {
      const db = database.engine.db;
      assert.deepEqual(await listedWords(db), []);
      await importNames(database, [['Öztürk Lojistik A.Ş.', '1234567890'], ['Karadeniz Nakliyat Ltd. Şti.'], ['Yılmaz & Oğulları Gıda']]);
      assert.deepEqual(await listedWords(db), await wordsOfNames(db));
      assert.ok((await listedWords(db)).includes('ozturk'));

      // Into a database that holds companies: the bulk path, not a fresh load.
      await importNames(database, [['Zeytindalı Tarım A.Ş.'], ['Kuzeyyıldızı Enerji']]);
      assert.deepEqual(await listedWords(db), await wordsOfNames(db));

      // The same tax ID under a new name: the new words join, the old ones stay.
      await importNames(database, [['Zümrütoğlu Kargo A.Ş.', '1234567890']]);
      const afterRename = await listedWords(db);
      for (const word of await wordsOfNames(db)) assert.ok(afterRename.includes(word), word);
      assert.ok(afterRename.includes('zumrutoglu') && afterRename.includes('ozturk'));

      // A filing's company: one ordinary insert.
      const name = 'Çamlıbel Soğuk Zincir';
      await findOrCreateCompany(db, {
        company_name: name,
        tax_id: '9876543210',
        tax_id_norm: '9876543210',
        country: 'TR',
        city: 'İzmir',
        name_key: toSearchKey(name),
        name_core: toCoreKey(name),
        visible_report_count: 0,
        updated_at: clock.now(),
      });
      assert.ok((await listedWords(db)).includes('camlibel'));
      for (const word of await wordsOfNames(db)) assert.ok((await listedWords(db)).includes(word), word);
    });

    test('a copy from SQLite lists the same words', async () => {
      const source = await sqlite.create();
      const target = await engine.create();
      try {
        await makeClaimants(source.engine.db, clock);
        await importNames(source, [['Akdeniz Demir Çelik A.Ş.'], ['Boğaziçi Turizm']]);
        const result = await runCli(['copy', '--from', source.url, '--to', target.url, '--json']);
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(await listedWords(target.engine.db), await wordsOfNames(source.engine.db));
      } finally {
        await source.drop();
        await target.drop();
      }
    });

    if (engine.name === 'postgres') {
      test('concurrent filings of companies with the same new words all commit, every word listed', async () => {
        const db = database.engine.db;
        const names = Array.from({ length: 12 }, (_, i) => `Yeniçağ Birlik ${['Lojistik', 'Gıda', 'Tekstil'][i % 3]} ${i}`);
        await Promise.all(
          names.map((name, i) =>
            db.transaction().execute((trx) =>
              findOrCreateCompany(trx, {
                company_name: name,
                tax_id: String(5_000_000_000 + i),
                tax_id_norm: String(5_000_000_000 + i),
                country: 'TR',
                city: 'Bursa',
                name_key: toSearchKey(name),
                name_core: toCoreKey(name),
                visible_report_count: 0,
                updated_at: clock.now(),
              }),
            ),
          ),
        );
        const listed = await listedWords(db);
        for (const word of ['yenicag', 'birlik', 'lojistik', 'gida', 'tekstil']) assert.ok(listed.includes(word), word);
      });
    }
  });
}
