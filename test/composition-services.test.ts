/**
 * The use cases issue 29 moved behind the composition root (src/services.ts), driven the way the
 * portal and the CLI now call them, on every engine: the disclosure print (D34), the search page's
 * "Watching" mark (D31), the generated members (`generate`) and the audit purge (D21).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { countries, makeCompanies, makeMember } from './helpers/factories.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { DomainError } from '../src/lib/errors.ts';
import { parseConfig } from '../src/config.ts';
import { createServices } from '../src/services.ts';
import { cliActor, type Actor } from '../src/actors/actor.ts';
import { listOperatorLog } from '../src/operator/operator-log.ts';
import { DAY_MS } from '../src/audit/audit-retention.ts';
import { standingKey } from '../src/search/search.service.ts';

const rejectsWith = (kind: DomainError['kind']) => (error: unknown) => error instanceof DomainError && error.kind === kind;

for (const engine of ENGINES) {
  describe(`composition root's services [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);
    let op: Actor;
    let memberUser: Actor;
    let otherMemberUser: Actor;
    let taxId: string;

    before(async () => {
      database = await engine.create();
      const { db } = database.engine;
      await makeMember(db, clock, { ref: 'CS-1' });
      await makeMember(db, clock, { ref: 'CS-2' });
      op = { kind: 'operator', userId: await makeUser(db, { email: 'op@bureau.test', role: 'operator' }) };
      const userOf = async (ref: string): Promise<Actor> => ({
        kind: 'member_user',
        userId: await makeUser(db, { email: `u@${ref.toLowerCase()}.test`, role: 'member_user', memberRef: ref }),
        memberId: await memberIdOf(db, ref),
        role: 'member_user',
      });
      memberUser = await userOf('CS-1');
      otherMemberUser = await userOf('CS-2');
      taxId = (await makeCompanies(database.engine, clock, [{ company_name: 'Kompozisyon Gıda A.Ş.' }]))[0]!;
    });
    after(async () => {
      await database?.drop();
    });

    const services = () => createServices({ db: database.engine.db, clock, config: parseConfig({}, {}), countries });

    test("D34: the disclosure prints for an operator and logs who printed which company in which form; a member's user may not", async () => {
      const { disclosure } = services();
      const view = await disclosure.print(op, { country: 'tr', taxId: ` ${taxId!} `, form: 'pdf' });
      assert.equal(view.company.taxId, taxId);
      assert.equal(view.reports.length, 1);
      const [entry] = await listOperatorLog(database.engine.db, { limit: 1 });
      assert.deepEqual(
        [entry!.action, entry!.actor, entry!.target, (entry!.after as { form: string }).form],
        ['disclosure.print', 'op@bureau.test', `company:TR/${taxId}`, 'pdf'],
      );
      const cli = await disclosure.print(cliActor('ayse'), { country: 'TR', taxId: taxId!, form: 'page' });
      assert.equal(cli.company.taxId, taxId);
      assert.equal((await listOperatorLog(database.engine.db, { limit: 1 }))[0]!.actor, 'cli:ayse');

      const logged = (await listOperatorLog(database.engine.db)).length;
      await assert.rejects(disclosure.print(memberUser, { country: 'TR', taxId: taxId!, form: 'page' }), rejectsWith('forbidden'));
      await assert.rejects(disclosure.print(op, { country: 'TR', taxId: '1234567890', form: 'page' }), (e: unknown) => (e as Error).name !== 'AssertionError');
      assert.equal((await listOperatorLog(database.engine.db)).length, logged, 'a refused print leaves no entry');
    });

    test("D31: the search page's Watching mark names the member's own watched companies by canonical tax ID; a bad tax ID is no mark", async () => {
      const { watchlist } = services();
      await watchlist.add(memberUser, { country: 'TR', taxId: taxId! });
      const companies = [
        { country: 'TR', taxId: taxId! },
        { country: 'TR', taxId: 'not a tax id' },
        { country: 'XX', taxId: taxId! },
      ];
      assert.deepEqual([...(await watchlist.watchedAmong(memberUser, companies))], [standingKey('TR', taxId!)]);
      // The tax ID as typed with spaces is the same company (D9's canonical form).
      assert.deepEqual([...(await watchlist.watchedAmong(memberUser, [{ country: 'tr', taxId: ` ${taxId!} ` }]))], [standingKey('TR', taxId!)]);
      assert.equal((await watchlist.watchedAmong(otherMemberUser, companies)).size, 0, "another member's watchlist is its own");
      assert.equal((await watchlist.watchedAmong(memberUser, [])).size, 0);
      await assert.rejects(watchlist.watchedAmong(op, companies), rejectsWith('forbidden'));
    });

    test("generate's members: those missing are added, each logged as the CLI's member.add; a second run adds none and changes none", async () => {
      const { memberAdmin } = services();
      const inputs = ['GM-00001', 'GM-00002', 'CS-1'].map((ref) => ({ ref, name: `Generated member ${ref}`, agreementSigned: true }));
      assert.deepEqual(await memberAdmin.addMissingMembers(cliActor('ayse'), inputs), ['GM-00001', 'GM-00002']);
      const members = await memberAdmin.listMembers(cliActor('ayse'));
      assert.deepEqual(
        members.map((m) => [m.ref, m.name, m.agreement_signed_on]),
        [
          ['CS-1', 'Member CS-1', members[0]!.agreement_signed_on],
          ['CS-2', 'Member CS-2', members[1]!.agreement_signed_on],
          ['GM-00001', 'Generated member GM-00001', '2026-11-21'],
          ['GM-00002', 'Generated member GM-00002', '2026-11-21'],
        ],
      );
      const adds = (await listOperatorLog(database.engine.db)).filter((e) => e.action === 'member.add');
      assert.deepEqual(
        adds.map((e) => [e.target, e.actor]),
        [
          ['member:GM-00002', 'cli:ayse'],
          ['member:GM-00001', 'cli:ayse'],
        ],
      );
      assert.deepEqual(await memberAdmin.addMissingMembers(cliActor('ayse'), inputs), []);
      assert.equal((await listOperatorLog(database.engine.db)).filter((e) => e.action === 'member.add').length, 2);
      await assert.rejects(memberAdmin.addMissingMembers(memberUser, [{ ref: 'GM-00009', name: 'x' }]), rejectsWith('forbidden'));
    });

    test('D21: the audit purge deletes the records older than the age asked, for an operator or the CLI only', async () => {
      const { db } = database.engine;
      const record = (at: number) => ({
        at,
        key_id: null,
        member_id: null,
        q: 'Kompozisyon',
        type: 'name' as const,
        country: null,
        status: 200,
        result_count: 1,
        response_ms: 1,
        client_address: 'cli',
        channel: 'cli' as const,
        actor: 'test',
      });
      await db.deleteFrom('audit_log').execute();
      await db
        .insertInto('audit_log')
        .values([record(clock.now() - 400 * DAY_MS), record(clock.now() - 366 * DAY_MS), record(clock.now() - 10 * DAY_MS)])
        .execute();
      const { auditRetention } = services();
      await assert.rejects(auditRetention.purge(memberUser, { olderThanMs: 365 * DAY_MS }), rejectsWith('forbidden'));
      assert.equal(await auditRetention.purge(cliActor('ayse'), { olderThanMs: 365 * DAY_MS }), 2);
      assert.equal(await auditRetention.purge(cliActor('ayse'), { olderThanMs: 365 * DAY_MS }), 0);
      const left = await db.selectFrom('audit_log').select('at').execute();
      assert.deepEqual(
        left.map((r) => Number(r.at)),
        [clock.now() - 10 * DAY_MS],
      );
    });
  });
}
