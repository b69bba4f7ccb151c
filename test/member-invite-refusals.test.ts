/**
 * A member_admin's refused invitations are capped per quota day, on every engine: a refusal
 * ("cannot be invited") tells that an address has an account somewhere, so a member may learn
 * that of at most REFUSED_INVITATIONS_PER_DAY addresses a day. Once they are used up, every
 * address gets the same answer, taken or new, until the next day in Turkey time (D19); parallel
 * invitations cannot get more refusals than that.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import type { Clock } from '../src/lib/clock.ts';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, NOON_TR, type TestApp } from './helpers/app.ts';
import { makePortalUser, signIn } from './helpers/portal.ts';
import { makeMember } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { inviteMemberUser, MemberUsersError, REFUSED_INVITATIONS_PER_DAY, type MemberActor } from '../src/members/member-users.service.ts';
import { inviteUser } from '../src/users/users.service.ts';
import { quotaDayOf } from '../src/lib/turkey-time.ts';

const LIMITS = { maxUsers: 100 };

const inviteAs = (db: Kysely<Database>, clock: Clock, actor: MemberActor, email: string) =>
  inviteMemberUser(db, clock, actor, { email, role: 'member_user' }, LIMITS);

/** The problem code an invitation was refused with, or `invited`. */
async function refusalOf(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
  } catch (error) {
    assert.ok(error instanceof MemberUsersError, String(error));
    return error.problem.code;
  }
  return 'invited';
}

for (const engine of ENGINES) {
  describe(`refused invitations per member and day [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);
    let taken: string[];

    before(async () => {
      database = await engine.create();
      const { db } = database.engine;
      for (const ref of ['R-1', 'R-2', 'R-3', 'R-4', 'R-5', 'R-6']) await makeMember(db, clock, { ref });
      // Addresses with an account in another member: each invitation of one is refused.
      taken = [];
      for (let i = 0; i < 2 * REFUSED_INVITATIONS_PER_DAY; i++) {
        taken.push((await inviteUser(db, clock, { email: `someone${i}@r3.example`, role: 'member_user', memberRef: 'R-3', createdBy: 'test' })).user.email);
      }
    });
    after(async () => {
      await database?.drop();
    });

    async function adminOf(ref: string): Promise<MemberActor> {
      const { db } = database.engine;
      const admin = await inviteUser(db, clock, { email: `admin@${ref.toLowerCase()}.example`, role: 'member_admin', memberRef: ref, createdBy: 'test' });
      const member = await db.selectFrom('members').select('id').where('ref', '=', ref).executeTakeFirstOrThrow();
      return { userId: 0, memberId: Number(member.id), email: admin.user.email };
    }

    const invite = (actor: MemberActor, email: string) => inviteAs(database.engine.db, clock, actor, email);

    const usersOf = async (memberId: number) =>
      (await database.engine.db.selectFrom('users').select('email').where('member_id', '=', memberId).execute()).map((u) => u.email).sort();

    test(`after ${REFUSED_INVITATIONS_PER_DAY} refusals, a new address and a taken one get the same answer, and nothing is made; the next day invitations work again`, async () => {
      const actor = await adminOf('R-1');
      for (const email of taken.slice(0, REFUSED_INVITATIONS_PER_DAY))
        assert.equal(await refusalOf(invite(actor, email)), 'member_users.invite_refused', email);

      const afterCap = [await refusalOf(invite(actor, 'new.colleague@r1.example')), await refusalOf(invite(actor, taken.at(-1)!))];
      assert.deepEqual(afterCap, ['member_users.invite_refusals_used_up', 'member_users.invite_refusals_used_up']);
      assert.deepEqual(await usersOf(actor.memberId), ['admin@r-1.example']);

      // Still the same day at 23:59 in Turkey (20:59 UTC), a new day a minute later.
      clock.set(Date.UTC(2026, 10, 21, 20, 59));
      assert.equal(await refusalOf(invite(actor, 'new.colleague@r1.example')), 'member_users.invite_refusals_used_up');
      clock.set(Date.UTC(2026, 10, 21, 21, 0));
      assert.equal(await refusalOf(invite(actor, 'new.colleague@r1.example')), 'invited');
      assert.equal(await refusalOf(invite(actor, taken[0]!)), 'member_users.invite_refused');
      assert.deepEqual(await usersOf(actor.memberId), ['admin@r-1.example', 'new.colleague@r1.example']);
      clock.set(NOON_TR);
    });

    /** The database, refusing only an invitation refusal's give-back (an UPDATE of the counters). */
    const failingGiveBack = () =>
      database.engine.db.withPlugin({
        transformQuery({ node }) {
          if (node.kind === 'UpdateQueryNode' && JSON.stringify(node).includes('"usage_counters"')) throw new Error('connection lost');
          return node;
        },
        transformResult: ({ result }) => Promise.resolve(result),
      });

    test('when the refusal taken for an invitation cannot be given back, the invitation stands, the refusal stays taken, and the operator is told (member and day, no address)', async () => {
      const actor = await adminOf('R-5');
      const failing = failingGiveBack();
      const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
      const issued = await inviteMemberUser(failing, clock, actor, { email: 'kept@r5.example', role: 'member_user' }, LIMITS, {
        warn: (details, message) => warnings.push({ details, message }),
      });
      assert.equal(issued.email, 'kept@r5.example');
      assert.deepEqual(await usersOf(actor.memberId), ['admin@r-5.example', 'kept@r5.example']);
      const counted = await database.engine.db
        .selectFrom('usage_counters')
        .select('used')
        .where('subject', '=', `invite_refused:member:${actor.memberId}`)
        .execute();
      assert.deepEqual(
        counted.map((c) => Number(c.used)),
        [1],
      );
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!.message, /could not be given back/);
      assert.equal(warnings[0]!.details.memberId, actor.memberId);
      assert.equal(warnings[0]!.details.day, quotaDayOf(clock.now()));
      const err = warnings[0]!.details.err;
      assert.ok(err instanceof Error && /connection lost/.test(err.message), String(err));
      assert.doesNotMatch(JSON.stringify(warnings[0]!.details) + String(err.stack), /kept@r5/);
    });

    test('a logger that throws does not turn a finished invitation into an error', async () => {
      const actor = await adminOf('R-6');
      const failing = failingGiveBack();
      const issued = await inviteMemberUser(failing, clock, actor, { email: 'also@r6.example', role: 'member_user' }, LIMITS, {
        warn: () => {
          throw new Error('log sink is full');
        },
      });
      assert.equal(issued.email, 'also@r6.example');
    });

    test('an address with a control character is not an address: refused as such (no 500), before any refusal is counted', async () => {
      const actor = await adminOf('R-4');
      for (const email of ['a\u0000b@r4.example', 'a@r4.exa\u007fmple', '\u0085a@r4.example']) {
        assert.equal(await refusalOf(invite(actor, email)), 'member_users.email_invalid', JSON.stringify(email));
      }
      const counted = await database.engine.db
        .selectFrom('usage_counters')
        .select('used')
        .where('subject', '=', `invite_refused:member:${actor.memberId}`)
        .execute();
      assert.deepEqual(counted, []);
    });

    test(`${2 * REFUSED_INVITATIONS_PER_DAY} invitations of taken addresses at once: exactly ${REFUSED_INVITATIONS_PER_DAY} say "cannot be invited", the rest that the day's refusals are used up; another member is not affected`, async () => {
      const actor = await adminOf('R-2');
      const answers = await Promise.all(taken.map((email) => refusalOf(invite(actor, email))));
      const count = (code: string) => answers.filter((a) => a === code).length;
      assert.equal(count('member_users.invite_refused'), REFUSED_INVITATIONS_PER_DAY, answers.join(' '));
      assert.equal(count('member_users.invite_refusals_used_up'), REFUSED_INVITATIONS_PER_DAY, answers.join(' '));

      const other = await adminOf('R-3');
      assert.equal(await refusalOf(invite(other, 'colleague@r3.example')), 'invited');
    });
  });

  describe(`refused invitations when new and taken addresses arrive at once [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);

    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test(`20 taken and 10 new addresses at once: at most ${REFUSED_INVITATIONS_PER_DAY} taken ones are looked up, every other answer is a link or "no more invitations", and the count keeps only the refusals`, async () => {
      const { db } = database.engine;
      await makeMember(db, clock, { ref: 'X-1' });
      await makeMember(db, clock, { ref: 'X-2' });
      const taken: string[] = [];
      for (let i = 0; i < 2 * REFUSED_INVITATIONS_PER_DAY; i++) {
        taken.push((await inviteUser(db, clock, { email: `held${i}@x2.example`, role: 'member_user', memberRef: 'X-2', createdBy: 'test' })).user.email);
      }
      const fresh = Array.from({ length: REFUSED_INVITATIONS_PER_DAY }, (_, i) => `fresh${i}@x1.example`);
      const admin = await inviteUser(db, clock, { email: 'admin@x1.example', role: 'member_admin', memberRef: 'X-1', createdBy: 'test' });
      const member = await db.selectFrom('members').select('id').where('ref', '=', 'X-1').executeTakeFirstOrThrow();
      const actor = { userId: 0, memberId: Number(member.id), email: admin.user.email };
      // Each insert of a user takes an id, also one refused as taken (PostgreSQL's sequence does
      // not roll back): the ids taken tell how many addresses were looked up.
      const nextId = async () =>
        engine.name === 'postgres'
          ? Number((await sql<{ n: number }>`SELECT nextval(pg_get_serial_sequence('users', 'id')) AS n`.execute(db)).rows[0]!.n)
          : null;
      const before = await nextId();

      // Interleaved, so that new and taken addresses race for the same refusals.
      const emails = taken.flatMap((t, i) => (i % 2 === 0 && fresh[i / 2] ? [t, fresh[i / 2]!] : [t]));
      const answers = await Promise.all(emails.map(async (email) => ({ email, answer: await refusalOf(inviteAs(db, clock, actor, email)) })));

      const of = (list: string[]) => answers.filter((a) => list.includes(a.email)).map((a) => a.answer);
      for (const answer of of(taken)) assert.ok(['member_users.invite_refused', 'member_users.invite_refusals_used_up'].includes(answer), answer);
      for (const answer of of(fresh)) assert.ok(['invited', 'member_users.invite_refusals_used_up'].includes(answer), answer);
      const refusedCount = of(taken).filter((a) => a === 'member_users.invite_refused').length;
      assert.ok(refusedCount <= REFUSED_INVITATIONS_PER_DAY, `${refusedCount} refusals`);
      const made = of(fresh).filter((a) => a === 'invited').length;
      if (before !== null) {
        const lookedUp = (await nextId())! - before - 1;
        assert.ok(lookedUp - made <= REFUSED_INVITATIONS_PER_DAY, `${lookedUp - made} taken addresses looked up, ${refusedCount} refused`);
      }
      const counted = await db.selectFrom('usage_counters').select('used').where('subject', 'like', 'invite_refused:%').executeTakeFirstOrThrow();
      assert.equal(Number(counted.used), refusedCount);
    });
  });

  describe(`refused invitations on the portal's users page [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('once used up, a new address is refused like a taken one, in the page’s language (409, no user made)', async () => {
      const { db } = database.engine;
      await makeMember(db, t.clock, { ref: 'W-1' });
      await makeMember(db, t.clock, { ref: 'W-2' });
      const admin = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'W-1', email: 'admin@w1.example' });
      const elsewhere = await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'W-2', email: 'taken@w2.example' });
      const en = await signIn(t.app, admin);
      assert.equal((await en.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
      const tr = await signIn(t.app, admin);
      assert.equal((await tr.post('/portal/locale', { locale: 'tr', return_to: '/portal/' })).statusCode, 303);

      for (let i = 0; i < REFUSED_INVITATIONS_PER_DAY; i++) {
        const res = await en.post('/portal/users/invite', { email: elsewhere.email, role: 'member_user' });
        assert.equal(res.statusCode, 409);
        assert.match(res.body, /This address cannot be invited\./);
      }
      for (const email of ['new@w1.example', elsewhere.email]) {
        const res = await en.post('/portal/users/invite', { email, role: 'member_user' });
        assert.equal(res.statusCode, 409, email);
        assert.match(
          res.body,
          new RegExp(`No more invitations today: your member(?:'|&#39;)s invitations were refused ${REFUSED_INVITATIONS_PER_DAY} times today`),
          email,
        );
        assert.doesNotMatch(res.body, /cannot be invited\. If the person/, email);
        assert.equal(res.body.split('No more invitations today').length - 1, 1, `said once: ${email}`);
      }
      // Before anyone types an address, the page says so too, and offers no form, until the next day.
      const inviteForm = 'action="/portal/users/invite"';
      const page = await en.get('/portal/users');
      assert.match(page.body, /No more invitations today/);
      assert.ok(!page.body.includes(inviteForm));
      assert.match((await tr.get('/portal/users')).body, /Bugün başka davet gönderilemez/);
      const inTurkish = await tr.post('/portal/users/invite', { email: 'new@w1.example', role: 'member_user' });
      assert.equal(inTurkish.statusCode, 409);
      assert.match(inTurkish.body, new RegExp(`Bugün başka davet gönderilemez: üyenizin davetleri bugün ${REFUSED_INVITATIONS_PER_DAY} kez reddedildi`));
      const member = await db.selectFrom('members').select('id').where('ref', '=', 'W-1').executeTakeFirstOrThrow();
      // The operator sees the probing in the log: the member and the user, never an address.
      const refusals = t.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'invitation refused');
      assert.equal(refusals.length, REFUSED_INVITATIONS_PER_DAY + 3);
      assert.deepEqual(
        new Set(refusals.map((l) => `${String(l.level)} ${String(l.memberId)} ${String(l.problem)}`)),
        new Set([`40 ${member.id} member_users.invite_refused`, `40 ${member.id} member_users.invite_refusals_used_up`]),
      );
      assert.ok(!t.logs.some((l) => /w1\.example|w2\.example/.test(l)), 'no address in the log');
      const users = await db.selectFrom('users').select('email').where('member_id', '=', member.id).execute();
      assert.deepEqual(
        users.map((u) => u.email),
        ['admin@w1.example'],
      );
      // 00:00 in Turkey (21:00 UTC): the form is back.
      t.clock.set(Date.UTC(2026, 10, 21, 21, 0));
      const again = await signIn(t.app, admin); // the sessions of 12 hours ago have expired
      assert.equal((await again.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
      const nextDay = await again.get('/portal/users');
      assert.ok(nextDay.body.includes(inviteForm));
      assert.doesNotMatch(nextDay.body, /No more invitations today/);
    });

    test("if the day's refused invitations cannot be read nor a refusal given back, a new invitation's link is still shown with the form, and the operator is told of both", async () => {
      const { db } = database.engine;
      await makeMember(db, t.clock, { ref: 'W-3' });
      const admin = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'W-3', email: 'admin@w3.example' });
      // The same application, on a database that refuses every read of the usage counters…
      const unreadable = db.withPlugin({
        transformQuery({ node }) {
          // …and every give-back of a refusal: the route hands its logger to the service.
          if ((node.kind === 'SelectQueryNode' || node.kind === 'UpdateQueryNode') && JSON.stringify(node).includes('"usage_counters"'))
            throw new Error('connection lost');
          return node;
        },
        transformResult: ({ result }) => Promise.resolve(result),
      });
      const broken = await makeTestApp({ ...database, engine: { ...database.engine, db: unreadable } }, {}, t.clock.now());
      try {
        const en = await signIn(broken.app, admin);
        assert.equal((await en.post('/portal/locale', { locale: 'en', return_to: '/portal/' })).statusCode, 303);
        const invited = await en.post('/portal/users/invite', { email: 'colleague@w3.example', role: 'member_user' });
        assert.equal(invited.statusCode, 200);
        assert.match(invited.body, /id="invite-link"/);
        assert.ok(invited.body.includes('action="/portal/users/invite"'));
        const warned = broken.logs
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.msg === "the day's refused invitations could not be read");
        assert.equal(warned.length, 1);
        assert.equal(warned[0]!.level, 40);
        const notGivenBack = broken.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => /could not be given back/.test(String(l.msg)));
        assert.equal(notGivenBack.length, 1);
        assert.equal(notGivenBack[0]!.level, 40);
        assert.ok(!broken.logs.some((l) => /w3\.example/.test(l)), 'no address in the log');
      } finally {
        await broken.close();
      }
    });
  });
}
