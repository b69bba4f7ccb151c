/**
 * The cap on a member's users that are not disabled (RISKLOOKUP_MAX_USERS_PER_MEMBER) holds when
 * a member_admin's invitations arrive at once, on every engine: each is a portal allowance
 * (D28), so a double click or a script must not add one more than the cap.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { makeMember } from './helpers/factories.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { inviteMemberUser, MemberUsersError } from '../src/members/member-users.service.ts';
import { inviteUser } from '../src/users/users.service.ts';

const MAX_USERS = 3;
const AT_ONCE = 8;

for (const engine of ENGINES) {
  describe(`member users cap under concurrency [${engine.name}]`, () => {
    let database: TestDatabase;
    const clock = fixedClock(NOON_TR);

    before(async () => {
      database = await engine.create();
      await makeMember(database.engine.db, clock, { ref: 'C-1' });
    });
    after(async () => {
      await database?.drop();
    });

    test(`${AT_ONCE} invitations at once with room for 2: exactly 2 are made, the others are refused with the cap`, async () => {
      const { db } = database.engine;
      const admin = await inviteUser(db, clock, { email: 'admin@c1.example', role: 'member_admin', memberRef: 'C-1', createdBy: 'test' });
      const member = await db.selectFrom('members').select('id').where('ref', '=', 'C-1').executeTakeFirstOrThrow();
      const actor = { userId: 0, memberId: Number(member.id), email: admin.user.email };
      const outcomes = await Promise.allSettled(
        Array.from({ length: AT_ONCE }, (_, i) =>
          inviteMemberUser(db, clock, actor, { email: `colleague${i}@c1.example`, role: 'member_user' }, { maxUsers: MAX_USERS }),
        ),
      );
      const made = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      assert.equal(made.length, MAX_USERS - 1, JSON.stringify(outcomes.map((o) => o.status)));
      for (const error of refused) {
        assert.ok(error instanceof MemberUsersError, String(error));
        assert.equal(error.problem.code, 'member_users.user_cap');
      }
      const users = await db.selectFrom('users').select('email').where('member_id', '=', member.id).where('status', '!=', 'disabled').execute();
      assert.equal(users.length, MAX_USERS);
    });
  });
}
