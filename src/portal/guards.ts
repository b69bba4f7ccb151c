/**
 * Who may reach a portal route (D27, D28). `requireUser()` as a route's preHandler:
 *
 *   scope.get(paths.users.route, { preHandler: requireUser('member_admin') }, async (request, reply) => {
 *     const ctx = portalOf(request); …
 *   });
 *
 * No session: a GET goes to the sign-in page (303), anything else is refused (403); a wrong role
 * is a 403 page. A resource read by id must be checked with `assertOwnedByMember`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRole } from '../db/schema.ts';
import type { PortalContext, PortalMember } from './portal-context.ts';
import { forbiddenError, PortalError } from './portal-errors.ts';
import type { Actor } from '../actors/actor.ts';
import type { StepUpProof } from '../operator/step-up.ts';
import { paths } from './paths.ts';

export function requireUser(...roles: UserRole[]) {
  return async function portalGuard(request: FastifyRequest, reply: FastifyReply) {
    if (request.portal === null) {
      if (request.method === 'GET' || request.method === 'HEAD') {
        const next = request.url.split('?')[0] ?? paths.home.href;
        const ended = request.portalState?.sessionEnded ? '&expired=1' : '';
        return reply.redirect(`${paths.signIn.href}?next=${encodeURIComponent(next)}${ended}`, 303);
      }
      throw new PortalError(403, 'error.forbidden.title', 'error.signInNeeded');
    }
    if (roles.length > 0 && !roles.includes(request.portal.user.role)) throw forbiddenError();
  };
}

/** The signed-in user's context on a route guarded by requireUser (throws if the guard is missing). */
export function portalOf(request: FastifyRequest): PortalContext {
  if (request.portal === null) throw forbiddenError();
  return request.portal;
}

/**
 * The signed-in user as the use cases' Actor (src/actors/actor.ts); `stepUp`, an operator's
 * confirmation of the action (step-up.ts).
 */
export function actorOf(request: FastifyRequest, stepUp?: StepUpProof | null): Actor {
  const { user } = portalOf(request);
  if (user.role === 'operator') return { kind: 'operator', userId: user.id, ...(stepUp ? { stepUp } : {}) };
  if (user.memberId === null) throw forbiddenError();
  return { kind: 'member_user', userId: user.id, memberId: user.memberId, role: user.role };
}

/** The member of a signed-in member user (member_admin, member_user); operators have none. */
export function memberOf(request: FastifyRequest): PortalMember {
  const member = portalOf(request).member;
  if (member === null) throw forbiddenError();
  return member;
}
