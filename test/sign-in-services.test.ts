/**
 * The sessions and sign-in use cases (D27; issue 29: their rules owned by src/sessions/, the
 * portal only keeping cookies and pages), driven through the factories the composition root
 * registers, not through the routes: a session idle or too old is refused and stays ended, a new
 * session ends the browser's old one, a sign-in and a known browser, one-time links, and an
 * operator's step-up with its operator-log entry. On every engine.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { makePortalUser, type PortalUser } from './helpers/portal.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';
import type { Database } from '../src/db/schema.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { DomainError } from '../src/lib/errors.ts';
import type { Actor } from '../src/actors/actor.ts';
import { requireStepUp } from '../src/operator/step-up.ts';
import { createSignIn } from '../src/sessions/auth.service.ts';
import { createSessions, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../src/sessions/sessions.service.ts';
import { totpCodeAt } from '../src/users/totp.ts';
import { inviteUser } from '../src/users/users.service.ts';

const forbidden = (error: unknown) => error instanceof DomainError && error.kind === 'forbidden';

for (const engine of ENGINES) {
  describe(`sessions and sign-in services [${engine.name}]`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    const clock = fixedClock(NOON_TR);
    let sessions: ReturnType<typeof createSessions>;
    let signIn: ReturnType<typeof createSignIn>;
    let member: PortalUser;
    let op: PortalUser;

    before(async () => {
      database = await engine.create();
      db = database.engine.db;
      sessions = createSessions({ db, clock });
      signIn = createSignIn({ db, clock, keyRing: TEST_KEY_RING });
      await makeMember(db, clock, { ref: 'S-1' });
      member = await makePortalUser(db, clock, { role: 'member_user', memberRef: 'S-1', email: 'ayse@s-1.test' });
      op = await makePortalUser(db, clock, { role: 'operator', email: 'op@console.test' });
    });
    after(async () => database?.drop());

    test('a live session resolves to its user; one idle for more than 30 minutes is refused and stays ended', async () => {
      const session = await sessions.start({ userId: member.id, locale: null, replacing: null });
      const live = await sessions.resolve(session.id);
      assert.equal(live.kind, 'live');
      assert.equal(live.kind === 'live' && live.context.user.email, 'ayse@s-1.test');
      assert.equal(live.kind === 'live' && live.context.csrfToken, session.csrfToken);
      const startedAt = clock.now();
      clock.advance(SESSION_IDLE_MS + 1);
      assert.deepEqual(await sessions.resolve(session.id), { kind: 'ended' });
      // Ended in the database, not only judged so: back in time it is still over.
      clock.set(startedAt);
      assert.deepEqual(await sessions.resolve(session.id), { kind: 'ended' });
      assert.deepEqual(await sessions.resolve('not-a-session'), { kind: 'none' });
      assert.deepEqual(await sessions.resolve(undefined), { kind: 'none' });
    });

    test('a session in use ends after 12 hours however busy', async () => {
      const session = await sessions.start({ userId: member.id, locale: null, replacing: null });
      const end = clock.now() + SESSION_ABSOLUTE_MS;
      while (clock.now() + 20 * 60_000 < end) {
        clock.advance(20 * 60_000);
        assert.equal((await sessions.resolve(session.id)).kind, 'live');
      }
      clock.set(end);
      assert.deepEqual(await sessions.resolve(session.id), { kind: 'ended' });
    });

    test("a new session ends the browser's old one; the language is the session's; signing out ends it", async () => {
      const first = await sessions.start({ userId: member.id, locale: 'tr', replacing: null });
      const firstLive = await sessions.resolve(first.id);
      assert.equal(firstLive.kind === 'live' && firstLive.locale, 'tr');
      const second = await sessions.start({ userId: member.id, locale: null, replacing: first.sessionId });
      assert.notEqual(second.id, first.id);
      assert.deepEqual(await sessions.resolve(first.id), { kind: 'ended' });
      await sessions.setLocale(second.sessionId, 'en');
      const secondLive = await sessions.resolve(second.id);
      assert.equal(secondLive.kind === 'live' && secondLive.locale, 'en');
      await sessions.end(second.sessionId);
      assert.deepEqual(await sessions.resolve(second.id), { kind: 'ended' });
    });

    test('a user disabled meanwhile is out at the next request, with every session of theirs', async () => {
      const other = await makePortalUser(db, clock, { role: 'member_user', memberRef: 'S-1', email: 'leaving@s-1.test' });
      const a = await sessions.start({ userId: other.id, locale: null, replacing: null });
      const b = await sessions.start({ userId: other.id, locale: null, replacing: null });
      await db.updateTable('users').set({ status: 'disabled' }).where('id', '=', other.id).execute();
      assert.deepEqual(await sessions.resolve(a.id), { kind: 'ended' });
      const open = await db.selectFrom('sessions').select('id').where('user_id', '=', other.id).where('ended_at', 'is', null).execute();
      assert.deepEqual(open, [], 'both sessions ended');
      assert.deepEqual(await sessions.resolve(b.id), { kind: 'ended' });
    });

    test('signing in: the right password signs in, a wrong one is refused; a trusted browser is known next time', async () => {
      const attempt = { email: member.email, password: member.password, code: '', address: '192.0.2.10', deviceTokens: [] as string[] };
      const first = await signIn.attempt(attempt);
      assert.deepEqual(first, { kind: 'signed_in', userId: member.id, role: 'member_user', knownBrowser: null });
      assert.deepEqual(await signIn.attempt({ ...attempt, password: 'not the password at all' }), { kind: 'refused' });
      assert.deepEqual(await signIn.attempt({ ...attempt, email: 'nobody@s-1.test' }), { kind: 'refused' });
      const token = await signIn.trustBrowser(member.id, null);
      const known = await signIn.attempt({ ...attempt, deviceTokens: [token] });
      assert.equal(known.kind, 'signed_in');
      assert.ok(known.kind === 'signed_in' && known.knownBrowser !== null, 'the browser is known to the account');
    });

    test("one-time links: described, an operator's carries a seed, accepted once", async () => {
      const link = await inviteUser(db, clock, { email: 'new.op@console.test', role: 'operator', createdBy: 'test', keyRing: TEST_KEY_RING });
      assert.deepEqual(await signIn.describeLink(link.token), { purpose: 'invite', email: 'new.op@console.test', name: '', role: 'operator' });
      const seed = await signIn.enrolmentSeedOf(link.token);
      assert.ok(seed);
      const acceptance = { token: link.token, name: 'New Op', password: 'a long enough password' };
      const wrongCode = totpCodeAt(seed, clock.now()) === '000000' ? '111111' : '000000';
      await assert.rejects(signIn.acceptLink({ ...acceptance, totpCode: wrongCode }), /authenticator code/);
      const accepted = await signIn.acceptLink({ ...acceptance, totpCode: totpCodeAt(seed, clock.now()) });
      assert.equal(accepted.role, 'operator');
      assert.equal(await signIn.describeLink(link.token), null, 'used up');
      const memberLink = await inviteUser(db, clock, { email: 'new@s-1.test', role: 'member_user', memberRef: 'S-1', createdBy: 'test' });
      assert.equal(await signIn.enrolmentSeedOf(memberLink.token), null, 'a member user enrols no authenticator');
    });

    const refusals = async () =>
      (
        await db.selectFrom('operator_log').select(['user_id', 'actor', 'target', 'after_json']).where('action', '=', 'step_up.refused').orderBy('id').execute()
      ).map(({ after_json, ...r }) => ({ ...r, user_id: r.user_id === null ? null : Number(r.user_id), after: JSON.parse(after_json!) as unknown }));

    test('step-up: a wrong code is refused and logged; the right password and a new code give a proof for that action and target only', async () => {
      const actor: Actor = { kind: 'operator', userId: op.id };
      const request = { action: 'member.status' as const, target: 'member:S-1', password: op.password, address: '192.0.2.20', deviceTokens: [] };
      clock.advance(30_000);
      const used = totpCodeAt(op.totpSecret!, clock.now());
      assert.equal((await signIn.attempt({ email: op.email, password: op.password, code: used, address: '192.0.2.20', deviceTokens: [] })).kind, 'signed_in');
      const before = (await refusals()).length;
      assert.deepEqual(await signIn.confirmStepUp(actor, { ...request, code: used }), { kind: 'refused' }, 'a code used before');
      const logged = (await refusals()).slice(before);
      assert.deepEqual(logged, [
        {
          user_id: op.id,
          actor: 'op@console.test',
          target: 'member:S-1',
          after: { action: 'member.status', why: 'wrong password or code, or a code used before', address: '192.0.2.20' },
        },
      ]);
      clock.advance(30_000);
      const confirmed = await signIn.confirmStepUp(actor, { ...request, code: totpCodeAt(op.totpSecret!, clock.now()) });
      assert.equal(confirmed.kind, 'confirmed');
      const proof = confirmed.kind === 'confirmed' ? confirmed.proof : undefined;
      const withProof: Actor = { kind: 'operator', userId: op.id, ...(proof ? { stepUp: proof } : {}) };
      assert.doesNotThrow(() => requireStepUp(withProof, 'member.status', 'member:S-1'));
      assert.throws(() => requireStepUp(withProof, 'member.status', 'member:S-2'), forbidden);
      assert.throws(() => requireStepUp(withProof, 'member.key_daily_limit', 'member:S-1'), forbidden);
      assert.equal((await refusals()).length, before + 1, 'a confirmation is not logged as a refusal');
    });

    test('step-up: too many wrong attempts and the next is not checked, its refusal logged as such; only a signed-in operator may ask', async () => {
      const op2 = await makePortalUser(db, clock, { role: 'operator', email: 'op2@console.test' });
      const actor: Actor = { kind: 'operator', userId: op2.id };
      const request = {
        action: 'user.reset' as const,
        target: 'user:ayse@s-1.test',
        password: 'wrong password',
        code: '123456',
        address: '192.0.2.30',
        deviceTokens: [],
      };
      for (let i = 0; i < 5; i++) assert.deepEqual(await signIn.confirmStepUp(actor, request), { kind: 'refused' });
      const slowed = await signIn.confirmStepUp(actor, { ...request, password: op2.password, code: totpCodeAt(op2.totpSecret!, clock.now()) });
      assert.deepEqual(slowed, { kind: 'throttled', waitMs: 15_000 });
      const last = (await refusals()).at(-1);
      assert.deepEqual(last?.after, { action: 'user.reset', why: 'too many wrong attempts lately: not checked', address: '192.0.2.30' });
      const before = (await refusals()).length;
      await assert.rejects(signIn.confirmStepUp({ kind: 'member_user', userId: member.id, memberId: 1, role: 'member_user' }, request), forbidden);
      await assert.rejects(signIn.confirmStepUp({ kind: 'cli', user: 'root' }, request), forbidden);
      assert.equal((await refusals()).length, before, 'nothing logged for an actor who may not ask');
    });
  });
}
