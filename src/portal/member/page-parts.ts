/** Small pieces the member pages share. */
import { html, type Html } from '../html.ts';
import type { PortalContext } from '../portal-context.ts';
import { formatTurkeyDateTime } from '../../lib/turkey-time.ts';

/** The hidden CSRF field every form carries (D27). */
export function csrfInput(ctx: PortalContext): Html {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />`;
}

/**
 * A copy button for the element with id `targetId` (its text), handled by /portal/assets/portal.js;
 * hidden until that script finds a clipboard, so a page without script shows no dead button.
 */
export function copyButton(targetId: string, label: string, copied: string): Html {
  return html`<button type="button" class="secondary" data-copy-target="${targetId}" data-copied-label="${copied}" hidden>${label}</button>`;
}

/** A status line for the outcome of an action: polite live region, so screen readers hear it. */
export function notice(kind: 'ok' | 'error' | 'info', text: string | Html): Html {
  return html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

/** `YYYY-MM-DD HH:MM` Turkey time (D4). */
export function turkeyMinute(ms: number): string {
  return formatTurkeyDateTime(ms).slice(0, 16);
}
