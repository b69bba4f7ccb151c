/**
 * The member's users (D27, D28), for its member_admin: list, invite, a new one-time link,
 * disable. The id in a URL is looked up within the admin's own member only: another member's
 * user is a 404, like an unknown one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { DomainError, statusOf } from '../../lib/errors.ts';
import { MemberUsersError } from '../../members/member-users.service.ts';
import { oneTimeLinkOf } from '../../users/users.service.ts';
import { actorOf, memberOf, portalOf, requireUser } from '../guards.ts';
import { redirectTo, renderPage, sendPage } from '../layout.ts';
import type { PortalDeps } from '../portal-deps.ts';
import { notFoundError } from '../portal-errors.ts';
import { problemText } from '../problem-text.ts';
import type { Locale } from '../portal-context.ts';
import { formField } from '../forms.ts';
import { publicBaseOf } from './route-helpers.ts';
import { memberText } from './text.ts';
import { usersBody, type UsersFlash } from './users.page.ts';
import { paths } from '../paths.ts';

/**
 * A service's refusal in the page's language. Only a member_admin's own refusals are worded as
 * they are (they name no other account); any other DomainError gets a generic text.
 */
export function refusalOf(locale: Locale, error: DomainError): string {
  if (error instanceof MemberUsersError) return problemText(locale, error.problem, error.message);
  const t = memberText(locale);
  return t(error.kind === 'invalid' ? 'problem.member_users.email_invalid' : 'users.refused');
}

export function registerUsersRoutes(app: App, deps: Pick<PortalDeps, 'publicUrl' | 'services'>) {
  const memberUsers = deps.services.memberUsers;
  const show = async (request: FastifyRequest, reply: FastifyReply, flash: UsersFlash, status = 200, form?: { email: string; role: string }) => {
    const ctx = portalOf(request);
    const users = await memberUsers.list(actorOf(request));
    const room = {
      used: users.filter((u) => u.status !== 'disabled').length,
      max: memberUsers.maxUsers,
      // A hint only: if it cannot be read, the form is offered (and a one-time link just made
      // is still shown); the service decides on the POST anyway.
      refusalsUsedUp: await memberUsers.refusalsUsedUp(actorOf(request)).catch((error: unknown) => {
        request.log.warn({ memberId: memberOf(request).id, err: error }, "the day's refused invitations could not be read");
        return false;
      }),
    };
    reply.header('cache-control', 'no-store');
    return sendPage(
      reply,
      renderPage(ctx, { title: memberText(ctx.locale)('users.title'), body: usersBody(ctx, users, flash, room, form), active: 'users' }),
      status,
    );
  };
  const admin = { preHandler: requireUser('member_admin') };
  app.get(paths.users.route, admin, async (request, reply) => {
    const disabled = Number((request.query as { disabled?: string }).disabled);
    const users = Number.isInteger(disabled) && disabled > 0 ? await memberUsers.list(actorOf(request)) : [];
    // Only a user who is disabled: a link cannot make the page say so of an active one.
    const who = users.find((u) => u.id === disabled && u.status === 'disabled');
    return show(request, reply, who ? { kind: 'disabled', name: who.name || who.email } : null);
  });
  app.post(paths.usersInvite.route, admin, async (request, reply) => {
    const ctx = portalOf(request);
    const form = { email: formField(request.body, 'email'), role: formField(request.body, 'role') === 'member_admin' ? 'member_admin' : 'member_user' };
    try {
      const issued = await memberUsers.invite(actorOf(request), { email: form.email, role: form.role as 'member_admin' | 'member_user' });
      return await show(request, reply, { kind: 'invited', email: issued.email, link: oneTimeLinkOf(publicBaseOf(deps), issued.token) });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // Refusals that tell whether an address has an account, and their daily cap: the operator
      // sees a member probing addresses in the log (member and user, never the address).
      const code = error.problems[0]?.code;
      if (code === 'member_users.invite_refused' || code === 'member_users.invite_refusals_used_up') {
        request.log.warn({ memberId: memberOf(request).id, userId: ctx.user.id, problem: code }, 'invitation refused');
      }
      return show(request, reply, { kind: 'error', message: refusalOf(ctx.locale, error), ...(code ? { code } : {}) }, statusOf(error), form);
    }
  });
  app.post(paths.userDisable.route, admin, async (request, reply) => {
    const ctx = portalOf(request);
    const id = Number((request.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw notFoundError();
    try {
      await memberUsers.disable(actorOf(request), { userId: id });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
      if (!(error instanceof DomainError)) throw error;
      return show(request, reply, { kind: 'error', message: refusalOf(ctx.locale, error) }, statusOf(error));
    }
    return redirectTo(reply, `${paths.users.href}?disabled=${id}`);
  });
  app.post(paths.userLink.route, admin, async (request, reply) => {
    const ctx = portalOf(request);
    const id = Number((request.params as { id: string }).id);
    if (!Number.isSafeInteger(id) || id <= 0) throw notFoundError();
    try {
      const issued = await memberUsers.newLink(actorOf(request), { userId: id });
      return await show(request, reply, { kind: 'invited', email: issued.email, link: oneTimeLinkOf(publicBaseOf(deps), issued.token) });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
      if (!(error instanceof DomainError)) throw error;
      return show(request, reply, { kind: 'error', message: refusalOf(ctx.locale, error) }, statusOf(error));
    }
  });
}
