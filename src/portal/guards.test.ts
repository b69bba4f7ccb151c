import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { memberOf, requireUser } from './guards.ts';
import { PortalError } from './portal-errors.ts';
import type { PortalContext } from './portal-context.ts';

function requestAs(role: PortalContext['user']['role'] | null, memberId: number | null = 7, method = 'GET') {
  const portal: PortalContext | null =
    role === null
      ? null
      : {
          user: { id: 1, email: 'a@example.com', name: 'A', role, memberId },
          member: memberId === null ? null : { id: memberId, ref: 'M-7', name: 'M', tier: 'full', status: 'active', agreementSignedOn: null },
          locale: 'en',
          csrfToken: 't',
        };
  return { portal, method, url: '/portal/users?x=1', portalState: { sessionEnded: false } } as unknown as FastifyRequest;
}

const refusal = (status: number) => (error: unknown) => error instanceof PortalError && error.statusCode === status;

test('memberOf: an operator has no member (403)', () => {
  assert.throws(() => memberOf(requestAs('operator', null)), refusal(403));
});

test('requireUser: no session redirects a GET to sign-in and refuses a POST; a wrong role is 403', async () => {
  let redirected: [string, number] | null = null;
  const reply = { redirect: (url: string, code: number) => ((redirected = [url, code]), reply) } as unknown as FastifyReply;
  await requireUser('member_admin')(requestAs(null), reply);
  assert.deepEqual(redirected, ['/portal/sign-in?next=%2Fportal%2Fusers', 303]);
  await assert.rejects(requireUser('member_admin')(requestAs(null, 7, 'POST'), reply), refusal(403));
  await assert.rejects(requireUser('member_admin')(requestAs('member_user'), reply), refusal(403));
  await assert.rejects(requireUser('operator')(requestAs('member_admin'), reply), refusal(403));
  await requireUser('member_admin', 'member_user')(requestAs('member_user'), reply);
  await requireUser()(requestAs('operator', null), reply);
});
