/**
 * Refusals a portal page shows as an HTML page (the portal's error handler renders them): the
 * title and text come from the catalogue, so they are in the reader's language.
 */
import type { MessageKey } from './messages/index.ts';

export class PortalError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409,
    readonly titleKey: MessageKey,
    readonly textKey: MessageKey,
    /** Values of the text's placeholders (escaped when shown, like all text). */
    readonly values: Record<string, string> = {},
  ) {
    super(`${statusCode} ${textKey}`);
    this.name = 'PortalError';
  }
}

/** The page or resource is not this user's (or does not exist): the same answer either way. */
export const notFoundError = () => new PortalError(404, 'error.notFound.title', 'error.notFound.text');
export const forbiddenError = () => new PortalError(403, 'error.forbidden.title', 'error.forbidden.text');
/** A state change without a valid CSRF token or from another origin. */
export const csrfError = () => new PortalError(403, 'error.forbidden.title', 'error.csrf.text');
