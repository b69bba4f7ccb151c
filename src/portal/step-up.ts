/**
 * The console's confirmation of an action that needs one (issue 27, finding 4; the list is
 * src/operator/step-up.ts): the operator's password and a TOTP code not used before, sent with the
 * action's own form. Without them the page asks for them, carrying the action's fields on (403,
 * nothing done). The sign-in service checks them exactly as a sign-in (`signIn.confirmStepUp`,
 * src/sessions/auth.service.ts: the same slowing of guesses, the same replay guard), so a wrong one
 * counts as a failed sign-in, and writes each refusal in the operator log; this file keeps the
 * page. Only a confirmed action gets the proof its service asks for.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StepUpAction, StepUpProof } from '../operator/step-up.ts';
import { waitText } from './auth.page.ts';
import { portalCookiesFor } from './cookies.ts';
import { deviceTokensOf } from './device-cookie.ts';
import { formField } from './forms.ts';
import { actorOf, portalOf } from './guards.ts';
import { html, type Html } from './html.ts';
import { csrfField, notice } from './components.ts';
import { renderPage, sendPage } from './layout.ts';
import { translator, type MessageKey } from './messages/index.ts';
import type { PortalContext } from './portal-context.ts';
import type { PortalDeps } from './portal-deps.ts';
import type { Services } from '../services.ts';

export type StepUpDeps = Pick<PortalDeps, 'transport'> & { services: Pick<Services, 'signIn'> };

/** The action to confirm, and its target as the page shows it (a member's ref, a user's email). */
export interface StepUpNeed {
  action: StepUpAction;
  /** The proof's target (stepUpTarget). */
  target: string;
  shown: string;
}

const CONFIRM_FIELDS = new Set(['_csrf', 'confirm_password', 'confirm_code']);

/** The action's own fields, to post again with the confirmation. */
function carriedFields(body: unknown): Array<[string, string]> {
  const fields = (body ?? {}) as Record<string, unknown>;
  return Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string' && !CONFIRM_FIELDS.has(e[0]));
}

function confirmPage(ctx: PortalContext, request: FastifyRequest, need: StepUpNeed, error: string | null): Html {
  const tr = translator(ctx.locale);
  const body = html`${error ? notice('error', error) : ''}
    <p>${tr('console.confirm.intro')}</p>
    <p><strong>${tr('console.confirm.what', { action: tr(`console.stepUp.${need.action}` as MessageKey), target: need.shown })}</strong></p>
    <form method="post" action="${request.url}" class="stack">
      ${csrfField(ctx)}${carriedFields(request.body).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
      <label for="confirm_password">${tr('console.confirm.password')}</label>
      <input type="password" id="confirm_password" name="confirm_password" autocomplete="current-password" required />
      <label for="confirm_code">${tr('console.confirm.code')}</label>
      <input type="text" id="confirm_code" name="confirm_code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required />
      <button type="submit">${tr('console.confirm.submit')}</button>
    </form>`;
  return renderPage(ctx, { title: tr('console.confirm.title'), body, active: 'operator' });
}

/**
 * Runs `run` with a proof for `need` once the request carries the operator's password and a new
 * code; otherwise answers the confirmation page (403) and runs nothing. `need` null: nothing to
 * confirm (the same route's other actions).
 */
export async function withStepUp(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: StepUpDeps,
  need: StepUpNeed | null,
  run: (stepUp: StepUpProof | undefined) => Promise<unknown>,
): Promise<unknown> {
  if (need === null) return run(undefined);
  const ctx = portalOf(request);
  const password = formField(request.body, 'confirm_password', 1024);
  const code = formField(request.body, 'confirm_code', 20);
  if (password === '' && code === '') return sendPage(reply, confirmPage(ctx, request, need, null), 403);
  const outcome = await deps.services.signIn.confirmStepUp(actorOf(request), {
    action: need.action,
    target: need.target,
    password,
    code,
    address: request.ip,
    deviceTokens: deviceTokensOf(request, portalCookiesFor(deps.transport)),
  });
  if (outcome.kind === 'confirmed') return run(outcome.proof);
  const slowed = outcome.kind === 'throttled';
  request.log.info({ action: need.action, outcome: outcome.kind }, 'portal: operator confirmation refused');
  const tr = translator(ctx.locale);
  const error = slowed ? tr('console.confirm.throttled', { wait: waitText(ctx.locale, Math.ceil(outcome.waitMs / 1000)) }) : tr('console.confirm.refused');
  if (slowed) reply.header('retry-after', String(Math.ceil(outcome.waitMs / 1000)));
  return sendPage(reply, confirmPage(ctx, request, need, error), slowed ? 429 : 403);
}
