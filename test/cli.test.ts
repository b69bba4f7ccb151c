/** The `risklookup` program (D23), run as an operator would, on every engine (serving: test/cli-serve.test.ts). */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { runCli } from './helpers/cli.ts';
import { companyLine, makeReport } from './helpers/factories.ts';
import { readJson } from './helpers/bodies.ts';

/** A member as `member add|set --json` prints it. */
interface CliMember {
  ref: string;
  tier: string;
  agreement_signed_on: string | null;
}

const dir = mkdtempSync(join(tmpdir(), 'risklookup-cli-'));

for (const engine of ENGINES) {
  describe(`risklookup CLI [${engine.name}]`, () => {
    let database: TestDatabase;
    let cli: (...args: string[]) => ReturnType<typeof runCli>;

    before(async () => {
      database = await engine.create();
      cli = (...args) => runCli([...args, '--db', database.url]);
    });
    after(async () => {
      await database?.drop();
    });

    test('member add, set, list; key issue with --json; usage', async () => {
      const added = await cli('member', 'add', 'M-7', '--name', 'Yedi Lojistik A.Ş.', '--agreement-signed', '--json');
      assert.equal(added.code, 0, added.stderr);
      assert.deepEqual(JSON.parse(added.stdout), {
        ref: 'M-7',
        name: 'Yedi Lojistik A.Ş.',
        tier: 'full',
        status: 'active',
        agreement_signed_on: readJson<CliMember>(added.stdout).agreement_signed_on,
        daily_limit: null,
        portal_daily_limit: null,
      });
      assert.match(readJson<CliMember>(added.stdout).agreement_signed_on!, /^\d{4}-\d{2}-\d{2}$/);

      const duplicate = await cli('member', 'add', 'M-7', '--name', 'Again');
      assert.equal(duplicate.code, 1);
      assert.match(duplicate.stderr, /already exists/);

      const set = await cli('member', 'set', 'M-7', '--tier', 'associate', '--agreement-unsigned', '--json');
      assert.equal(set.code, 0, set.stderr);
      assert.deepEqual([readJson<CliMember>(set.stdout).tier, readJson<CliMember>(set.stdout).agreement_signed_on], ['associate', null]);

      const list = await cli('member', 'list', '--json');
      assert.deepEqual(
        readJson<{ members: CliMember[] }>(list.stdout).members.map((m) => m.ref),
        ['M-7'],
      );

      const issued = await cli('key', 'issue', 'M-7', '--daily-limit', '250', '--json');
      assert.equal(issued.code, 0, issued.stderr);
      const key = readJson<{ member: string; key: string; prefix: string; daily_limit: number }>(issued.stdout);
      assert.deepEqual(Object.keys(key), ['member', 'key', 'prefix', 'daily_limit']);
      assert.match(key.key, /^[A-Za-z0-9]{64}$/);
      assert.equal(key.prefix, key.key.slice(0, 8));
      assert.equal(key.daily_limit, 250);

      const plain = await cli('key', 'issue', 'M-7');
      assert.match(plain.stdout.trim(), /^[A-Za-z0-9]{64}$/);
      assert.match(plain.stderr, /previous key is revoked/);
      // Without --daily-limit the member keeps its limit (D18 amended: the limit is the member's).
      assert.match(plain.stderr, /\(250 queries\/day\)/);

      // Both of the member's limits from `member set`, shown by `member list`.
      const limits = await cli('member', 'set', 'M-7', '--daily-limit', '400', '--portal-daily-limit', '150', '--json');
      assert.equal(limits.code, 0, limits.stderr);
      const changed = readJson<{ daily_limit: number | null; portal_daily_limit: number | null }>(limits.stdout);
      assert.deepEqual([changed.daily_limit, changed.portal_daily_limit], [400, 150]);
      assert.match((await cli('member', 'list')).stdout, /daily_limit=400 {2}portal_daily_limit=150/);
      const badLimit = await cli('member', 'set', 'M-7', '--portal-daily-limit', '0');
      assert.equal(badLimit.code, 2);
      assert.match(badLimit.stderr, /--portal-daily-limit must be a whole number from 1 to 1000000/);

      const revoke = await cli('key', 'revoke', 'M-7', '--json');
      assert.deepEqual(JSON.parse(revoke.stdout), { member: 'M-7', revoked: 1 });
      const again = await cli('key', 'revoke', 'M-7');
      assert.equal(again.code, 1);
      assert.match(again.stderr, /no active key/);

      const usage = await cli('usage', 'M-7', '--json');
      assert.deepEqual(JSON.parse(usage.stdout), { member: 'M-7', days: [] });
    });

    test('import and report status; failures exit 1 with the reason on stderr', async () => {
      await cli('member', 'add', 'M-8', '--name', 'Sekiz A.Ş.');
      const good = join(dir, `good-${engine.name}.jsonl`);
      writeFileSync(good, `${companyLine({ company_name: 'Clitest A.Ş.', reports: [makeReport({ ref: 'CLI-1', status: 'pending' })] })}\n`);
      const imported = await cli('import', good, '--json');
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(readJson<{ reportsAdded: number }>(imported.stdout).reportsAdded, 1);

      const bad = join(dir, `bad-${engine.name}.jsonl`);
      writeFileSync(bad, `${companyLine({ company_name: 'Fine A.Ş.' })}\n{broken\n`);
      const failed = await cli('import', bad);
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, /^line 2: not valid JSON/m);
      assert.match(failed.stderr, /nothing was written/);

      const step = await cli('report', 'status', 'CLI-1', 'approved', '--json');
      assert.equal(step.code, 0, step.stderr);
      assert.deepEqual([readJson<{ from: string }>(step.stdout).from, readJson<{ to: string }>(step.stdout).to], ['pending', 'approved']);
      const illegal = await cli('report', 'status', 'CLI-1', 'pending');
      assert.equal(illegal.code, 1);
      assert.match(illegal.stderr, /can become withdrawn or deactivated, not pending/);

      // A file of 1 MB or more is checked on a worker thread, which the built program loads by
      // file name (dist/bundle/line-checker.worker.js): the same answer from there.
      const large = join(dir, `large-${engine.name}.jsonl`);
      writeFileSync(large, `${companyLine({ company_name: 'Large A.Ş.' })}\n${'{broken\n'.repeat(150_000)}`);
      const failedLarge = await cli('import', large);
      assert.equal(failedLarge.code, 1, failedLarge.stderr);
      assert.match(failedLarge.stderr, /^line 2: not valid JSON/m);
      assert.match(failedLarge.stderr, /nothing was written/);

      const missing = await cli('import', join(dir, 'nope.jsonl'));
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no such file/);

      // The import's heap growth (a PostgreSQL import's old space; RISKLOOKUP_HEAP_GROWTH_PERCENT as for serve): a bad value refused before anything is read.
      const badSetting = await runCli(['import', good, '--db', database.url], { RISKLOOKUP_HEAP_GROWTH_PERCENT: 'lots' });
      assert.equal(badSetting.code, 1, badSetting.stderr);
      assert.match(badSetting.stderr, /RISKLOOKUP_HEAP_GROWTH_PERCENT\) must be a whole number from 0 to 1000, got 'lots'\nnothing was imported/);
      const another = join(dir, `another-${engine.name}.jsonl`);
      writeFileSync(another, `${companyLine({ company_name: 'Başka Clitest A.Ş.' })}\n`);
      const ownFactor = await runCli(['import', another, '--db', database.url, '--json'], { RISKLOOKUP_HEAP_GROWTH_PERCENT: '0' });
      assert.equal(ownFactor.code, 0, ownFactor.stderr);
      assert.equal(readJson<{ companiesAdded: number }>(ownFactor.stdout).companiesAdded, 1);
      // Into a database that holds it: its statements queue behind its COPYs on PostgreSQL (db/bulk-writer.ts), without pg's notice on stderr.
      const again = await cli('import', another, '--json');
      assert.equal(again.code, 0, again.stderr);
      assert.equal(readJson<{ reportsUpdated: number }>(again.stdout).reportsUpdated, 1);
      assert.doesNotMatch(again.stderr + imported.stderr + ownFactor.stderr, /Warning/);
    });

    test('usage errors exit 2', async () => {
      assert.equal((await cli('member', 'add', 'M-9')).code, 2, 'missing --name');
      assert.equal((await cli('member', 'set', 'M-9', '--status', 'sleeping')).code, 2);
      assert.equal((await cli('frobnicate')).code, 2);
      assert.equal((await runCli(['--help'])).code, 0);
    });

    test('generate writes the companies and adds the members they name once; a second run adds none', async () => {
      const out = join(dir, `generated-${engine.name}.jsonl`);
      const first = await cli('generate', '--companies', '3', '--members', '2', '--out', out, '--json');
      assert.equal(first.code, 0, first.stderr);
      assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 3);
      const generated = async () =>
        readJson<{ members: CliMember[] }>((await cli('member', 'list', '--json')).stdout)
          .members.filter((m) => m.ref.startsWith('GM-'))
          .map((m) => [m.ref, m.tier, m.agreement_signed_on === null ? 'unsigned' : 'signed']);
      const expected = [
        ['GM-00001', 'full', 'signed'],
        ['GM-00002', 'full', 'signed'],
      ];
      assert.deepEqual(await generated(), expected);
      const again = await cli('generate', '--companies', '1', '--members', '2', '--out', out);
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(await generated(), expected);
    });
  });
}
