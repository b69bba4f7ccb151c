/**
 * The member self-service rules (D28) below the pages, on every engine: the agreement, the
 * member's key, usage per day and the portal search with its allowance and audit.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { countries, makeCompanies, makeMember, makeReport } from './helpers/factories.ts';
import type { Database, UserRole } from '../src/db/schema.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { DomainError } from '../src/lib/errors.ts';
import { createAgreement } from '../src/agreement/agreement.service.ts';
import { AGREEMENT_VERSION } from '../src/agreement/agreement-text.ts';
import { createMemberKeys } from '../src/keys/member-key.service.ts';
import { cliActor, type Actor } from '../src/actors/actor.ts';
import { createMemberUsage } from '../src/quota/member-usage.service.ts';
import { consumeUsage } from '../src/quota/usage.repository.ts';
import { markKeyUsed } from '../src/keys/keys.repository.ts';
import { createAuditWriter } from '../src/audit/audit-writer.ts';
import { createCompanySearch } from '../src/search/company-search.ts';
import { quotaOn } from '../src/quota/allowance.ts';
import { createMemberUsers } from '../src/members/member-users.service.ts';
import { createPortalSearch, type PortalSearchRequest } from '../src/search/portal-search.service.ts';

async function insertUser(db: Kysely<Database>, memberId: number | null, role: UserRole, email: string, status: 'active' | 'disabled' = 'active') {
  const row = await db
    .insertInto('users')
    .values({
      email,
      email_norm: email.toLowerCase(),
      name: email.split('@')[0]!,
      role,
      member_id: memberId,
      status,
      password_hash: null,
      totp_secret: null,
      totp_last_step: null,
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function memberId(db: Kysely<Database>, ref: string) {
  return Number((await db.selectFrom('members').select('id').where('ref', '=', ref).executeTakeFirstOrThrow()).id);
}

const rejectsWith = (kind: DomainError['kind']) => (error: unknown) => error instanceof DomainError && error.kind === kind;

for (const engine of ENGINES) {
  describe(`member services [${engine.name}]`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    const clock = fixedClock(NOON_TR);
    const ids: Record<string, number> = {};

    before(async () => {
      database = await engine.create();
      db = database.engine.db;
      await makeMember(db, clock, { ref: 'M-A', agreementSigned: false });
      await makeMember(db, clock, { ref: 'M-B', agreementSigned: false });
      ids.a = await memberId(db, 'M-A');
      ids.b = await memberId(db, 'M-B');
      ids.adminA = await insertUser(db, ids.a, 'member_admin', 'ayse@a.example');
      ids.userA = await insertUser(db, ids.a, 'member_user', 'mehmet@a.example');
      ids.disabledA = await insertUser(db, ids.a, 'member_admin', 'old@a.example', 'disabled');
      ids.adminB = await insertUser(db, ids.b, 'member_admin', 'bora@b.example');
    });
    after(async () => database?.drop());

    /** A user of `memberId` as the portal's session makes it (the use case checks the stored user again). */
    const userOf = (userId: number, memberId: number, role: 'member_admin' | 'member_user' = 'member_admin'): Actor => ({
      kind: 'member_user',
      userId,
      memberId,
      role,
    });

    test('agreement: only an active member_admin of the member signs; one transaction sets the D17 flag; signing again changes nothing', async () => {
      const agreement = createAgreement({ db, clock });
      assert.deepEqual(await agreement.read(userOf(ids.userA!, ids.a!, 'member_user')), {
        currentVersion: AGREEMENT_VERSION,
        signedOn: null,
        lastSignature: null,
        signedCurrent: false,
      });
      await assert.rejects(agreement.sign(userOf(ids.userA!, ids.a!, 'member_user')), rejectsWith('invalid'));
      await assert.rejects(agreement.sign(userOf(ids.userA!, ids.a!)), rejectsWith('invalid'), 'the stored role decides, not the one the actor claims');
      await assert.rejects(agreement.sign(userOf(ids.adminB!, ids.a!)), rejectsWith('invalid'));
      await assert.rejects(agreement.sign(userOf(ids.disabledA!, ids.a!)), rejectsWith('invalid'));
      await assert.rejects(agreement.sign({ kind: 'operator', userId: ids.adminA! }), rejectsWith('forbidden'));
      await assert.rejects(agreement.read(cliActor('ops')), rejectsWith('forbidden'));
      assert.equal((await agreement.read(userOf(ids.adminA!, ids.a!))).signedOn, null);

      const state = await agreement.sign(userOf(ids.adminA!, ids.a!));
      assert.equal(state.signedOn, '2026-11-21');
      assert.equal(state.signedCurrent, true);
      assert.deepEqual(state.lastSignature, { version: AGREEMENT_VERSION, signedAt: NOON_TR, signer: 'ayse' });
      clock.advance(60_000);
      await agreement.sign(userOf(ids.adminA!, ids.a!));
      const rows = await db.selectFrom('agreement_signatures').selectAll().where('member_id', '=', ids.a!).execute();
      assert.equal(rows.length, 1);
      assert.equal(Number(rows[0]!.user_id), ids.adminA);
      assert.equal((await agreement.read(userOf(ids.adminB!, ids.b!))).signedOn, null, "the other member's flag is untouched");
    });

    /** The member's admin, as the portal's API page acts (the key's use cases read only the member and the role). */
    const adminOf = (memberId: number): Actor => ({
      kind: 'member_user',
      userId: memberId === ids.a ? ids.adminA! : ids.adminB!,
      memberId,
      role: 'member_admin',
    });
    const memberKeys = () => createMemberKeys({ db, clock, defaultDailyLimit: 100 });

    test("key: none, generated with the member's limit or the default, used, regenerated (old revoked at once), revoked", async () => {
      assert.deepEqual(await memberKeys().read(adminOf(ids.a!)), { key: null, nextDailyLimit: 100 });
      const first = await memberKeys().generate(adminOf(ids.a!));
      assert.equal(first.daily_limit, 100);
      let view = await memberKeys().read(adminOf(ids.a!));
      assert.deepEqual(view.key, { prefix: first.prefix, createdAt: clock.now(), dailyLimit: 100, usedToday: 0, lastUsedDay: null });

      const keyRow = await db.selectFrom('api_keys').select('id').where('prefix', '=', first.prefix).executeTakeFirstOrThrow();
      await consumeUsage(db, `member:${ids.a}`, '2026-11-19', 100);
      await consumeUsage(db, `member:${ids.a}`, '2026-11-21', 100);
      await consumeUsage(db, `member:${ids.a}`, '2026-11-21', 100);
      await markKeyUsed(db, Number(keyRow.id), '2026-11-21');
      await markKeyUsed(db, Number(keyRow.id), '2026-11-19');
      view = await memberKeys().read(adminOf(ids.a!));
      assert.equal(view.key?.usedToday, 2);
      assert.equal(view.key?.lastUsedDay, '2026-11-21');

      await db.updateTable('members').set({ key_daily_limit: 250 }).where('id', '=', ids.a!).execute();
      const second = await memberKeys().generate(adminOf(ids.a!));
      assert.equal(second.revoked, 1);
      assert.equal(second.daily_limit, 250);
      const active = await db.selectFrom('api_keys').select('prefix').where('member_id', '=', ids.a!).where('revoked_at', 'is', null).execute();
      assert.deepEqual(
        active.map((r) => r.prefix),
        [second.prefix],
      );
      const regenerated = (await memberKeys().read(adminOf(ids.a!))).key;
      assert.equal(regenerated?.usedToday, 2, "the new key continues the member's day (D18 amended)");
      assert.equal(regenerated?.lastUsedDay, null, 'the new key itself has not been used');

      await memberKeys().revoke(adminOf(ids.a!));
      assert.equal((await memberKeys().read(adminOf(ids.a!))).key, null);
      await assert.rejects(memberKeys().revoke(adminOf(ids.a!)), rejectsWith('not_found'));
      assert.equal((await memberKeys().read(adminOf(ids.b!))).key, null, 'nothing happened to the other member');
    });

    test("usage: 30 quota days, API (the member's, all its keys) and portal (its users) apart, nothing of another member", async () => {
      await consumeUsage(db, `member:${ids.a}`, '2026-11-21', 100);
      await consumeUsage(db, `user:${ids.userA}`, '2026-11-21', 100);
      await consumeUsage(db, `user:${ids.adminA}`, '2026-11-20', 100);
      await consumeUsage(db, `user:${ids.adminB}`, '2026-11-21', 100);
      await consumeUsage(db, `member:${ids.a}`, '2026-10-01', 100);
      await consumeUsage(db, `portal:member:${ids.a}`, '2026-11-21', 100);
      const memberUsage = createMemberUsage({ db, clock });
      const usage = await memberUsage.lastDays(userOf(ids.userA!, ids.a!, 'member_user'));
      assert.equal(usage.length, 30);
      assert.deepEqual(usage.at(-1), { day: '2026-11-21', api: 3, portal: 1 });
      assert.deepEqual(usage.at(-2), { day: '2026-11-20', api: 0, portal: 1 });
      assert.deepEqual(usage.at(-3), { day: '2026-11-19', api: 1, portal: 0 });
      assert.equal(
        usage.reduce((n, d) => n + d.api + d.portal, 0),
        6,
        'the day before the window is left out',
      );
      const other = await memberUsage.lastDays(userOf(ids.adminB!, ids.b!));
      assert.deepEqual(other.at(-1), { day: '2026-11-21', api: 0, portal: 1 });
      await assert.rejects(memberUsage.lastDays(cliActor('ops')), rejectsWith('forbidden'), "the 30 days are a member user's own page");
      assert.deepEqual(await memberUsage.apiByDay(cliActor('ops'), { ref: 'M-A' }), {
        member: 'M-A',
        days: [
          { day: '2026-11-21', used: 3 },
          { day: '2026-11-19', used: 1 },
          { day: '2026-10-01', used: 1 },
        ],
      });
      await assert.rejects(memberUsage.apiByDay(userOf(ids.adminA!, ids.a!), { ref: 'M-A' }), rejectsWith('forbidden'));
      await assert.rejects(memberUsage.apiByDay(cliActor('ops'), { ref: 'M-NONE' }), rejectsWith('not_found'));
    });

    test("portal search: the API's answer, charged to the user's own allowance, audited with channel portal; D17's rule and 400s apart", async () => {
      await makeCompanies(database.engine, clock, [{ company_name: 'Portaltest Lojistik A.Ş.', reports: [makeReport()] }]);
      const audit = createAuditWriter(db, (error) => {
        throw error;
      });
      const search = createCompanySearch({ db, seam: database.engine.seam, maxResults: 10, cacheEntries: 0 });
      const portalSearch = createPortalSearch({
        db,
        searchUseCase: { countries, search, quota: quotaOn(db), clock },
        audit,
        clock,
        countryCodes: () => countries.list().map((c) => c.code),
        dailyLimit: 3,
        memberDailyLimit: 300,
        auditQueryChars: 200,
      });
      const member: PortalSearchRequest['member'] = { memberStatus: 'active', memberTier: 'full', agreementSignedOn: '2026-11-21' };
      const userA: Actor = { kind: 'member_user', userId: ids.userA!, memberId: ids.a!, role: 'member_user' };
      const searchAs = (actor: Actor, form: Record<string, string>, changes: Partial<PortalSearchRequest['member']> = {}) =>
        portalSearch.search(actor, { member: { ...member, ...changes }, clientAddress: '127.0.0.9', form });
      const day = '2026-11-21';
      const usedBefore = Number(
        (await db.selectFrom('usage_counters').select('used').where('subject', '=', `user:${ids.userA}`).where('day', '=', day).executeTakeFirst())?.used ?? 0,
      );

      const answered = await searchAs(userA, { q: '  Portaltest  ' });
      assert.equal(answered.kind, 'answered');
      assert.ok(answered.kind === 'answered');
      assert.equal(answered.response.result_count, 1);
      assert.equal(answered.response.results[0]!.company_name, 'Portaltest Lojistik A.Ş.');
      assert.deepEqual(answered.response.near_matches, []);
      assert.equal(answered.allowance.used, usedBefore + 1);

      const tooShort = await searchAs(userA, { q: 'ab' });
      assert.deepEqual([tooShort.kind, tooShort.kind === 'refused' && tooShort.reason], ['refused', 'invalid_parameter']);
      const badTaxId = await searchAs(userA, { q: '12345', type: 'tax_id', country: 'TR' });
      assert.deepEqual([badTaxId.kind, badTaxId.kind === 'refused' && badTaxId.reason], ['refused', 'invalid_tax_id']);
      const unsigned = await searchAs(userA, { q: 'Portaltest' }, { agreementSignedOn: null });
      assert.deepEqual([unsigned.kind, unsigned.kind === 'refused' && unsigned.reason], ['refused', 'agreement_unsigned']);
      const suspended = await searchAs(userA, { q: 'Portaltest' }, { memberStatus: 'suspended' });
      assert.equal(suspended.kind === 'refused' && suspended.status, 403);

      // Only answers count: the limit of 3 leaves exactly the remaining searches.
      for (let i = usedBefore + 1; i < 3; i++) assert.equal((await searchAs(userA, { q: 'Portaltest' })).kind, 'answered');
      const refused = await searchAs(userA, { q: 'Portaltest' });
      assert.ok(refused.kind === 'refused');
      assert.equal(refused.status, 429);
      assert.match(refused.message, /daily allowance of portal searches of 3 requests is used up/);
      assert.equal(refused.allowance.used, 3);
      assert.equal(
        (await searchAs({ ...userA, userId: ids.adminA!, role: 'member_admin' }, { q: 'Portaltest' })).kind,
        'answered',
        "another user's allowance is their own",
      );

      await audit.flush();
      const records = await db.selectFrom('audit_log').selectAll().where('channel', '=', 'portal').orderBy('id').execute();
      assert.equal(records.length, 3 - usedBefore + 6);
      assert.deepEqual(records.map((r) => [Number(r.user_id), Number(r.member_id), r.key_id, r.status, r.client_address]).slice(0, 5), [
        [ids.userA, ids.a, null, 200, '127.0.0.9'],
        [ids.userA, ids.a, null, 400, '127.0.0.9'],
        [ids.userA, ids.a, null, 400, '127.0.0.9'],
        [ids.userA, ids.a, null, 403, '127.0.0.9'],
        [ids.userA, ids.a, null, 403, '127.0.0.9'],
      ]);
      assert.equal(records[0]!.q, 'Portaltest');
      assert.equal(records[0]!.result_count, 1);
      assert.equal(records.at(-2)!.status, 429);
    });

    test("member users: an admin lists and disables only its own member's users (another member's id is not found), never itself; sessions end", async () => {
      const memberUsers = createMemberUsers({ db, clock, maxUsers: 10 });
      const adminA: Actor = { kind: 'member_user', userId: ids.adminA!, memberId: ids.a!, role: 'member_admin' };
      assert.deepEqual(
        (await memberUsers.list(adminA)).map((u) => u.email),
        ['ayse@a.example', 'mehmet@a.example', 'old@a.example'],
      );
      await assert.rejects(memberUsers.list({ kind: 'member_user', userId: ids.userA!, memberId: ids.a!, role: 'member_user' }), rejectsWith('forbidden'));
      await db
        .insertInto('sessions')
        .values({ digest: 'd-1', user_id: ids.userA!, csrf_token: 'c', locale: null, created_at: 0, last_seen_at: 0, expires_at: 9e12, ended_at: null })
        .execute();
      await assert.rejects(memberUsers.disable(adminA, { userId: ids.adminB! }), rejectsWith('not_found'));
      assert.equal((await db.selectFrom('users').select('status').where('id', '=', ids.adminB!).executeTakeFirstOrThrow()).status, 'active');
      await assert.rejects(memberUsers.disable(adminA, { userId: ids.adminA! }), rejectsWith('conflict'));
      const disabled = await memberUsers.disable(adminA, { userId: ids.userA! });
      assert.equal(disabled.status, 'disabled');
      const session = await db.selectFrom('sessions').select('ended_at').where('digest', '=', 'd-1').executeTakeFirstOrThrow();
      assert.equal(Number(session.ended_at), clock.now());
    });
  });
}
