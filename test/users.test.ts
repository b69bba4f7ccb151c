/** Portal accounts (D27) on every engine: invitations, links used once and expiring, resets, disabling, emails. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { DomainError } from '../src/lib/errors.ts';
import { digestSecretToken } from '../src/users/one-time-token.ts';
import { totpCodeAt } from '../src/users/totp.ts';
import { TEST_KEY_RING } from './helpers/secrets.ts';
import { openColumn, USER_TOTP_SEED } from '../src/secrets/secret-columns.ts';
import { createSession } from '../src/sessions/sessions.service.ts';
import {
  acceptLink,
  createResetLink,
  describeLink,
  disableUser,
  enrolmentSeedOf,
  inviteUser,
  LINK_VALID_MS,
  listUserViews,
  oneTimeLinkOf,
} from '../src/users/users.service.ts';

const PASSWORD = 'correct horse battery staple';

async function rejectsWith(promise: Promise<unknown>, kind: DomainError['kind'], message?: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, kind);
    if (message) assert.match(error.message, message);
    return true;
  });
}

for (const engine of ENGINES) {
  describe(`users [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);
    const db = () => database.engine.db;

    before(async () => {
      database = await engine.create();
      await makeMember(db(), clock, { ref: 'M-1' });
      await makeMember(db(), clock, { ref: 'M-SUS', status: 'suspended' });
    });
    after(async () => {
      await database?.drop();
    });

    test('invite: the user waits with no password; only the digest of the link is stored', async () => {
      const link = await inviteUser(db(), clock, { email: ' Ayse@Example.COM ', role: 'member_admin', memberRef: 'M-1', createdBy: 'op' });
      assert.deepEqual(link.user, { email: 'Ayse@Example.COM', name: '', role: 'member_admin', status: 'invited', member: 'M-1' });
      assert.equal(link.purpose, 'invite');
      assert.match(link.token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(link.expiresAt, NOON_TR + LINK_VALID_MS);
      const user = await db().selectFrom('users').selectAll().where('email_norm', '=', 'ayse@example.com').executeTakeFirstOrThrow();
      assert.equal(user.password_hash, null);
      const tokens = await db().selectFrom('user_tokens').selectAll().where('user_id', '=', user.id).execute();
      assert.equal(tokens.length, 1);
      assert.equal(tokens[0]!.digest, digestSecretToken(link.token));
      assert.ok(!JSON.stringify(tokens).includes(link.token));
      assert.equal(oneTimeLinkOf('https://risk.example.com/', link.token), `https://risk.example.com/portal/accept?token=${link.token}`);
    });

    test('emails are unique whatever their case', async () => {
      await rejectsWith(
        inviteUser(db(), clock, { email: 'AYSE@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'op' }),
        'conflict',
        /already exists/,
      );
    });

    test('invite refuses a bad email, a missing or surplus member, an unknown or suspended member', async () => {
      await rejectsWith(inviteUser(db(), clock, { email: 'not-an-email', role: 'member_user', memberRef: 'M-1', createdBy: 'op' }), 'invalid');
      await rejectsWith(inviteUser(db(), clock, { email: 'a1@example.com', role: 'member_user', createdBy: 'op' }), 'invalid');
      await rejectsWith(inviteUser(db(), clock, { email: 'a2@example.com', role: 'operator', memberRef: 'M-1', createdBy: 'op' }), 'invalid');
      await rejectsWith(inviteUser(db(), clock, { email: 'a3@example.com', role: 'member_user', memberRef: 'M-NONE', createdBy: 'op' }), 'not_found');
      await rejectsWith(inviteUser(db(), clock, { email: 'a4@example.com', role: 'member_user', memberRef: 'M-SUS', createdBy: 'op' }), 'conflict');
    });

    test('accept: sets name and argon2id password, activates; the link works once', async () => {
      const link = await inviteUser(db(), clock, { email: 'once@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'op' });
      assert.deepEqual(await describeLink(db(), clock, link.token), { purpose: 'invite', email: 'once@example.com', name: '', role: 'member_user' });
      await acceptLink(db(), clock, { token: link.token, name: '  Ayşe   Yılmaz ', password: PASSWORD });
      const user = await db().selectFrom('users').selectAll().where('email_norm', '=', 'once@example.com').executeTakeFirstOrThrow();
      assert.equal(user.status, 'active');
      assert.equal(user.name, 'Ayşe Yılmaz');
      assert.match(user.password_hash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      assert.equal(await describeLink(db(), clock, link.token), null);
      await rejectsWith(acceptLink(db(), clock, { token: link.token, name: 'X', password: PASSWORD }), 'not_found', /does not work/);
    });

    test('a link expires after 72 hours', async () => {
      const link = await inviteUser(db(), clock, { email: 'late@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'op' });
      const later = fixedClock(NOON_TR + LINK_VALID_MS);
      assert.equal(await describeLink(db(), later, link.token), null);
      await rejectsWith(acceptLink(db(), later, { token: link.token, name: 'Late', password: PASSWORD }), 'not_found');
      const justInTime = fixedClock(NOON_TR + LINK_VALID_MS - 1);
      assert.ok(await describeLink(db(), justInTime, link.token));
    });

    test('a bad name or password is refused and leaves the link usable', async () => {
      const link = await inviteUser(db(), clock, { email: 'rules@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'op' });
      await rejectsWith(acceptLink(db(), clock, { token: link.token, name: 'R', password: 'short' }), 'invalid');
      await rejectsWith(acceptLink(db(), clock, { token: link.token, name: '   ', password: PASSWORD }), 'invalid');
      assert.ok(await describeLink(db(), clock, link.token));
      await rejectsWith(acceptLink(db(), clock, { token: 'x'.repeat(43), name: 'R', password: PASSWORD }), 'not_found');
    });

    test('reset: a new link replaces the old one; accepting it changes the password and ends sessions', async () => {
      const first = await createResetLink(db(), clock, { email: 'ONCE@example.com', createdBy: 'op' });
      assert.equal(first.purpose, 'reset');
      const second = await createResetLink(db(), clock, { email: 'once@example.com', createdBy: 'op' });
      assert.equal(await describeLink(db(), clock, first.token), null, 'the older link is retired');
      const user = await db().selectFrom('users').select(['id', 'password_hash']).where('email_norm', '=', 'once@example.com').executeTakeFirstOrThrow();
      await createSession(db(), clock, Number(user.id), null);
      await acceptLink(db(), clock, { token: second.token, name: 'Ayşe Yılmaz', password: 'another long password' });
      const after = await db().selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
      assert.notEqual(after.password_hash, user.password_hash);
      const open = await db().selectFrom('sessions').select('id').where('user_id', '=', user.id).where('ended_at', 'is', null).execute();
      assert.equal(open.length, 0);
    });

    test('reset of a user who never accepted is a new invitation', async () => {
      const link = await createResetLink(db(), clock, { email: 'late@example.com', createdBy: 'op' });
      assert.equal(link.purpose, 'invite');
      await rejectsWith(createResetLink(db(), clock, { email: 'nobody@example.com', createdBy: 'op' }), 'not_found');
    });

    test('disable: sessions end, links stop working, no new link', async () => {
      const link = await inviteUser(db(), clock, { email: 'gone@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'op' });
      const view = await disableUser(db(), clock, 'Gone@Example.com');
      assert.equal(view.status, 'disabled');
      assert.equal(await describeLink(db(), clock, link.token), null);
      await rejectsWith(createResetLink(db(), clock, { email: 'gone@example.com', createdBy: 'op' }), 'conflict');
    });

    test('operators enrol TOTP on acceptance: a wrong code is refused, a right one stored (sealed) with its step', async () => {
      const keyRing = TEST_KEY_RING;
      const link = await inviteUser(db(), clock, { email: 'op@example.com', role: 'operator', createdBy: 'op', keyRing });
      assert.equal(link.user.member, null);
      const secret = (await enrolmentSeedOf(db(), clock, keyRing, link.token))!;
      assert.ok(secret);
      await rejectsWith(
        acceptLink(db(), clock, {
          keyRing,
          token: link.token,
          name: 'Op',
          password: PASSWORD,
          totpCode: '000000' === totpCodeAt(secret, clock.now()) ? '111111' : '000000',
        }),
        'invalid',
      );
      await rejectsWith(acceptLink(db(), clock, { keyRing, token: link.token, name: 'Op', password: PASSWORD }), 'invalid');
      await acceptLink(db(), clock, { keyRing, token: link.token, name: 'Op', password: PASSWORD, totpCode: totpCodeAt(secret, clock.now()) });
      const user = await db().selectFrom('users').selectAll().where('email_norm', '=', 'op@example.com').executeTakeFirstOrThrow();
      assert.notEqual(user.totp_secret, secret, 'never in clear');
      assert.equal(openColumn(keyRing, USER_TOTP_SEED, Number(user.id), user.totp_secret!), secret);
      assert.equal(Number(user.totp_last_step), Math.floor(clock.now() / 30_000));
    });

    test("a member scope: another member's user or an operator is not found", async () => {
      await makeMember(db(), clock, { ref: 'M-3' });
      const m1 = await db().selectFrom('members').select('id').where('ref', '=', 'M-1').executeTakeFirstOrThrow();
      const m3 = await db().selectFrom('members').select('id').where('ref', '=', 'M-3').executeTakeFirstOrThrow();
      await inviteUser(db(), clock, { email: 'scoped@example.com', role: 'member_user', memberRef: 'M-1', createdBy: 'op' });
      await rejectsWith(disableUser(db(), clock, 'scoped@example.com', { memberId: Number(m3.id) }), 'not_found');
      await rejectsWith(createResetLink(db(), clock, { email: 'scoped@example.com', createdBy: 'x', memberId: Number(m3.id) }), 'not_found');
      await rejectsWith(
        createResetLink(db(), clock, { email: 'op@example.com', createdBy: 'x', memberId: Number(m1.id), keyRing: TEST_KEY_RING }),
        'not_found',
      );
      assert.equal((await createResetLink(db(), clock, { email: 'scoped@example.com', createdBy: 'x', memberId: Number(m1.id) })).purpose, 'invite');
      assert.equal((await disableUser(db(), clock, 'scoped@example.com', { memberId: Number(m1.id) })).status, 'disabled');
    });

    test("list: all users, or one member's", async () => {
      const all = await listUserViews(db());
      assert.ok(all.some((u) => u.role === 'operator'));
      const m1 = await listUserViews(db(), { memberRef: 'M-1' });
      assert.ok(m1.length > 0 && m1.every((u) => u.member === 'M-1'));
    });
  });
}
