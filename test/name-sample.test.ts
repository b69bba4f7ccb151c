/**
 * The name sample's estimates (search/name-sample.ts) choose a name search's path and which
 * near-match groups are worth scoring (D25): the estimate of how many names hold some words must
 * be exactly the share of sampled names that hold them, however it is computed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { coreOfKey } from '../src/companies/name-key.ts';
import { NameSample } from '../src/search/name-sample.ts';

const WORDS = ['anadolu', 'lojistik', 'yılmaz', 'özdemir', 'oğlu', 'gida', 'ege', 'ab', 'x1', 'kaya', 'kayalar', 'tekstil', 'ltd', 'sti', 'a', 's'];

for (const engine of ENGINES.slice(0, 1)) {
  describe(`the name sample's estimates [${engine.name}]`, () => {
    let database: TestDatabase;
    let sample: NameSample;
    before(async () => {
      database = await engine.create();
      let seed = 28;
      const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) >>> 0) % n;
      const rows = Array.from({ length: 1500 }, (_, i) => {
        const key = Array.from({ length: 1 + next(4) }, () => WORDS[next(WORDS.length)]!).join(' ') + (i % 97 === 0 ? ' zqxvw' : '');
        const id = String(4_000_000_000 + i);
        return {
          company_name: key,
          tax_id: id,
          tax_id_norm: id,
          country: 'TR',
          city: 'X',
          name_key: key,
          name_core: coreOfKey(key),
          visible_report_count: 1,
          updated_at: 0,
        };
      });
      for (let i = 0; i < rows.length; i += 300)
        await database.engine.db
          .insertInto('companies')
          .values(rows.slice(i, i + 300))
          .execute();
      sample = new NameSample();
      await sample.refresh(database.engine.db);
    });
    after(async () => {
      await database?.drop();
    });

    test('estimatedMatches is the share of sampled names holding every word, times the companies', () => {
      const names = (sample as unknown as { names: string[] }).names;
      assert.ok(names.length > 1000, String(names.length));
      const lists = [
        ['anadolu'],
        ['dolu'],
        ['ana', 'lojistik'],
        ['ılm'],
        ['yılmaz', 'ab'],
        ['ab'],
        ['ab', 'x1'],
        ['a'],
        ['oğlu', 'gida', 'ege'],
        ['kaya'],
        ['kayalar', 'kaya'],
        ['zqxvw'],
        ['zqxvwz'],
        ['nothere'],
        ['d lo'],
        ['tekstil ltd'],
      ];
      for (const words of lists) {
        const scanned = (names.filter((name) => words.every((w) => name.includes(w))).length / names.length) * sample.estimatedCompanies();
        assert.equal(sample.estimatedMatches(words), scanned, words.join(','));
      }
    });

    test('a word with a trigram is tested only on the sampled names holding its rarest one', () => {
      const holder = sample as unknown as { names: string[] };
      const names = holder.names;
      let read = 0;
      holder.names = new Proxy(names, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) read++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      try {
        const held = names.filter((name) => name.includes('zqxvw')).length;
        assert.ok(held > 0 && held < 100, String(held));
        assert.equal(
          sample.estimatedMatches(['zqxvw', 'a']),
          (names.filter((n) => n.includes('zqxvw') && n.includes('a')).length / names.length) * sample.estimatedCompanies(),
        );
        assert.ok(read <= held, `${read} names read for ${held} holding the word`);
      } finally {
        holder.names = names;
      }
    });
  });
}
