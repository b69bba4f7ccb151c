/**
 * Name search by words (migration 0012, issue 28): a query word is looked up among the names'
 * distinct words, the companies come from the word index. D8 still holds exactly: a word is a
 * substring of the name's key, also when it is part of a legal-form word, also after a rename,
 * also for imports into a database that already holds companies. Over HTTP, on every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import type { NameSearchBody } from './helpers/bodies.ts';
import { makeCompanies, makeKeyHolder, makeReport } from './helpers/factories.ts';
import { findCompaniesByName, nameSearchQuery, type NameSearch } from '../src/companies/companies.repository.ts';
import { MAX_NAME_WORDS_PER_QUERY_WORD } from '../src/db/dialect-seam.ts';
import { toCoreKey, toSearchKey } from '../src/companies/name-key.ts';

for (const engine of ENGINES) {
  describe(`name search by words [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let key: string;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database, { searchCacheEntries: 0 });
      key = await makeKeyHolder(database.engine.db, t.clock, { ref: 'M-1', dailyLimit: 10_000 });
      // Into the empty database: the write session builds the word index once, at its end.
      await makeCompanies(database.engine, t.clock, [
        { company_name: 'BURAYMERTAŞ LOJİSTİK LTD. ŞTİ.', reports: [makeReport()] },
        { company_name: 'Zeta Limited Şirketi', reports: [makeReport()] },
        { company_name: 'Buray Gıda A.Ş.', reports: [makeReport(), makeReport()] },
      ]);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    async function names(q: string): Promise<string[]> {
      const res = await search(t.app, key, `q=${encodeURIComponent(q)}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json<NameSearchBody>().results.map((r) => r.company_name);
    }

    test('a distinctive word finds its company, whole or in part; a word no name holds finds none', async () => {
      assert.deepEqual(await names('buraymertas'), ['BURAYMERTAŞ LOJİSTİK LTD. ŞTİ.']);
      assert.deepEqual(await names('BURAYMERTAŞ Lojistik Anonim Şirketi'), ['BURAYMERTAŞ LOJİSTİK LTD. ŞTİ.']);
      // `buray` is a word of one name and part of another: both, more reports first (D8).
      assert.deepEqual(await names('buray'), ['Buray Gıda A.Ş.', 'BURAYMERTAŞ LOJİSTİK LTD. ŞTİ.']);
      assert.deepEqual(await names('aymert'), ['BURAYMERTAŞ LOJİSTİK LTD. ŞTİ.']);
      assert.deepEqual(await names('buraymertas gida'), []);
      assert.deepEqual(await names('qqqzzz'), []);
    });

    test('a word that is part of a legal-form word counts, as D8 says (the key holds it)', async () => {
      // `imite` is only in `limited`, which name_core (and so the word index) leaves out.
      assert.deepEqual(await names('imite'), ['Zeta Limited Şirketi']);
      assert.deepEqual(await names('imite zeta'), ['Zeta Limited Şirketi']);
      assert.deepEqual(await names('zeta sirke'), ['Zeta Limited Şirketi']);
    });

    test('an import into a database that holds companies adds to the word index', async () => {
      await makeCompanies(database.engine, t.clock, [{ company_name: 'HATARİGÜNŞEN GIDA SAN. VE TİC. A.Ş.', reports: [makeReport()] }]);
      assert.deepEqual(await names('hatarigunsen'), ['HATARİGÜNŞEN GIDA SAN. VE TİC. A.Ş.']);
      assert.deepEqual(await names('GÜNŞEN gıda'), ['HATARİGÜNŞEN GIDA SAN. VE TİC. A.Ş.']);
    });

    test('a renamed company is found by its new words and no longer by its old ones', async () => {
      const name = 'Yenimertaş Lojistik Ltd. Şti.';
      await database.engine.db
        .updateTable('companies')
        .set({ company_name: name, name_key: toSearchKey(name), name_core: toCoreKey(name) })
        .where('company_name', '=', 'BURAYMERTAŞ LOJİSTİK LTD. ŞTİ.')
        .execute();
      assert.deepEqual(await names('yenimertas'), [name]);
      assert.deepEqual(await names('buraymertas'), []);
      assert.deepEqual(await names('mertas lojistik'), [name]);
    });

    test('a piece that more names words hold than the word index takes gives the exact answer', async () => {
      const many = Array.from({ length: MAX_NAME_WORDS_PER_QUERY_WORD + 5 }, (_, i) => ({
        company_name: `Kor${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x Metal A.Ş.`,
        reports: i % 3 === 0 ? [] : [makeReport()],
      }));
      await makeCompanies(database.engine, t.clock, many);
      const { db, seam } = database.engine;
      for (const words of [['korax'], ['kor'], ['kor', 'metal']]) {
        const query: NameSearch = { indexedWords: words, otherWords: [], core: words.join(' '), country: null, limit: 11 };
        const exact = (await nameSearchQuery(db, seam, query).execute()).map((r) => Number(r.id));
        assert.deepEqual(
          (await findCompaniesByName(db, seam, query)).map((r) => Number(r.id)),
          exact,
          words.join(' '),
        );
      }
      assert.equal((await names('kor metal')).length, 10);
    });
  });
}
