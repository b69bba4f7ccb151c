/**
 * D30: every operator action goes to the operator log, also when an operator acts from the
 * server's shell: `risklookup member`, `key` and `user` write the same log lines as the console
 * (actor `cli:<name>`, no user), in the transaction of the change, and never a key or a link.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { runCli } from './helpers/cli.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';

for (const engine of ENGINES) {
  describe(`CLI actions in the operator log [${engine.name}]`, () => {
    let database: TestDatabase;
    const cli = async (...args: string[]) => {
      const result = await runCli(['--json', ...args, '--db', database.url], { USER: 'deniz', RISKLOOKUP_PUBLIC_URL: '' });
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    const log = async () => (await listOperatorLog(database.engine.db)).reverse();

    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('member add and set, key issue and revoke, user invite, reset and disable: one line each, before and after', async () => {
      await cli('member', 'add', 'L-1', '--name', 'Log A.Ş.');
      await cli('member', 'set', 'L-1', '--tier', 'associate', '--agreement-signed');
      const issued = await cli('key', 'issue', 'L-1', '--daily-limit', '50');
      await cli('key', 'revoke', 'L-1');
      const invited = await cli('user', 'invite', 'ayse@log.example', '--member', 'L-1', '--role', 'member_user', '--by', 'ops-team');
      const reset = await cli('user', 'reset', 'ayse@log.example');
      await cli('user', 'disable', 'ayse@log.example');

      const tokens = await database.engine.db
        .selectFrom('user_tokens')
        .innerJoin('users', 'users.id', 'user_tokens.user_id')
        .select('user_tokens.created_by')
        .where('users.email_norm', '=', 'ayse@log.example')
        .orderBy('user_tokens.id')
        .execute();
      assert.deepEqual(
        tokens.map((t) => t.created_by),
        ['ops-team', 'deniz'],
      );

      const lines = await log();
      assert.deepEqual(
        lines.map((l) => [l.action, l.target, l.actor, l.userId]),
        [
          ['member.add', 'member:L-1', 'cli:deniz', null],
          ['member.set', 'member:L-1', 'cli:deniz', null],
          ['member.issue_key', 'member:L-1', 'cli:deniz', null],
          ['member.revoke_key', 'member:L-1', 'cli:deniz', null],
          ['user.invite', 'user:ayse@log.example', 'cli:deniz', null],
          ['user.reinvite', 'user:ayse@log.example', 'cli:deniz', null],
          ['user.disable', 'user:ayse@log.example', 'cli:deniz', null],
        ],
      );
      const [added, set, issue, revoke] = lines as [(typeof lines)[0], (typeof lines)[0], (typeof lines)[0], (typeof lines)[0]];
      assert.equal(added.before, null);
      assert.deepEqual(
        [set.before, set.after].map((s) => (s as { tier: string; agreement_signed_on: string | null }).tier),
        ['full', 'associate'],
      );
      assert.notEqual((set.after as { agreement_signed_on: string | null }).agreement_signed_on, null);
      assert.deepEqual((issue.after as { active_key: unknown }).active_key, { prefix: issued.prefix, daily_limit: 50 });
      assert.equal((revoke.after as { active_key: unknown }).active_key, null);
      // The log holds neither the key nor a link's secret.
      const text = JSON.stringify(lines);
      assert.ok(!text.includes(String(issued.key)));
      for (const link of [invited.link, reset.link]) {
        const token = /token=([\w-]{43})/.exec(String(link))?.[1];
        assert.ok(token, String(link));
        assert.ok(!text.includes(token));
      }
    });

    test('the change and its log line are one transaction: when the line cannot be written, nothing is changed', async () => {
      const broken = await engine.create();
      try {
        await sql`DROP TABLE operator_log`.execute(broken.engine.db);
        const refused = await runCli(['member', 'add', 'T-1', '--name', 'Tek A.Ş.', '--db', broken.url]);
        assert.notEqual(refused.code, 0);
        assert.match(refused.stderr, /operator_log/);
        assert.equal((await broken.engine.db.selectFrom('members').select('ref').execute()).length, 0);
      } finally {
        await broken.drop();
      }
    });

    test('a refused command writes no line and changes nothing', async () => {
      const before = (await log()).length;
      const refused = await runCli(['key', 'revoke', 'L-1', '--db', database.url]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /has no active key to revoke/);
      const unknown = await runCli(['member', 'set', 'NOPE-1', '--tier', 'full', '--db', database.url]);
      assert.notEqual(unknown.code, 0);
      assert.equal((await log()).length, before);
    });
  });
}
